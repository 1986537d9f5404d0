import { test, expect } from './fixtures/app.ts';
import { DataPage } from './pages/data.ts';
import { EntitiesPage } from './pages/entities.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';
import { PartitionsPage } from './pages/partitions.ts';

test('a hot value set in the Entities screen: the sample data holds in the sparse index the share the costs state, and the simulator finds that key hot with advice from its peak', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const entities = new EntitiesPage(page);
  const data = new DataPage(page);
  const patterns = new PatternsPage(page);
  const partitions = new PartitionsPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');

  // Order.status: PENDING (listed first) becomes the hot value at 40 %; the other four share 60 %, 15 % each.
  // GSI2 holds PENDING and PROCESSING orders: 40 % + 15 % = 55 %.
  await app.show('Entities & keys');
  await entities.select('Order');
  await entities.setHotValue('status', 40);
  const shares = page.getByRole('table', { name: 'Values and weights of status' });
  await expect(shares.getByRole('row').first()).toContainText('40 %');
  await expect(shares.getByRole('row').nth(1)).toContainText('15 %');
  await steps.shot('hot-status');

  // The key previews are the sample data's own items: the first one of GSI2PK is an open order's key.
  const preview = await entities.preview('GSI2PK').locator('code').first().innerText();
  expect(preview).toMatch(/^STATUS#(PENDING|PROCESSING)$/);
  const orderPk = await entities.preview('PK').locator('code').first().innerText();

  await app.show('Costs');
  await page.getByRole('row', { name: /GSI GSI2/ }).getByRole('button', { name: /GB/ }).click();
  const derivation = page.getByRole('dialog');
  await expect(derivation).toContainText('× 0.55 in the index');
  await derivation.getByRole('button', { name: 'Close' }).click();

  await app.show('Data');
  await data.generate();
  const summary = data.summary();
  const count = async (table: string, row: RegExp): Promise<number> =>
    // "498,753 of 5,000,000": the items generated come first.
    Number(/[\d,]+/.exec(await summary.getByRole('table').nth(table === 'entities' ? 0 : 1).getByRole('row', { name: row }).getByRole('cell').nth(1).innerText())?.[0].replace(/,/g, ''));
  const orders = await count('entities', /^Order\b/);
  const inGsi2 = await count('views', /GSI2/);
  expect(orders).toBeGreaterThan(10_000);
  // Four standard errors of a 55 % share over this many orders.
  const tolerance = 4 * Math.sqrt((0.55 * 0.45) / orders);
  expect(Math.abs(inGsi2 / orders - 0.55)).toBeLessThan(tolerance);
  await steps.shot('sample-share');
  // The Data screen holds the previewed item's key.
  await data.find(orderPk);
  await expect(data.collections().filter({ hasText: orderPk })).toBeInViewport();

  // At 5,000 orders a second, the hot status puts 40 % of them, 2,000 WCU/s, on one GSI2 key.
  await app.show('Access patterns');
  await patterns.setRate('Place order', 5000);
  await app.show('Partitions');
  await partitions.simulate();
  const gsi2Hottest = page.getByRole('table', { name: /^Hottest keys of GSI GSI2/ });
  await expect(gsi2Hottest.getByRole('row').nth(1)).toContainText('STATUS#PENDING');
  const gsi2Throttled = page.getByRole('table', { name: /^Throttled keys of GSI GSI2/ });
  await expect(gsi2Throttled).toContainText('STATUS#PENDING');
  // Stated on the key: 5,000 × 0.4 = 2,000 WCU/s of new orders, plus "Update order status" at 80/s, whose
  // old and new status are each PENDING 40 % of the time, one 1 WCU index write each: 80 × 0.8 = 64. So
  // 2,064 WCU/s (its busiest simulated second is a little above, arrival noise): at least
  // ceil(2,064 / 1,000) = 3 shards, and ceil(2,064 × 1.25 / 1,000 = 2.58) = 3 with headroom.
  await expect(gsi2Throttled).toContainText(/peak 2,[0-3]\d\d(\.\d+)? WCU\/s against one partition's 1,000 WCU\/s/);
  await expect(gsi2Throttled.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText('2,064');
  await expect(gsi2Throttled).toContainText('at least 3; 3 at 1.25 headroom');
  await steps.shot('hot-status-simulated');
});
