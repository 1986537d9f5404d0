import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design, Workload } from '../model/index.ts';
import { parseDesign, validateDesign } from '../model/index.ts';
import { compareDesigns } from './compare.ts';
import type { ComparisonReport } from './types.ts';
import { formatComparisonMarkdown, formatComparisonText } from './format.ts';
import { matchItems, nameKey } from './match.ts';
import { findRegressions } from './regressions.ts';
import { judgeCells } from './rows.ts';

function example(): Design {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')));
  if (!parsed.ok) throw new Error('example does not parse');
  return parsed.value;
}

/** The example without GSI2: "List open orders" falls back to a Scan. */
function withoutGsi2(): Design {
  const design = structuredClone(example());
  const table = design.tables[0]!;
  table.globalSecondaryIndexes = table.globalSecondaryIndexes.filter((g) => g.name !== 'GSI2');
  for (const e of table.entities) {
    delete e.keys.GSI2PK;
    delete e.keys.GSI2SK;
  }
  expect(validateDesign(design)).toEqual([]);
  return design;
}

const SHORT: Workload = { durationSeconds: 30, stepSeconds: 1, seed: 1, events: [] };
const pair = (a: Design, b: Design, simulate = false): ComparisonReport =>
  compareDesigns([{ label: 'a', design: a }, { label: 'b', design: b }], simulate ? { workload: SHORT, seed: 4 } : { simulate: false });
const patternOf = (r: ComparisonReport, key: string) => r.patterns.find((p) => p.key === key)!;
const rowOf = (rows: { key: string }[], key: string) => rows.find((r) => r.key === key)! as ComparisonReport['totals'][number];

describe('matching', () => {
  type Item = { id: string; name: string };
  const passes = [
    { kind: 'id' as const, keyOf: (i: Item) => i.id },
    { kind: 'name' as const, keyOf: (i: Item) => nameKey(i.name) },
  ];

  it('matches by id first, then by name, and leaves the rest unmatched on their own side', () => {
    const groups = matchItems<Item>(
      [
        [{ id: 'x', name: 'Foo' }, { id: 'y', name: 'Bar' }, { id: 'z', name: 'Gone' }],
        [{ id: 'q', name: 'foo ' }, { id: 'x', name: 'Renamed' }, { id: 'w', name: 'Bar' }, { id: 'n', name: 'New' }],
      ],
      passes,
    );
    expect(groups.map((g) => [g.match, g.items.map((i) => i?.id ?? null)])).toEqual([
      // x matches x by id although "Foo" also names q: an id match is taken before any name match.
      ['id', ['x', 'x']],
      ['name', ['y', 'w']],
      ['unmatched', ['z', null]],
      ['unmatched', [null, 'q']],
      ['unmatched', [null, 'n']],
    ]);
  });

  it('matches a third side with the second when the first lacks the item', () => {
    const groups = matchItems<Item>([[], [{ id: 'a', name: 'A' }], [{ id: 'a', name: 'A' }]], passes);
    expect(groups).toEqual([{ match: 'id', items: [undefined, { id: 'a', name: 'A' }, { id: 'a', name: 'A' }] }]);
  });

  it('matches access patterns of two designs by id, then by name; unmatched ones listed per side', () => {
    const before = example();
    const after = structuredClone(before);
    const aps = after.tables[0]!.accessPatterns;
    aps.find((p) => p.id === 'ap-get-product')!.id = 'ap-product-by-id'; // same name, new id
    aps.splice(aps.findIndex((p) => p.id === 'ap-get-order'), 1);
    aps.push({ ...aps[0]!, id: 'ap-new', name: 'Get user profile again' });
    const report = pair(before, after);
    expect(patternOf(report, 'pattern:ap-get-product')).toMatchObject({ match: 'name', sides: [{ patternId: 'ap-get-product' }, { patternId: 'ap-product-by-id' }] });
    expect(patternOf(report, 'pattern:ap-get-user').match).toBe('id');
    expect(report.unmatchedPatterns).toEqual([
      { side: 0, table: 'Shop', patternId: 'ap-get-order', name: 'Get order by id' },
      { side: 1, table: 'Shop', patternId: 'ap-new', name: 'Get user profile again' },
    ]);
    const gone = patternOf(report, 'pattern:ap-get-order');
    expect(gone.sides[1]).toBeNull();
    expect(rowOf(gone.rows, 'pattern:ap-get-order:perRequest')).toMatchObject({ best: null, differs: true, cells: [{ value: 0.5 }, { value: null }] });
  });

  it('matches tables by name, then by position; indexes by name', () => {
    const before = example();
    const after = structuredClone(before);
    after.tables[0]!.name = 'ShopV2';
    after.tables[0]!.globalSecondaryIndexes[1]!.projection = { type: 'ALL' };
    const report = pair(before, after);
    expect(report.tables).toHaveLength(1);
    expect(report.tables[0]).toMatchObject({ match: 'position', names: ['Shop', 'ShopV2'] });
    const gsi2 = report.tables[0]!.parts.find((p) => p.name === 'GSI2')!;
    expect(gsi2.match).toBe('name');
    expect(rowOf(gsi2.rows, 'table:Shop:index:GSI2:projection')).toMatchObject({
      cells: [{ value: 'INCLUDE userId, total' }, { value: 'ALL' }],
      rule: 'none',
      best: null,
      differs: true,
    });
    // A fuller projection stores more: the storage row says which is better.
    expect(rowOf(gsi2.rows, 'table:Shop:index:GSI2:storage').best).toBe(0);
  });
});

