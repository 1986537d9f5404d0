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

test('a country key taking 90% of the traffic runs hot; the advice comes from its stated peak, not the noisy busiest second; sharding on a warm table clears it', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const partitions = new PartitionsPage(page);
  await app.open(host.url);
  await openDesignFile(app, host.workspaceDir, 'activity-log.keyplan.json');

  // A design never deployed runs cold by default, with reads and writes limited independently.
  await partitions.simulate();
  await expect(partitions.runSettings()).toContainText('Cold start');
  await expect(partitions.runSettings()).toContainText('limited independently');
  await expect(partitions.patternThrottling('Log an activity')).toContainText('TableWriteKeyRangeThroughputExceeded');
  await expect(partitions.summary()).toContainText('COUNTRY#');
  await expect(partitions.hottestKeys()).toContainText('COUNTRY#');
  // 50 countries: the mean key carries 2 % of the load, a hot one over 4 %. The hot country carries
  // 90 %; the 49 others about 10 % ÷ 49 = 0.2 % each, so the list holds the hot one alone.
  await expect(partitions.hottestKeys().locator('tbody tr')).toHaveCount(1);
  await expect(partitions.hottestKeys().locator('caption')).toContainText('over twice the mean key load (4%)');
  // 90% of 3,000 writes/s: a stated peak of 2,700 WCU/s on one key: minimum ceil(2,700 / 1,000) = 3,
  // recommended ceil(2,700 × 1.25 / 1,000 = 3.375) = 4. Its busiest simulated second is up to 4σ of
  // arrival noise above (≤ 2,900), shown beside it and not planned for.
  await expect(partitions.throttledKeys()).toContainText("against one partition's 1,000 WCU/s");
  await expect(partitions.throttledKeys()).toContainText('at least 3; 4 at 1.25 headroom');
  await expect(partitions.hotKey()).toContainText('stated peak 2,700 WCU/s');
  await expect(partitions.hotKey()).toContainText(/busiest simulated second 2,[7-9]\d\d(\.\d+)? WCU\/s/);
  // A key redesign comes before sharding, with what it costs the pattern that reads by country.
  await expect(partitions.keyRedesign()).toContainText('higher-cardinality key');
  await expect(partitions.keyRedesign()).toContainText('"Recent activity in a country" does not know');
  await expect(partitions.recommended()).toContainText('Recommended: 4 shards, at least 3');
  await expect(partitions.recommended()).toContainText("From the key's stated peak");
  await steps.shot('hot-partition');
  // Headroom 2: ceil(2,700 × 2 / 1,000 = 5.4) = 6.
  await partitions.setHeadroom(2);
  await expect(partitions.recommended()).toContainText('Recommended: 6 shards, at least 3');
  await partitions.setHeadroom(1.25);
  await expect(partitions.fanOutChange('Recent activity in a country')).toContainText('Fan-out Query');

  // Cold, two of the four shards can land on one of the new table's four partitions: what still
  // throttles is explained by key and limit.
  await partitions.simulateWhatIf();
  await partitions.showWhatIf();
  await expect(partitions.whatIfExplained()).toContainText('Still throttled: COUNTRY#');
  await expect(partitions.whatIfExplained()).toContainText('TableWriteKeyRangeThroughputExceeded');
  await steps.shot('sharded-cold');

  // Warm (the load has run before, split for heat done): the four shards clear the throttling.
  await partitions.chooseStart('warm');
  await partitions.simulate();
  await expect(partitions.runSettings()).toContainText('Warm start');
  await partitions.simulateWhatIf();
  await expect(partitions.whatIfThrottled()).toHaveText('0%');
  await partitions.showWhatIf();
  await steps.shot('sharded-warm');
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
  // Past days carry no writes: the hottest-key list is today's key alone, not a list of idle days at 0 %.
  await expect(partitions.hottestKeys().locator('tbody tr')).toHaveCount(1);
  await expect(partitions.hottestKeys().locator('tbody tr')).toContainText('DATE#');
  await steps.shot('today-hot');
});
