import { test, expect } from './fixtures/app.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';

test('plans and costs access patterns; a Scan-served pattern turns into a GSI Query when the suggested index is added', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await app.show('Access patterns');

  await expect(patterns.badge('Get user profile')).toHaveText('GetItem');
  await expect(patterns.badge('List products in a category')).toContainText('GSI Query');
  await expect(patterns.badge('Place order')).toContainText('PutItem');
  await steps.shot('example-patterns');

  // A new pattern nothing serves: users by country.
  await patterns.add();
  await patterns.rename('List users in a country');
  await patterns.setEntity('User');
  await patterns.setOperation('list many items');
  await patterns.setKnown(['country']);
  await expect(patterns.badge('List users in a country')).toHaveText('Scan');
  await expect(patterns.warnings().filter({ hasText: 'List users in a country' })).toContainText('served by a Scan');
  const scanCost = await patterns.perRequest('List users in a country');
  expect(scanCost).toBeGreaterThan(1000);
  await steps.shot('scan-flagged');

  // Its derivation opens from the number.
  const dialog = await patterns.explainPerRequest('List users in a country');
  await expect(dialog).toContainText('1 MB');
  await expect(dialog).toContainText('RCU');
  await steps.shot('scan-derivation');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The suggested index serves it (users are not in GSI2, whose keys fit: it is reused rather than a
  // new GSI added): the badge and the cost change by the ratio the Scan column showed.
  await page.getByRole('button', { name: 'Use GSI2 for User' }).click();
  await expect(patterns.badge('List users in a country')).toContainText('GSI Query');
  const queryCost = await patterns.perRequest('List users in a country');
  expect(queryCost).toBeLessThan(scanCost / 100);
  // The editor is a side panel; closed, the list shows every column again, the Scan beside the plan.
  await patterns.closePanel();
  const ratioText = await patterns.scanRatio('List users in a country').innerText();
  const ratio = Number(ratioText.split('×')[0]!.replace(/,/g, ''));
  expect(Math.abs(ratio - scanCost / queryCost) / ratio).toBeLessThan(0.01);
  // No longer a Scan. (Its load on GSI2, ~49,000 RCU/s, is above what a new on-demand GSI serves at
  // once, so the warm-throughput warning rightly names it.)
  await expect(patterns.warnings().filter({ hasText: 'List users in a country' }).filter({ hasText: 'served by a Scan' })).toHaveCount(0);
  await steps.shot('served-by-gsi');

  // Totals on the costs screen follow the prices the user sets.
  await app.show('Costs');
  const total = page.getByTestId('total-on-demand');
  const before = await total.innerText();
  await page.getByLabel('On-demand reads, $ per million RRU, Standard', { exact: true }).fill('0.25');
  await expect(total).not.toHaveText(before);
  await steps.shot('costs-screen');
});

test("storage is billed from the first GB until the user says the account's free tier is this design's", async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await app.show('Costs');
  // The example stores 9.48 GB (items and index entries, 100 B each included): × $0.25 = $2.37.
  const storage = page.getByTestId('total-storage');
  await expect(storage.locator('.big')).toContainText('$2.37');
  await expect(page.getByTestId('free-storage-note')).toContainText('No free storage is subtracted');
  await storage.getByRole('button').first().click();
  const derivation = page.getByRole('dialog');
  await expect(derivation).toContainText('max(0, 9.475 GB − 0 GB)');
  await expect(derivation).toContainText('per account and Region');
  await steps.shot('storage-derivation');
  await page.keyboard.press('Escape');

  // With the 25 GB free tier set, 9.48 GB is all free.
  await page.getByLabel('Free storage, GB, Standard', { exact: true }).fill('25');
  await expect(storage.locator('.big')).toContainText('$0.00');
  await expect(page.getByTestId('free-storage-note')).toContainText('25 GB of Standard storage is subtracted once');
  await steps.shot('free-storage-set');
});