describe('which side is better', () => {
  it('lower is better; equal values tie; a missing value takes no part', () => {
    expect(judgeCells('lower', [{ value: 2 }, { value: 1 }])).toEqual({ best: 1, bestSides: [1], differs: true });
    expect(judgeCells('lower', [{ value: 0.1 + 0.2 }, { value: 0.3 }])).toEqual({ best: 'tie', bestSides: [0, 1], differs: false });
    expect(judgeCells('lower', [{ value: 1 }, { value: null }])).toEqual({ best: null, bestSides: [], differs: true });
    expect(judgeCells('lower', [{ value: 1 }, { value: 3 }, { value: 1 }])).toEqual({ best: 'tie', bestSides: [0, 2], differs: true });
  });

  it('a Query or GetItem beats a Scan; two key-based operations tie', () => {
    expect(judgeCells('access', [{ value: 'Scan' }, { value: 'Query' }]).best).toBe(1);
    expect(judgeCells('access', [{ value: 'GetItem' }, { value: 'Scan' }]).best).toBe(0);
    expect(judgeCells('access', [{ value: 'GetItem' }, { value: 'Query' }])).toEqual({ best: 'tie', bestSides: [0, 1], differs: true });
  });

  it('no warning beats a warning; schema rows have no better side', () => {
    expect(judgeCells('absent', [{ value: 'Scan!' }, { value: null }]).best).toBe(1);
    expect(judgeCells('none', [{ value: 'ALL' }, { value: 'KEYS_ONLY' }])).toEqual({ best: null, bestSides: [], differs: true });
  });
});

