/**
 * A multi-attribute GSI built in the UI at 1280×800, from the start screen: Match carries
 * tournamentId, region, round and bracket as its own attributes; a GSI keyed on [tournamentId, region]
 * / [round, bracket] through the list editor; the entity's Indexes block; a pattern served by a Query on
 * that index with its RCU and cost; a pattern whose range skips round, rejected with the
 * left-to-right rule; CloudFormation exported to disk with one KeySchema element per attribute, which
 * the real cfn-lint accepts.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect } from './fixtures/app.ts';
import { EntitiesPage } from './pages/entities.ts';
import { ExportDialog, PatternCostsTable } from './pages/formats.ts';
import { EntityIndexesBlock, GsiKeyEditor } from './pages/gsi-keys.ts';
import { Appearance, KeyplanPage, PatternsPage } from './pages/keyplan.ts';

test.use({ viewport: { width: 1280, height: 800 } });

const SERVED = 'Matches of a tournament in a region from a round';
const SKIPS_ROUND = 'Matches of a tournament in a region by bracket';

/** cfn-lint is a Python tool, not an npm package: without it this check fails and says how to install it, unless KEYPLAN_SKIP_CFN_LINT=1. */
const skipCfnLint = process.env.KEYPLAN_SKIP_CFN_LINT === '1';

interface CfnLintMatch {
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
}

/** Runs the real cfn-lint on `files`; the matches it reports. */
function cfnLint(files: string[]): CfnLintMatch[] {
  const run = spawnSync('cfn-lint', ['--format', 'json', '--', ...files], { encoding: 'utf8', timeout: 300_000 });
  if (run.error) throw new Error(`cfn-lint did not run (${run.error.message}): install it with "pip install cfn-lint", or set KEYPLAN_SKIP_CFN_LINT=1`);
  if (run.status !== 0 && run.stdout.trim() === '') throw new Error(`cfn-lint failed with exit ${run.status}: ${run.stderr}`);
  return run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as CfnLintMatch[]);
}

