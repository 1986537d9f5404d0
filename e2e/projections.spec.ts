import { test, expect } from './fixtures/app.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';
import { ComparePage } from './pages/compare.ts';

const ORIGINAL = 'E-commerce single table';
const ALTERNATIVE = 'E-commerce single table (alternative)';
const PATTERN = 'List products in a category';

test('a GSI changed to KEYS_ONLY no longer serves a pattern that returns whole items alone: the fetch is costed, and Compare marks that side worse', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  const compare = new ComparePage(page);
  await app.open(host.url);
  await app.openExample(ORIGINAL);

  await app.show('Access patterns');
  await expect(patterns.badge(PATTERN)).toContainText('GSI Query');
  await expect(patterns.row(PATTERN).getByTestId('fetch-note')).toHaveCount(0);
  const served = await patterns.perRequest(PATTERN);

  // An alternative whose GSI1 projects only the keys.
  await compare.show();
  await compare.duplicateAsAlternative();
  await expect(app.designName).toHaveValue(ALTERNATIVE);
  await app.show('Table & indexes');
  await page.getByRole('article', { name: 'GSI GSI1' }).getByLabel('Projection').selectOption('KEYS_ONLY');

  // The pattern still queries GSI1 but says it is not served by it alone, and costs the fetches.
  await app.show('Access patterns');
  await expect(patterns.badge(PATTERN)).toContainText('GSI Query');
  await expect(patterns.row(PATTERN).getByTestId('fetch-note')).toHaveText('not served by GSI1 alone: + BatchGetItem from the table');
  const withFetch = await patterns.perRequest(PATTERN);
  expect(withFetch).toBeGreaterThan(served);
  await patterns.row(PATTERN).getByRole('cell').nth(1).click();
  const options = page.getByTestId('projection-options');
  await expect(options).toContainText('GSI1 does not project');
  await expect(options).toContainText('Project ALL in GSI1');
  await steps.shot('keys-only-fetch');

  // The derivation shows both parts: the GSI Query and the fetches from the table.
  const dialog = await patterns.explainPerRequest(PATTERN);
  await expect(dialog).toContainText('BatchGetItem from the table for each item, each rounded up to 4 KB on its own');
  await expect(dialog).toContainText('Read units in all: the GSI Query plus the fetches from the table');
  await expect(dialog).not.toContainText('FilterExpression');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Compare: the KEYS_ONLY side is worse on the pattern, not better.
  await compare.show();
  await expect(compare.source(ORIGINAL)).toBeChecked();
  await expect(compare.source(ALTERNATIVE)).toBeChecked();
  await expect(compare.cell(PATTERN, 'Operation', 1)).toHaveText('Query + BatchGetItem from the table');
  await expect(compare.better(PATTERN, 'Operation')).toHaveText(ORIGINAL);
  await expect(compare.better(PATTERN, 'RCU per request')).toHaveText(ORIGINAL);
  await expect(compare.better(PATTERN, 'Items fetched from the table')).toHaveText(ORIGINAL);
  await steps.shot('keys-only-compared');

  // The projection change offered on the pattern restores it, as an undoable edit.
  await app.show('Access patterns');
  await patterns.row(PATTERN).getByRole('cell').nth(1).click();
  await page.getByRole('button', { name: 'Change GSI1 to ALL' }).click();
  await expect(patterns.row(PATTERN).getByTestId('fetch-note')).toHaveCount(0);
  expect(await patterns.perRequest(PATTERN)).toBe(served);
  await app.undo();
  await expect(patterns.row(PATTERN).getByTestId('fetch-note')).toBeVisible();
});
