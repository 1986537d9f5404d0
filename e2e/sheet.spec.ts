import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage } from './pages/keyplan.ts';
import { DesignSheetPage, ExportDialog, PatternCostsTable } from './pages/formats.ts';

const root = join(import.meta.dirname, '..');
const PATTERN = 'Get order by id';

test("the design sheet shows a pattern's index, key condition and the costs screen's dollars, and exports as Markdown into the workspace", async ({ page, host, steps }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new KeyplanPage(page);
  const sheet = new DesignSheetPage(page);
  const costs = new PatternCostsTable(page);
  const exporter = new ExportDialog(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');

  await app.show('Costs');
  const onDemand = (await costs.onDemand('Shop', PATTERN).innerText()).trim();
  const provisioned = (await costs.provisioned('Shop', PATTERN).innerText()).trim();
  expect(onDemand).toMatch(/^\$24\.64/);

  await sheet.show();
  await expect(sheet.patterns()).toHaveCount(11);
  await expect(sheet.servedBy(PATTERN)).toHaveText('Query on GSI GSI1');
  await expect(sheet.keyCondition(PATTERN)).toHaveText('GSI1PK = "ORDER#{orderId}" AND GSI1SK = "ORDER"');
  await expect(sheet.onDemand(PATTERN)).toHaveText(onDemand);
  await expect(sheet.provisioned(PATTERN)).toHaveText(provisioned);
  // The entity chart: Order's keys in the table and both GSIs, GSI2 only for open orders; a user is not in GSI2.
  await expect(sheet.entity('Shop', 'Order')).toContainText('ORDER#{orderDate}#{orderId}');
  await expect(sheet.entity('Shop', 'Order')).toContainText('only when status IN ("PENDING", "PROCESSING")');
  await expect(sheet.entity('Shop', 'User').getByRole('cell').nth(5)).toContainText('not in this index');
  expect(await sheet.sidewaysOverflow()).toBe(0);
  await steps.shot('sheet');

  // Each number opens its derivation, as on the costs screen.
  await sheet.onDemand(PATTERN).getByRole('button').click();
  const derivation = page.getByRole('dialog', { name: /How the on-demand cost of "Get order by id" is computed/ });
  await expect(derivation).toContainText('Read request units per month');
  await derivation.getByRole('button', { name: 'Close' }).click();

  await sheet.exportMarkdown();
  await expect(exporter.dialog).toBeVisible();
  await expect(exporter.tab('Design sheet (Markdown)')).toHaveAttribute('aria-selected', 'true');
  await expect(exporter.preview).toHaveAttribute('data-ready', 'true');
  await expect(exporter.preview).toContainText('# Design sheet: E-commerce single table');
  await expect(exporter.fileName).toHaveValue('e-commerce-single-table.design-sheet.md');
  await steps.shot('export-dialog');
  await exporter.save();
  await expect(exporter.message).toContainText('Saved e-commerce-single-table.design-sheet.md');

  const markdown = await readFile(join(host.workspaceDir, 'e-commerce-single-table.design-sheet.md'), 'utf8');
  expect(markdown).toMatch(/^# Design sheet: E-commerce single table\n/);
  expect(markdown).toContain('| Order | `USER#{userId}` | `ORDER#{orderDate}#{orderId}` | `ORDER#{orderId}` | `ORDER` |');
  const row = markdown.split('\n').find((l) => l.startsWith(`| 6 | ${PATTERN} — `));
  expect(row).toContain('| Query on GSI GSI1 | `GSI1PK = "ORDER#{orderId}" AND GSI1SK = "ORDER"` | — |');
  expect(row).toContain(`| ${onDemand.replace('*', '')} | ${provisioned.replace('*', '')} |`);
  await exporter.close();
});

test('a 50-pattern design with long names and templates fits 1280 × 800 without scrolling sideways, its chart header in view', async ({ page, host, steps }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new KeyplanPage(page);
  const sheet = new DesignSheetPage(page);
  const design = JSON.parse(await readFile(join(root, 'examples/ecommerce.keyplan.json'), 'utf8'));
  const table = design.tables[0];
  const base = table.accessPatterns;
  table.accessPatterns = Array.from({ length: 50 }, (_, i) => ({
    ...base[i % base.length],
    id: `pattern-${i + 1}`,
    name: `${base[i % base.length].name}, for the spring sale reporting dashboard of every regional warehouse team (${i + 1})`,
  }));
  const order = table.entities.find((e: { name: string }) => e.name === 'Order');
  order.keys.SK = { template: 'ORDER#{orderDate}#{orderId}#SPRING_SALE_REPORTING_DASHBOARD_OF_EVERY_REGIONAL_WAREHOUSE' };
  await mkdir(host.workspaceDir, { recursive: true });
  await writeFile(join(host.workspaceDir, 'fifty.keyplan.json'), JSON.stringify(design));
  await app.open(host.url);
  await app.openFile('fifty.keyplan.json');

  await sheet.show();
  await expect(sheet.patterns()).toHaveCount(50);
  await expect(sheet.entity('Shop', 'Order')).toContainText('SPRING_SALE_REPORTING');
  expect(await sheet.sidewaysOverflow()).toBe(0);
  await steps.shot('fifty-top');

  const last = sheet.patterns().last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
  // The chart's header stays at the top of the screen while its rows scroll under it.
  const header = sheet.patternChart('Shop').getByRole('columnheader', { name: 'Key condition' });
  await expect(header).toBeInViewport();
  expect(await sheet.sidewaysOverflow()).toBe(0);
  await steps.shot('fifty-scrolled');
});
