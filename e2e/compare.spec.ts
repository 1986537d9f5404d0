import { test, expect } from './fixtures/app.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';
import { ComparePage } from './pages/compare.ts';

const ORIGINAL = 'E-commerce single table';
const ALTERNATIVE = 'E-commerce single table (alternative)';
const PATTERN = 'List users in a country';
const WRITE = 'Sign up a user';
/** The suggested index reuses GSI2: it now projects ALL, and User gets keys for it. */
const SUMMARY_CHANGES = 'GSI2 projection changed';

test('an alternative that serves a Scan with a new GSI compares better on that pattern, adds the index writes and changes the totals, and the summary says so; a restored revision is intact', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  const compare = new ComparePage(page);
  await app.open(host.url);
  await app.openExample(ORIGINAL);

  // A pattern the example serves only by a Scan, in the design both alternatives start from.
  await app.show('Access patterns');
  await patterns.add();
  await patterns.rename(PATTERN);
  await patterns.setEntity('User');
  await patterns.setOperation('list many items');
  await patterns.setKnown(['country']);
  await expect(patterns.badge(PATTERN)).toHaveText('Scan');
  // And a write of the entity, which a new index on it has to follow.
  await patterns.add();
  await patterns.rename(WRITE);
  await patterns.setEntity('User');
  await patterns.setOperation('write: put (create or replace)');
  await expect(patterns.badge(WRITE)).toContainText('PutItem');

  // Duplicate as alternative: a new design, open, and both chosen for comparison.
  await compare.show();
  await compare.duplicateAsAlternative();
  await expect(app.designName).toHaveValue(ALTERNATIVE);
  await expect(compare.source(ORIGINAL)).toBeChecked();
  await expect(compare.source(ALTERNATIVE)).toBeChecked();
  await expect(compare.row(PATTERN, 'Operation')).toBeVisible();
  // Neither is saved to a file: both are named by their design names, lettered A and B, and the
  // columns are headed by the letters alone.
  await expect(compare.sideLabels()).toHaveText([ORIGINAL, ALTERNATIVE]);
  await expect(compare.sides()).toHaveText([`A: ${ORIGINAL}`, `B: ${ALTERNATIVE}`]);
  await expect(compare.sideColumns()).toHaveText(['A', 'B']);
  // The same design so far: the summary says nothing changed.
  await expect(compare.summaryChanges()).toHaveText('no structural change');
  await expect(compare.summary()).toContainText('net $0.00/month on-demand, $0.00/month provisioned');
  await steps.shot('alternative-chosen');

  // In the alternative, the suggested GSI serves the pattern.
  await app.show('Access patterns');
  await compare.addSuggestedIndex(PATTERN);
  await expect(patterns.badge(PATTERN)).toContainText('GSI Query');

  await compare.show();
  // The summary on top: what B changes against A, how the patterns' costs move, the net dollars.
  await expect(compare.summaryChanges()).toHaveText(SUMMARY_CHANGES);
  await expect(compare.summaryPatterns()).toHaveText(/^1 pattern cheaper, \d+ costlier, \d+ unchanged$/);
  await expect(compare.summary()).toContainText(/net −\$[\d,]+\.\d\d\/month on-demand, −\$[\d,]+\.\d\d\/month provisioned\./);
  await expect(compare.summary().getByRole('listitem').filter({ hasText: PATTERN })).toContainText('Scan → Query on GSI GSI2');
  const net = await compare.explainNet('on-demand');
  await expect(net.getByRole('table', { name: 'Derivation' })).toContainText('Net change of the on-demand total per month, B − A');
  await steps.shot('summary-derivation');
  await net.getByRole('button', { name: 'Close' }).click();

  // The pattern's row improves: Scan against Query, the alternative's column marked better.
  await expect(compare.cell(PATTERN, 'Operation', 0)).toHaveText('Scan');
  await expect(compare.cell(PATTERN, 'Operation', 1)).toContainText('Query');
  await expect(compare.mark(PATTERN, 'Operation', 1)).toBeVisible();
  await expect(compare.marks(PATTERN, 'Operation')).toHaveCount(1);
  await expect(compare.better(PATTERN, 'Operation')).toHaveText(ALTERNATIVE);
  await expect(compare.better(PATTERN, 'RCU per request')).toHaveText(ALTERNATIVE);
  await expect(compare.cell(PATTERN, 'RCU per request', 1)).toHaveAttribute('data-best', 'true');
  // No column repeats the designs' names: the table names them only in the letters' tooltips.
  await expect(compare.columnHeaders()).toHaveText(['Row', 'A', 'B']);
  // The reused index (GSI2 now also holds users, projecting ALL) shows its added write cost.
  const gsiWritesBefore = await compare.cell('Shop · GSI GSI2', 'Writes (WCU/s)', 0).innerText();
  await expect(compare.cell('Shop · GSI GSI2', 'Writes (WCU/s)', 1)).not.toHaveText(gsiWritesBefore);
  await expect(compare.better('Shop · GSI GSI2', 'Writes (WCU/s)')).toHaveText(ORIGINAL);
  // The write now also writes the index: the original is better there.
  await expect(compare.better(WRITE, 'WCU per request')).toHaveText(ORIGINAL);
  await expect(compare.mark(WRITE, 'WCU per request', 0)).toBeVisible();
  await expect(compare.mark(WRITE, 'WCU per request', 1)).toHaveCount(0);
  // The totals change.
  for (const label of ['Writes (WCU/s)', 'On-demand $/month']) {
    const before = await compare.cell('All tables', label, 0).innerText();
    await expect(compare.cell('All tables', label, 1)).not.toHaveText(before);
  }
  await expect(compare.row('All tables', 'Writes (WCU/s)')).toHaveClass(/differs/);
  await steps.shot('alternative-compared');

  // A number opens that side's derivation.
  const dialog = await compare.explain(PATTERN, 'RCU per request', 0);
  await expect(dialog).toContainText(`(A: ${ORIGINAL})`);
  await expect(dialog.getByRole('table', { name: 'Derivation' })).toBeVisible();
  await steps.shot('derivation');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Only the rows that differ.
  const all = await compare.rows().count();
  await compare.onlyRowsThatDiffer(true);
  await expect(compare.row(PATTERN, 'Operation')).toBeVisible();
  await expect(compare.row('Table Shop', 'Partition key')).toHaveCount(0);
  expect(await compare.rows().count()).toBeLessThan(all);
  await steps.shot('only-differences');

  // Partition risk: both sides simulated in the host with one workload and seed.
  await compare.onlyRowsThatDiffer(false);
  await compare.addPartitionRisk();
  await expect(compare.row('Table Shop', 'Largest partition share')).toBeVisible();
  await expect(compare.row('Table Shop', 'Throttled time')).toBeVisible();
  await steps.shot('partition-risk');
  await compare.onlyRowsThatDiffer(true);

  // Revisions of the original: save, edit, save again, keep a checkpoint.
  await compare.activateDesign(ORIGINAL);
  await app.saveAs('shop.keyplan.json');
  await expect(compare.revisions()).toHaveCount(1);
  await expect(compare.revisions().first()).toContainText('Saved shop.keyplan.json');
  await app.designName.fill('Shop v2');
  await app.save();
  await expect(compare.revisions()).toHaveCount(2);
  await compare.checkpoint('Before restoring');
  await expect(compare.revisions()).toHaveCount(3);
  await expect(compare.revisions().first()).toContainText('Before restoring');
  await steps.shot('revisions');

  // Restore the first save: the design is that version again, and nothing is lost.
  const firstSave = compare.revisions().last();
  await compare.restore(firstSave);
  await expect(app.designName).toHaveValue(ORIGINAL);
  await expect(compare.revisions()).toHaveCount(4);
  await expect(compare.revisions().first()).toContainText('Restored from Saved shop.keyplan.json');
  await expect(compare.revisions().filter({ hasText: 'Before restoring' })).toHaveCount(1);
  // Compared with the current design, the first save differs in nothing.
  await compare.compareWithCurrent(compare.revisions().last());
  await expect(compare.report).toBeVisible();
  await expect(compare.rows()).toHaveCount(0);
  // A revision is named by its file, what made it and when; the design by its file, as current.
  await expect(compare.sideLabels()).toHaveText([/^shop\.keyplan\.json · saved \d\d:\d\d(:\d\d)?$/, 'shop.keyplan.json · current']);
  await expect(compare.summaryChanges()).toHaveText('no structural change');
  await expect(compare.summary()).toContainText('net $0.00/month on-demand');
  await compare.onlyRowsThatDiffer(false);
  await expect(compare.cell(PATTERN, 'Operation', 0)).toHaveText('Scan');
  await expect(compare.cell(PATTERN, 'Operation', 1)).toHaveText('Scan');
  await steps.shot('restored');
  await app.show('Access patterns');
  await expect(patterns.badge(PATTERN)).toHaveText('Scan');

  // The restore is one undoable edit.
  await compare.undo();
  await expect(app.designName).toHaveValue('Shop v2');
});

