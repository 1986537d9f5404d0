import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { PartitionsPage } from './pages/partitions.ts';

async function openDesignFile(app: KeyplanPage, workspaceDir: string, name: string): Promise<void> {
  await mkdir(workspaceDir, { recursive: true });
  await copyFile(join(import.meta.dirname, 'data', name), join(workspaceDir, name));
  await app.openFile(name);
  await app.show('Partitions');
}

test('a country key taking 90% of the traffic runs hot; sharding it clears the throttling and shows the fan-out cost', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const partitions = new PartitionsPage(page);
  await app.open(host.url);
  await openDesignFile(app, host.workspaceDir, 'activity-log.keyplan.json');

  await partitions.simulate();
  await expect(partitions.patternThrottling('Log an activity')).toContainText('TableWriteKeyRangeThroughputExceeded');
  await expect(partitions.summary()).toContainText('COUNTRY#');
  await expect(partitions.hottestKeys()).toContainText('COUNTRY#');
  await steps.shot('hot-partition');

  await expect(partitions.recommended()).toContainText('shards');
  await partitions.simulateWhatIf();
  await expect(partitions.whatIfThrottled()).toHaveText('0%');
  await expect(partitions.fanOutChange('Recent activity in a country')).toContainText('Fan-out Query');
  await steps.shot('sharded');
});

test("orders keyed by date: today's key is hot while past days idle", async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const partitions = new PartitionsPage(page);
  await app.open(host.url);
  await openDesignFile(app, host.workspaceDir, 'orders-by-date.keyplan.json');

  await partitions.simulate();
  await expect(partitions.patternThrottling('Place an order')).toContainText('TableWriteKeyRangeThroughputExceeded');
  await expect(partitions.summary()).toContainText('DATE#');
  await expect(partitions.summary()).toContainText('ever-increasing sort key');
  await steps.shot('today-hot');
});
