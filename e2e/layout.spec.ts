/**
 * Layout at 1280×800, a common laptop window: no screen scrolls sideways, with the example design and
 * with a 50-pattern design; the pattern editor opens in a side panel; long names wrap or ellipsize
 * with the full text on hover; table headers stay in view when a long table scrolls. And a new design
 * opens on Access patterns, where a pattern is written before its entity.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test, expect, type Steps } from './fixtures/app.ts';
import { DataPage } from './pages/data.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';
import { PartitionsPage } from './pages/partitions.ts';

test.use({ viewport: { width: 1280, height: 800 } });

const LONG_NAME = 'List every order of a customer placed during the quarterly reconciliation window of each warehouse region, newest first';
const ACTIONS = ['get', 'query', 'count', 'put', 'update', 'delete'] as const;

/**
 * The example with 50 access patterns over its entities: every action, a long name every seventh,
 * and every tenth written before its entity (no entity, so it needs a key design).
 */
async function fiftyPatternDesign(): Promise<Record<string, unknown>> {
  const design = JSON.parse(await readFile(resolve(import.meta.dirname, '../examples/ecommerce.keyplan.json'), 'utf8'));
  const table = design.tables[0];
  const entities: { id: string; name: string; attributes: { name: string }[] }[] = table.entities;
  table.accessPatterns = Array.from({ length: 50 }, (_, i) => {
    const entity = entities[i % entities.length]!;
    const action = ACTIONS[i % ACTIONS.length]!;
    const name = i === 0 ? LONG_NAME : `P${i + 1} ${action} ${entity.name}${i % 7 === 0 ? ' for the quarterly reconciliation report of every warehouse region and its suppliers' : ''}`;
    const base = { id: `ap-${i + 1}`, name, action, ratePerSecond: 5 + i, consistency: 'eventual' };
    return i % 10 === 9 ? { ...base, known: ['someIdentifierTheCallerAlreadyHasAtHand'] } : { ...base, entityId: entity.id, known: [entity.attributes[0]!.name] };
  });
  // Ten simulated minutes, not the default hour: the layout is the point here, not the simulation.
  return { ...design, id: 'dsn-fifty-patterns', name: 'Fifty patterns', workload: { durationSeconds: 600, stepSeconds: 1, seed: 1, events: [] } };
}

/** Visits every screen in the sidebar, checking none scrolls sideways; Data and Partitions with their results shown. */
async function visitEveryScreen(app: KeyplanPage, steps: Steps, label: string): Promise<void> {
  const names = await app.screenNames();
  expect(names).toEqual(expect.arrayContaining(['Access patterns', 'Entities & keys', 'Table & indexes', 'Data', 'Costs', 'Partitions', 'Raw JSON']));
  for (const name of names) {
    await app.showScreen(name);
    if (name === 'Data') {
      const data = new DataPage(app.page);
      await data.generate();
      await expect(data.rows().first()).toBeVisible();
    }
    if (name === 'Partitions') await new PartitionsPage(app.page).simulate();
    await expect.poll(() => app.horizontalOverflows(), { message: `${label}, ${name}: nothing scrolls sideways` }).toEqual([]);
    await steps.shot(`${label}-${name}`);
  }
}

test('every screen fits 1280×800 with the example design: nothing scrolls sideways, the pattern editor is a side panel', async ({ page, host, steps }) => {
  test.setTimeout(180_000);
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await visitEveryScreen(app, steps, 'example');

  // The editor opens beside the list, not inside its row; the list keeps its figures.
  await app.show('Access patterns');
  await patterns.openPattern('List products in a category');
  await expect(patterns.panel()).toContainText('GSI Query');
  await expect(patterns.editor()).toBeVisible();
  await expect(patterns.panel().locator('xpath=ancestor::table')).toHaveCount(0);
  expect(await patterns.perRequest('List products in a category')).toBeGreaterThan(0);
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  // Consistency and "Delete pattern", which a sideways scrollbar used to hide, are in view.
  await expect(patterns.editor().getByLabel('Consistency')).toBeVisible();
  await patterns.panel().getByRole('button', { name: 'Delete pattern' }).scrollIntoViewIfNeeded();
  await expect(patterns.panel().getByRole('button', { name: 'Delete pattern' })).toBeInViewport();
  await steps.shot('example-pattern-panel');
  await page.keyboard.press('Escape');
  await expect(patterns.panel()).toBeHidden();
});