test('three designs: B and C are each summarized against A, and each row marks the better column', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const compare = new ComparePage(page);
  const KEYS_ONLY = `${ALTERNATIVE}`;
  const COPY = `${ALTERNATIVE} (alternative)`;
  const SERVED = 'List products in a category';
  await app.open(host.url);
  await app.openExample(ORIGINAL);

  // A: the alternative with GSI1 projecting only the keys; B: a copy of it; C: the original.
  await compare.show();
  await compare.duplicateAsAlternative();
  await app.show('Table & indexes');
  await compare.setProjection('GSI1', 'KEYS_ONLY');
  await compare.show();
  await compare.duplicateAsAlternative();
  await expect(app.designName).toHaveValue(COPY);
  await compare.source(ORIGINAL).check();

  await expect(compare.sides()).toHaveText([`A: ${KEYS_ONLY}`, `B: ${COPY}`, `C: ${ORIGINAL}`]);
  await expect(compare.columnHeaders()).toHaveText(['Row', 'A', 'B', 'C']);
  await expect(compare.summaryChanges('B')).toHaveText('no structural change');
  await expect(compare.summary('B')).toContainText('net $0.00/month on-demand, $0.00/month provisioned');
  await expect(compare.summaryChanges('C')).toHaveText('GSI1 projection changed');
  await expect(compare.summary('C')).toContainText('GSI1: projection KEYS_ONLY → ALL');
  await expect(compare.summaryPatterns('C')).toHaveText(/^\d+ patterns? cheaper, /);

  // The original serves the pattern from GSI1 alone: only its column is marked; A and B tie.
  await expect(compare.cell(SERVED, 'Operation', 0)).toHaveText('Query + BatchGetItem from the table');
  await expect(compare.mark(SERVED, 'Operation', 2)).toBeVisible();
  await expect(compare.marks(SERVED, 'Operation')).toHaveCount(1);
  await expect(compare.better(SERVED, 'RCU per request')).toHaveText(ORIGINAL);
  await steps.shot('three-sides');
});
