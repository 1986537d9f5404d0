import { test, expect } from './fixtures/app.ts';
import { DataPage } from './pages/data.ts';
import { KeyplanPage } from './pages/keyplan.ts';

test('generates sample items in the host and shows them grouped by partition key, per index, found by key', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const data = new DataPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await app.show('Data');

  await data.generate();
  await expect(data.summary()).toContainText('Order');
  await expect(data.rows().first()).toBeVisible();
  await expect(data.collections().first()).toBeVisible();
  // Virtualized: only the rows in view are in the page, however many items there are.
  expect(await data.rows().count()).toBeLessThan(200);
  await steps.shot('table-view');

  await data.selectView(/GSI1/);
  await expect(data.collections().first()).toBeVisible();
  await data.find('USER#');
  await expect(data.collections().filter({ hasText: 'USER#u-0000001' })).toBeInViewport();
  await steps.shot('gsi1-found');
});