test('a multi-attribute GSI built in the UI: a pattern served by it with its cost, one rejected by the left-to-right rule, CloudFormation that cfn-lint accepts', async ({ page, host, steps }) => {
  test.setTimeout(180_000);
  const app = new KeyplanPage(page);
  const entities = new EntitiesPage(page);
  const indexes = new EntityIndexesBlock(page);
  const patterns = new PatternsPage(page);
  const exporter = new ExportDialog(page);
  await app.open(host.url);

  // From the start screen: a new design, its table named, the entity and its own attributes.
  await app.newDesign();
  await app.designName.fill('Esports');
  await app.designName.blur();
  await app.show('Table & indexes');
  await app.tableName.fill('Esports');
  await app.show('Entities & keys');
  await app.addEntity('Match');
  for (const [name, type] of [['tournamentId', 'S'], ['region', 'S'], ['round', 'N'], ['bracket', 'S']] as const) await app.addAttribute(name, type);
  // 20 tournaments over 4 regions: about 12 matches per partition of the GSI.
  for (const [name, count] of [['tournamentId', 20], ['region', 4]] as const) {
    const field = page.getByLabel(`Attribute ${name} distinct values`);
    await field.fill(String(count));
    await field.blur();
  }

  // The GSI, each part edited as an ordered list; picking round takes Match's type, N.
  await app.show('Table & indexes');
  await app.addGsi();
  const gsi = new GsiKeyEditor(page, 'GSI1');
  await gsi.rename('ByTournamentRegion');
  await gsi.setPart('Partition key', ['tournamentId', 'region']);
  await gsi.setPart('Sort key', ['round', 'bracket']);
  expect(await gsi.shown('Partition key')).toEqual(['tournamentId:S', 'region:S']);
  expect(await gsi.shown('Sort key')).toEqual(['round:N', 'bracket:S']);
  await expect(gsi.carriedNotes('Sort key')).toHaveText(['Carried by Match (N)', 'Carried by Match (S)']);
  await expect(gsi.explanation('Partition key')).toContainText('A Query gives each of them by equality');
  await expect(gsi.explanation('Sort key')).toContainText('left to right without skipping one');
  await expect(page.getByTestId('problem-count')).toHaveText('No problems');

  // From the keyboard: Alt+↓ in round's name moves it after bracket; Ctrl+Z puts it back in one step.
  await gsi.attribute('Sort key', 1, 2).focus();
  await page.keyboard.press('Alt+ArrowDown');
  expect(await gsi.shown('Sort key')).toEqual(['bracket:S', 'round:N']);
  await expect(gsi.attribute('Sort key', 2, 2)).toBeFocused();
  await app.undo();
  await expect.poll(() => gsi.shown('Sort key')).toEqual(['round:N', 'bracket:S']);
  await gsi.card.scrollIntoViewIfNeeded();
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  await steps.shot('gsi-key-lists');
  await new Appearance(page).picker.selectOption('dark');
  await gsi.card.scrollIntoViewIfNeeded();
  await steps.shot('gsi-key-lists-dark');
  await new Appearance(page).picker.selectOption('light');

  // Match's Indexes: it carries every key attribute, so every item is in the index; bracket made
  // optional (80% of matches carry it) leaves 80% of them in it.
  await app.show('Entities & keys');
  await entities.select('Match');
  await expect(indexes.membership('Match', 'ByTournamentRegion')).toHaveText(/^Every Match item is in it/);
  await expect(indexes.parts('Match', 'ByTournamentRegion')).toHaveText([/tournamentId own attribute, S\s+\+\s+region own attribute, S/, /round own attribute, N\s+\+\s+bracket own attribute, S/]);
  const bracket = await entities.values('bracket');
  await bracket.getByLabel('Items that carry it %').fill('80');
  await bracket.getByLabel('Items that carry it %').blur();
  await expect(indexes.membership('Match', 'ByTournamentRegion')).toHaveText(/^In it: 80% of Match items — those that carry bracket \(\d[\d,]* of \d[\d,]*\)$/);
  await expect(indexes.derivation('Match', 'ByTournamentRegion')).toHaveText('80% of Match items carry bracket (its presence in the value model)');
  await indexes.block.scrollIntoViewIfNeeded();
  await expect.poll(() => app.horizontalOverflows()).toEqual([]);
  await steps.shot('entity-indexes');

  // The pattern: tournamentId and region known, round >= a value: a Query on the GSI.
  await app.show('Access patterns');
  await patterns.add();
  await patterns.rename(SERVED);
  await patterns.setEntity('Match');
  await patterns.setOperation('list many items');
  await patterns.setKnown(['tournamentId', 'region']);
  await patterns.editor().getByLabel('Range attribute').selectOption('round');
  await patterns.editor().getByLabel('Range operator').selectOption('>=');
  await expect(patterns.badge(SERVED)).toHaveText(/^GSI Query\s*· ByTournamentRegion/);
  await expect(patterns.panel()).toContainText(/KeyConditionExpression: .*tournamentId.*region.*round/);
  expect(await patterns.perRequest(SERVED)).toBeGreaterThan(0);
  await expect(patterns.row(SERVED)).toContainText(/\$\d/);
  await patterns.panel().getByText(/^KeyConditionExpression/).scrollIntoViewIfNeeded();
  await steps.shot('served-by-the-gsi');
  await patterns.closePanel();

  // The range on bracket without round: the sort key's conditions go left to right, so the GSI cannot serve it.
  await patterns.add();
  await patterns.rename(SKIPS_ROUND);
  await patterns.setEntity('Match');
  await patterns.setOperation('list many items');
  await patterns.setKnown(['tournamentId', 'region']);
  await patterns.editor().getByLabel('Range attribute').selectOption('bracket');
  await patterns.editor().getByLabel('Range operator').selectOption('begins_with');
  await expect(patterns.badge(SKIPS_ROUND)).not.toHaveText(/ByTournamentRegion/);
  const whyNot = patterns.panel().getByText(/^Why not the other indexes/);
  await whyNot.click();
  await expect(patterns.panel().getByRole('listitem').filter({ hasText: 'ByTournamentRegion' })).toContainText(
    /left to right without gaps, and the caller does not know round, so it cannot serve the range on bracket/,
  );
  await steps.shot('skipping-round-rejected');
  await patterns.closePanel();

  // Costs: the served pattern on the GSI, its units per second and its monthly cost.
  await app.show('Costs');
  const costs = new PatternCostsTable(page);
  await expect(costs.row('Esports', SERVED).getByTestId('plan-badge')).toHaveText(/^GSI Query\s*· ByTournamentRegion/);
  await expect(costs.row('Esports', SERVED).getByRole('cell').nth(2)).toHaveText(/RCU\/s/);
  await expect(costs.onDemand('Esports', SERVED)).toHaveText(/^\$\d/);
  await costs.row('Esports', SERVED).scrollIntoViewIfNeeded();
  await steps.shot('costs');

  // CloudFormation, YAML and JSON, saved through the export dialog into the workspace folder.
  await exporter.open();
  await expect(exporter.tab('CloudFormation YAML')).toHaveAttribute('aria-selected', 'true');
  await expect(exporter.fileName).toHaveValue('esports.cloudformation.yaml');
  await exporter.save();
  await expect(exporter.message).toContainText('Saved esports.cloudformation.yaml');
  await steps.shot('export-yaml');
  await exporter.choose('CloudFormation JSON');
  await expect(exporter.fileName).toHaveValue('esports.cloudformation.json');
  await exporter.save();
  await expect(exporter.message).toContainText('Saved esports.cloudformation.json');
  await exporter.close();

  const yamlFile = join(host.workspaceDir, 'esports.cloudformation.yaml');
  const jsonFile = join(host.workspaceDir, 'esports.cloudformation.json');
  const template = JSON.parse(await readFile(jsonFile, 'utf8')) as { Resources: Record<string, { Properties: Record<string, any> }> };
  const [table] = Object.values(template.Resources).filter((r) => r.Properties.TableName === 'Esports');
  const index = (table?.Properties.GlobalSecondaryIndexes as Array<{ IndexName: string; KeySchema: unknown }>).find((g) => g.IndexName === 'ByTournamentRegion');
  // One element per attribute: the partition key's as HASH, then the sort key's as RANGE, in key order.
  expect(index?.KeySchema).toEqual([
    { AttributeName: 'tournamentId', KeyType: 'HASH' },
    { AttributeName: 'region', KeyType: 'HASH' },
    { AttributeName: 'round', KeyType: 'RANGE' },
    { AttributeName: 'bracket', KeyType: 'RANGE' },
  ]);
  expect(table?.Properties.AttributeDefinitions).toEqual(
    expect.arrayContaining([
      { AttributeName: 'tournamentId', AttributeType: 'S' },
      { AttributeName: 'region', AttributeType: 'S' },
      { AttributeName: 'round', AttributeType: 'N' },
      { AttributeName: 'bracket', AttributeType: 'S' },
    ]),
  );
  const yaml = await readFile(yamlFile, 'utf8');
  expect(yaml.match(/KeyType: HASH/g)?.length).toBeGreaterThanOrEqual(3);
  expect(yaml).toMatch(/AttributeName: tournamentId\s+KeyType: HASH\s+- AttributeName: region\s+KeyType: HASH\s+- AttributeName: round\s+KeyType: RANGE\s+- AttributeName: bracket\s+KeyType: RANGE/);

  if (skipCfnLint) {
    test.info().annotations.push({ type: 'skipped check', description: 'KEYPLAN_SKIP_CFN_LINT=1: cfn-lint was not run on the exported templates' });
    return;
  }
  const errors = cfnLint([yamlFile, jsonFile]).filter((m) => m.Level === 'Error').map((m) => `${m.Rule.Id} ${m.Message}`);
  expect(errors).toEqual([]);
});