test('every screen fits 1280×800 with 50 access patterns: long names wrap with the full text on hover, headers stay in view', async ({ page, host, steps }) => {
  test.setTimeout(240_000);
  await mkdir(host.workspaceDir, { recursive: true });
  await writeFile(join(host.workspaceDir, 'fifty.keyplan.json'), JSON.stringify(await fiftyPatternDesign(), null, 2));
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  await app.open(host.url);
  await app.openFile('fifty.keyplan.json');
  await expect(app.designName).toHaveValue('Fifty patterns');
  await visitEveryScreen(app, steps, 'fifty');

  await app.show('Access patterns');
  await expect(patterns.rows()).toHaveCount(50);
  // A long name wraps inside its column, and its full text is there on hover.
  const long = patterns.row(LONG_NAME).getByRole('button', { name: LONG_NAME, exact: true });
  await expect(long).toHaveAttribute('title', LONG_NAME);
  const nameBox = (await long.boundingBox())!;
  const rowBox = (await patterns.row(LONG_NAME).boundingBox())!;
  expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
  // The five patterns without an entity say so instead of showing a cost.
  await expect(patterns.needsKeyDesign('P10 put Review')).toHaveText('needs a key design');
  await expect(patterns.leftOut()).toContainText('5 of 50 patterns need a key design');

  // Scrolled to the end, the header row is still at the top of the screen's visible area.
  await app.content.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(patterns.rows().last()).toBeInViewport();
  const contentTop = (await app.content.boundingBox())!.y;
  await expect.poll(async () => Math.abs((await patterns.header('Served by').boundingBox())!.y - contentTop)).toBeLessThanOrEqual(2);
  await expect(patterns.header('Served by')).toBeInViewport();
  await steps.shot('fifty-scrolled-header-in-view');

  // Opened from far down the list, the side panel is in view beside it, and nothing scrolls sideways.
  await patterns.openPattern('P48 delete Order');
  await expect(patterns.panel()).toBeInViewport();
  await expect(patterns.header('Served by')).toBeInViewport();
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  await steps.shot('fifty-panel-open-scrolled');

  // The costs screen says how many patterns its totals leave out.
  await app.show('Costs');
  await expect(page.getByTestId('totals-left-out')).toHaveText('5 access patterns are left out: they need a key design');
  await app.content.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  const costHeader = page.getByRole('table', { name: /^Pattern costs of table/ }).getByRole('columnheader', { name: 'Operation' });
  await expect(costHeader).toBeInViewport();
  await steps.shot('fifty-costs-scrolled');
});

test('a new design opens on Access patterns; a pattern written before its entity needs a key design, then is costed once its entity is created beside it', async ({ page, host, steps }) => {
  const app = new KeyplanPage(page);
  const patterns = new PatternsPage(page);
  await app.open(host.url);
  await app.newDesign();
  await expect(page.getByRole('heading', { name: 'Access patterns' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add pattern' })).toBeEnabled();
  await steps.shot('new-design-patterns-first');

  await patterns.add();
  await patterns.rename('List tickets of a customer');
  await patterns.setOperation('list many items');
  await patterns.typeKnown(['customerId']);
  await expect(patterns.editor().getByRole('group', { name: /^The caller knows/ })).toContainText('customerId');
  await expect(patterns.badge('List tickets of a customer')).toHaveText('Needs key design');
  await expect(patterns.needsKeyDesign('List tickets of a customer')).toHaveAttribute('title', /No entity yet/);
  await expect(page.getByTestId('problem-count')).toHaveText('No problems');
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  await steps.shot('pattern-without-entity');

  await app.show('Costs');
  await expect(page.getByTestId('totals-left-out')).toHaveText('1 access pattern is left out: it needs a key design');
  await expect(page.getByTestId('pattern-cost-row').getByTestId('needs-key-design')).toBeVisible();
  await steps.shot('costs-left-out');

  await app.show('Access patterns');
  await patterns.openPattern('List tickets of a customer');
  await patterns.createEntity('Ticket');
  await expect(patterns.needsKeyDesign('List tickets of a customer')).toHaveCount(0);
  await expect(patterns.badge('List tickets of a customer')).toHaveText('Scan');
  expect(await patterns.perRequest('List tickets of a customer')).toBeGreaterThan(0);
  await expect(patterns.panel()).toContainText('An index would serve it');
  await expect(page.getByTestId('problem-count')).toHaveText('No problems');
  await steps.shot('entity-created-inline');

  await app.show('Entities & keys');
  await expect(app.entityList()).toContainText('Ticket');
  await expect(page.getByLabel('Attribute 2 name')).toHaveValue('customerId');
  await steps.shot('entity-from-the-pattern');
});