describe('compareDesigns on the example and a copy without GSI2', () => {
  const report = pair(example(), withoutGsi2());

  it('shows the pattern GSI2 served as a Scan on side 2, side 1 better', () => {
    const p = patternOf(report, 'pattern:ap-list-open-orders');
    expect(p.sides.map((s) => s?.plan.operation)).toEqual(['Query', 'Scan']);
    expect(p.sides[0]?.plan).toMatchObject({ index: 'GSI2', indexKind: 'gsi', keyCondition: 'GSI2PK = :pk AND GSI2SK <= :sk' });
    expect(rowOf(p.rows, 'pattern:ap-list-open-orders:operation')).toMatchObject({ best: 0, differs: true });
    for (const id of ['perRequest', 'perSecond', 'onDemand', 'provisioned']) expect(rowOf(p.rows, `pattern:ap-list-open-orders:${id}`).best).toBe(0);
    // The Figures travel with the cells, so a UI can open either side's derivation.
    expect(rowOf(p.rows, 'pattern:ap-list-open-orders:perRequest').cells[1]?.figure?.steps.length).toBeGreaterThan(0);
  });

  it('shows the write cost of the index: writes to orders cost less without it', () => {
    const put = patternOf(report, 'pattern:ap-put-order');
    expect(rowOf(put.rows, 'pattern:ap-put-order:perRequest')).toMatchObject({ label: 'WCU per request', best: 1 });
    expect(rowOf(put.rows, 'pattern:ap-put-order:operation')).toMatchObject({ best: 'tie', differs: false });
  });

  it('changes the totals: more reads and dollars, less storage and writes', () => {
    expect(rowOf(report.totals, 'totals:reads').best).toBe(0);
    expect(rowOf(report.totals, 'totals:writes').best).toBe(1);
    expect(rowOf(report.totals, 'totals:storage').best).toBe(1);
    expect(rowOf(report.totals, 'totals:onDemandMonthly').best).toBe(0);
    expect(rowOf(report.totals, 'totals:provisionedMonthly').best).toBe(0);
    expect(report.totals.map((r) => r.label)).toEqual(['Reads (RCU/s)', 'Writes (WCU/s)', 'Storage', 'Storage $/month', 'On-demand $/month', 'Provisioned $/month']);
    expect(rowOf(report.totals, 'totals:onDemandMonthly').cells[0]?.figure?.unit).toBe('USD/month');
  });

  it('lists the GSI only the first design has, and the Scan warning only the second has', () => {
    const gsi2 = report.tables[0]!.parts.find((p) => p.name === 'GSI2')!;
    expect(gsi2).toMatchObject({ match: 'unmatched', names: ['GSI2', null] });
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatchObject({ code: 'cost.scan', patternKey: 'pattern:ap-list-open-orders', best: 0, differs: true, cells: [{ value: null }, { value: expect.stringContaining('Scan') }] });
  });

  it('names the Query that became a Scan and the higher cost as regressions', () => {
    const found = findRegressions(report, { maxIncreasePercent: 0 });
    expect(found.map((r) => r.code)).toEqual(['compare.costlier', 'compare.becomesScan']);
    expect(found[1]!.message).toBe('access pattern "List open orders by status, oldest first" (ap-list-open-orders) is a Query on GSI GSI2 in "a" but a Scan in "b".');
    expect(findRegressions(pair(withoutGsi2(), example()), { maxIncreasePercent: 0 })).toEqual([]);
  });

  it('is Markdown: the sides by letter, the summary first, then a column per design headed A, B with the better value marked', () => {
    const md = formatComparisonMarkdown(report);
    expect(md).toMatch(/^## Design comparison: A `a` vs B `b`\n\n- \*\*A\*\*: `a`, design E-commerce single table\n/);
    expect(md).toMatch(/### Summary\n\n- \*\*B against A\*\*: GSI2 removed; 2 patterns cheaper, 1 costlier, 8 unchanged; net \+\$[\d,.]+\/month on-demand, \+\$[\d,.]+\/month provisioned\.\n/);
    expect(md.indexOf('### Summary')).toBeLessThan(md.indexOf('### Access patterns'));
    expect(md).toContain('    - List open orders by status, oldest first: $1.64 → $844,160.41 on-demand/month (+$844,158.77), Query on GSI GSI2 → Scan');
    for (const heading of ['### Access patterns', '### Tables and indexes', '### Totals', '### Warnings only some designs have']) expect(md).toContain(heading);
    expect(md).toContain('| Access pattern | | A | B |');
    expect(md).toContain('| **List open orders by status, oldest first (ap-list-open-orders)** | Operation | ✅ **Query** | Scan |');
    expect(md).toMatch(/\| Writes \(WCU\/s\) \| 351 \| ✅ \*\*340\*\* \|\n/);
    expect(md).not.toContain('Better');
    expect(md).toMatch(/Same in every design: Get user profile \(ap-get-user\), /);
    expect(md).not.toContain('### Partition risk');
  });

  it('is text: the summary first, then aligned columns headed A, B and ✓ on the better value', () => {
    const text = formatComparisonText(report);
    expect(text.split('\n').slice(0, 6)).toEqual([
      'Comparison',
      '  A  a  (design "E-commerce single table")',
      '  B  b  (design "E-commerce single table")',
      '',
      'Summary',
      expect.stringMatching(/^ {2}B against A: GSI2 removed; 2 patterns cheaper, 1 costlier, 8 unchanged; net \+\$/),
    ]);
    expect(text).toMatch(/List open orders by status, oldest first \(ap-list-open-orders\)\s+Operation\s+Query ✓\s+Scan\n/);
    expect(text).toMatch(/Access pattern\s+A\s+B\n/);
    expect(formatComparisonText(report, { onlyDiffering: true })).not.toMatch(/Table class/);
  });
});

describe('compareDesigns with the simulator', () => {
  it('simulates every side with the same workload and seed; the same design ties everywhere', () => {
    const report = pair(example(), example(), true);
    expect(report.partitionRisk).toMatchObject({ seed: 4, workload: SHORT });
    const rows = [...report.partitionRisk!.targets.flatMap((t) => t.rows), ...report.partitionRisk!.patterns];
    expect(rows.every((r) => !r.differs)).toBe(true);
    expect(report.partitionRisk!.targets.map((t) => t.target)).toEqual(['table', 'GSI1', 'GSI2']);
    expect(report.partitionRisk!.patterns).toHaveLength(11);
    expect(report.warnings).toEqual([]);
    expect([...report.totals, ...report.patterns.flatMap((p) => p.rows)].every((r) => !r.differs && r.best !== 0 && r.best !== 1)).toBe(true);
  });

  it('is deterministic', () => {
    expect(pair(example(), withoutGsi2(), true)).toEqual(pair(example(), withoutGsi2(), true));
  });

  it('reports the throttling a later design adds', () => {
    const before = example();
    const after = structuredClone(before);
    const put = after.tables[0]!.accessPatterns.find((p) => p.id === 'ap-put-order')!;
    put.ratePerSecond = 5000;
    put.traffic = { kind: 'hotKey', share: 0.9 };
    const report = pair(before, after, true);
    const row = report.partitionRisk!.patterns.find((r) => r.key === 'pattern:ap-put-order:throttled')!;
    expect(row.cells[0]?.value).toBe(0);
    expect(row.cells[1]?.value).toBeGreaterThan(0);
    expect(row.best).toBe(0);
    const found = findRegressions(report, { maxIncreasePercent: 1e9 });
    expect(found.map((r) => [r.code, r.patternKey])).toContainEqual(['compare.addsThrottling', 'pattern:ap-put-order']);
  });
});

describe('a design that leaves patterns out of its costs', () => {
  it('is never judged better on totals or loads: the example without its keys costs $0 for what it does not price', () => {
    const keyless = structuredClone(example());
    const table = keyless.tables[0]!;
    table.globalSecondaryIndexes = [];
    for (const e of table.entities) e.keys = {};
    const report = pair(example(), keyless);
    for (const key of ['totals:reads', 'totals:writes', 'totals:onDemandMonthly', 'totals:provisionedMonthly']) {
      const row = rowOf(report.totals, key);
      expect(row.cells[1]!.partial, key).toBe(true);
      // One side left to judge: no side is marked better.
      expect(row.best, key).toBeNull();
    }
  });
});