test('a synthetic GSI key that only joins one entity\'s attributes becomes a multi-attribute key in one undoable step, and the pattern stays served', async ({ page, host, steps }) => {
  const { writeFile } = await import('node:fs/promises');
  const design = {
    formatVersion: 1,
    id: 'd-synthetic',
    name: 'Esports synthetic',
    tables: [
      {
        id: 't',
        name: 'Esports',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } }],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'e',
            name: 'Match',
            itemCount: 100_000,
            attributes: [
              { name: 'matchId', type: 'S', averageSizeBytes: 10 },
              { name: 'tournamentId', type: 'S', cardinality: 100, averageSizeBytes: 10 },
              { name: 'region', type: 'S', averageSizeBytes: 10, generator: { kind: 'enum', values: ['EU', 'NA', 'APAC', 'LATAM'] } },
              { name: 'round', type: 'N', cardinality: 10, averageSizeBytes: 10 },
              { name: 'bracket', type: 'S', averageSizeBytes: 10, generator: { kind: 'enum', values: ['upper', 'lower'] } },
            ],
            keys: {
              PK: { template: 'MATCH#{matchId}' },
              SK: { template: 'MATCH' },
              GSI1PK: { template: 'TOURNAMENT#{tournamentId}#REGION#{region}' },
              GSI1SK: { template: 'ROUND#{round:03}#{bracket}' },
            },
          },
        ],
        accessPatterns: [{ id: 'p1', name: SERVED, entityId: 'e', action: 'query', known: ['tournamentId', 'region', 'round'], ratePerSecond: 50, consistency: 'eventual' }],
      },
    ],
  };
  await writeFile(join(host.workspaceDir, 'esports-synthetic.keyplan.json'), JSON.stringify(design, null, 2));
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.openFile('esports-synthetic.keyplan.json');
  const patterns = new PatternsPage(page);
  await app.show('Access patterns');
  await expect(page.getByText('GSI1PK = :pk AND begins_with(GSI1SK, :sk)')).toBeVisible();

  await app.show('Table & indexes');
  const advice = page.getByRole('complementary', { name: 'A multi-attribute key for GSI1' });
  // By hand: GSI1PK 6 B + "TOURNAMENT#" 11 + 10 + "#REGION#" 8 + 10 = 45 B; GSI1SK 6 + "ROUND#" 6 + 10 + "#" 1 + 10 = 33 B: 78 B per item.
  await expect(advice).toContainText('partition key tournamentId + region, sort key round + bracket');
  await expect(advice).toContainText('saving about 78 B per item');
  await advice.scrollIntoViewIfNeeded();
  await steps.shot('natural-key-advice');
  await advice.getByRole('button', { name: 'Use a multi-attribute key' }).click();
  const gsi = new GsiKeyEditor(page, 'GSI1');
  await expect(advice).toHaveCount(0);
  await expect(gsi.attribute('Partition key', 1, 2)).toHaveValue('tournamentId');
  await expect(gsi.attribute('Partition key', 2, 2)).toHaveValue('region');
  await expect(gsi.attribute('Sort key', 1, 2)).toHaveValue('round');
  await expect(gsi.typeOf('Sort key', 1, 2)).toHaveValue('N');
  await expect(gsi.attribute('Sort key', 2, 2)).toHaveValue('bracket');
  await steps.shot('natural-key-applied');

  await app.show('Access patterns');
  await expect(patterns.badge(SERVED)).toContainText('GSI Query');
  await expect(page.getByText('tournamentId = :pk1 AND region = :pk2 AND round = :sk1')).toBeVisible();

  // One undo puts the synthetic key back.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('GSI1PK = :pk AND begins_with(GSI1SK, :sk)')).toBeVisible();
});
