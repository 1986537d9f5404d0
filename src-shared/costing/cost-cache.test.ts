/**
 * The cost cache is an optimisation only: after any sequence of edits, what it returns is exactly
 * what a fresh `costDesign` returns, derivation text and property order included. The edits are
 * the ones a user makes while modeling (rates typed digit by digit, renames, filters, projections,
 * entity sizes, billing, prices, patterns added and removed, undo), applied to the example designs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING } from '../capacity/index.ts';
import type { AccessPattern, Design, Projection, Table } from '../model/index.ts';
import { parseDesign } from '../model/index.ts';
import { createCostCache, exactKey } from './cost-cache.ts';
import { costDesign, type DesignCost } from './design-cost.ts';

function example(name: string): Design {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(import.meta.dirname, `../../examples/${name}.keyplan.json`), 'utf8')));
  if (!parsed.ok) throw new Error(`examples/${name}.keyplan.json should parse`);
  return parsed.value;
}

/**
 * The e-commerce example with what makes one pattern's cost read others: GSI1 reduced to KEYS_ONLY
 * and reads that return what it lacks (projection options, which read every write pattern), and a
 * count of users no key serves (its advice weighs the User puts and deletes).
 */
function withCrossPatternCosts(design: Design): Design {
  const table = design.tables[0]!;
  return {
    ...design,
    tables: [
      {
        ...table,
        globalSecondaryIndexes: table.globalSecondaryIndexes.map((g, i) => (i === 0 ? { ...g, projection: { type: 'KEYS_ONLY' as const } } : g)),
        accessPatterns: [
          ...table.accessPatterns,
          { id: 'ap-products-names', name: 'Product names in a category', entityId: 'ent-product', action: 'query', known: ['category'], resultSize: 24, ratePerSecond: 40, consistency: 'eventual', returns: ['productId', 'productName'] },
          { id: 'ap-rename-product', name: 'Rename a product', entityId: 'ent-product', action: 'update', known: ['productId'], updates: ['productName'], ratePerSecond: 3, consistency: 'eventual' },
          { id: 'ap-count-users-in-country', name: 'Count users in a country', entityId: 'ent-user', action: 'count', known: ['country'], ratePerSecond: 2, consistency: 'eventual' },
          { id: 'ap-create-user', name: 'Create user', entityId: 'ent-user', action: 'put', known: ['userId'], ratePerSecond: 20, consistency: 'eventual' },
          { id: 'ap-delete-user', name: 'Delete user', entityId: 'ent-user', action: 'delete', known: ['userId'], ratePerSecond: 1, consistency: 'eventual' },
        ],
      },
    ],
  };
}

type Outcome = { ok: true; json: string; value: DesignCost } | { ok: false; error: string };

function outcome(cost: () => DesignCost): Outcome {
  try {
    const value = cost();
    return { ok: true, json: JSON.stringify(value), value };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Where two texts first differ, with some context on both sides; undefined when they are the same. */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  return `at ${i}: …${a.slice(Math.max(0, i - 150), i + 150)}… instead of …${b.slice(Math.max(0, i - 150), i + 150)}…`;
}

const PROJECTIONS: Projection[] = [{ type: 'ALL' }, { type: 'KEYS_ONLY' }, { type: 'INCLUDE', nonKeyAttributes: ['productName'] }, { type: 'INCLUDE', nonKeyAttributes: ['total', 'status'] }];
const FILTERS = [undefined, 'status = "SHIPPED"', 'status IN ("PENDING", "PROCESSING")', 'rating > 3', 'country = "PT"'];

/** One user edit, as data: which pattern, entity or index it touches is taken modulo their count. */
const editArb = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('rate' as const), at: fc.nat(), rate: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 10_000, noNaN: true }), fc.constant(-0), fc.constant(Number.NaN)) }) },
  fc.record({ kind: fc.constant('typeRate' as const), at: fc.nat(), digits: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('name' as const), at: fc.nat(), name: fc.string({ maxLength: 12 }) }),
  fc.record({ kind: fc.constant('consistency' as const), at: fc.nat(), value: fc.constantFrom('eventual' as const, 'strong' as const, 'transactional' as const) }),
  fc.record({ kind: fc.constant('filter' as const), at: fc.nat(), filter: fc.constantFrom(...FILTERS) }),
  fc.record({ kind: fc.constant('returns' as const), at: fc.nat(), returns: fc.constantFrom<AccessPattern['returns']>(undefined, 'item', ['orderId', 'total'], ['productId', 'productName', 'price'], ['userId']) }),
  fc.record({ kind: fc.constant('updates' as const), at: fc.nat(), updates: fc.constantFrom<string[] | undefined>(undefined, ['status'], ['productName'], ['total', 'status'], ['email']), sets: fc.constantFrom<Record<string, string> | undefined>(undefined, { status: 'SHIPPED' }, { status: 'PENDING' }) }),
  fc.record({ kind: fc.constant('action' as const), at: fc.nat(), action: fc.constantFrom('get' as const, 'query' as const, 'count' as const, 'put' as const, 'update' as const, 'delete' as const) }),
  fc.record({ kind: fc.constant('entity' as const), at: fc.nat(), entity: fc.option(fc.nat(), { nil: undefined }) }),
  fc.record({ kind: fc.constant('resultSize' as const), at: fc.nat(), size: fc.integer({ min: 0, max: 500 }) }),
  fc.record({ kind: fc.constant('traffic' as const), at: fc.nat(), traffic: fc.constantFrom<AccessPattern['traffic']>(undefined, { kind: 'hotKey', share: 0.6 }, { kind: 'zipf', exponent: 1.2 }) }),
  fc.record({ kind: fc.constant('addPattern' as const), at: fc.nat(), sameId: fc.boolean() }),
  fc.record({ kind: fc.constant('removePattern' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('movePattern' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('itemCount' as const), at: fc.nat(), count: fc.integer({ min: 0, max: 50_000_000 }) }),
  fc.record({ kind: fc.constant('attributeSize' as const), at: fc.nat(), attribute: fc.nat(), bytes: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('projection' as const), at: fc.nat(), projection: fc.constantFrom(...PROJECTIONS) }),
  fc.record({ kind: fc.constant('billing' as const), provisioned: fc.boolean(), units: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ kind: fc.constant('pricing' as const), factor: fc.constantFrom(0.5, 1, 2.25) }),
  fc.record({ kind: fc.constant('tableClass' as const), value: fc.constantFrom('STANDARD' as const, 'STANDARD_INFREQUENT_ACCESS' as const) }),
  fc.record({ kind: fc.constant('dropTemplate' as const), at: fc.nat(), key: fc.constantFrom('GSI1PK', 'GSI2PK', 'SK') }),
  fc.record({ kind: fc.constant('undo' as const), steps: fc.integer({ min: 1, max: 3 }) }),
);
type EditData = typeof editArb extends fc.Arbitrary<infer T> ? T : never;

function onTable(design: Design, change: (table: Table) => Table): Design {
  return { ...design, tables: design.tables.map((t, i) => (i === 0 ? change(t) : t)) };
}

function onPattern(design: Design, at: number, change: (p: AccessPattern) => AccessPattern): Design {
  return onTable(design, (t) => {
    if (t.accessPatterns.length === 0) return t;
    const i = at % t.accessPatterns.length;
    return { ...t, accessPatterns: t.accessPatterns.map((p, j) => (j === i ? change(p) : p)) };
  });
}

/** Sets or removes an optional field, as the editor does. */
function withField<T extends object, K extends keyof T>(value: T, key: K, next: T[K] | undefined): T {
  const copy = { ...value };
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

/** Applies one edit; `history` is the designs before, for undo. */
function apply(design: Design, edit: EditData, history: Design[]): Design[] {
  const t = design.tables[0]!;
  const entities = t.entities;
  switch (edit.kind) {
    case 'rate':
      return [onPattern(design, edit.at, (p) => ({ ...p, ratePerSecond: edit.rate }))];
    case 'typeRate': {
      // Typed digit by digit into an emptied field: one design per keystroke.
      const out: Design[] = [];
      let text = '';
      let d = design;
      for (const digit of edit.digits) {
        text += String(digit);
        d = onPattern(d, edit.at, (p) => ({ ...p, ratePerSecond: Number(text) }));
        out.push(d);
      }
      return out;
    }
    case 'name':
      return [onPattern(design, edit.at, (p) => ({ ...p, name: edit.name }))];
    case 'consistency':
      return [onPattern(design, edit.at, (p) => ({ ...p, consistency: edit.value }))];
    case 'filter':
      return [onPattern(design, edit.at, (p) => withField(p, 'filter', edit.filter))];
    case 'returns':
      return [onPattern(design, edit.at, (p) => withField(p, 'returns', edit.returns))];
    case 'updates':
      return [onPattern(design, edit.at, (p) => withField(withField(p, 'updates', edit.updates), 'sets', edit.sets))];
    case 'action':
      return [onPattern(design, edit.at, (p) => ({ ...p, action: edit.action }))];
    case 'entity':
      return [onPattern(design, edit.at, (p) => withField(p, 'entityId', edit.entity === undefined || entities.length === 0 ? undefined : entities[edit.entity % entities.length]!.id))];
    case 'resultSize':
      return [onPattern(design, edit.at, (p) => ({ ...p, resultSize: edit.size }))];
    case 'traffic':
      return [onPattern(design, edit.at, (p) => withField(p, 'traffic', edit.traffic))];
    case 'addPattern': {
      if (t.accessPatterns.length === 0) return [design];
      const source = t.accessPatterns[edit.at % t.accessPatterns.length]!;
      const copy = { ...source, id: edit.sameId ? source.id : `${source.id}-copy-${t.accessPatterns.length}`, name: `${source.name} (copy)` };
      return [onTable(design, (table) => ({ ...table, accessPatterns: [...table.accessPatterns, copy] }))];
    }
    case 'removePattern':
      return [onTable(design, (table) => ({ ...table, accessPatterns: table.accessPatterns.filter((_, j) => table.accessPatterns.length === 0 || j !== edit.at % table.accessPatterns.length) }))];
    case 'movePattern':
      return [
        onTable(design, (table) => {
          const list = [...table.accessPatterns];
          if (list.length < 2) return table;
          const [moved] = list.splice(edit.at % list.length, 1);
          list.splice(edit.to % (list.length + 1), 0, moved!);
          return { ...table, accessPatterns: list };
        }),
      ];
    case 'itemCount':
      return [onTable(design, (table) => ({ ...table, entities: table.entities.map((e, j) => (j === edit.at % table.entities.length ? { ...e, itemCount: edit.count } : e)) }))];
    case 'attributeSize':
      return [
        onTable(design, (table) => ({
          ...table,
          entities: table.entities.map((e, j) =>
            j === edit.at % table.entities.length ? { ...e, attributes: e.attributes.map((a, k) => (k === edit.attribute % e.attributes.length ? { ...a, averageSizeBytes: edit.bytes } : a)) } : e,
          ),
        })),
      ];
    case 'projection':
      return [
        onTable(design, (table) =>
          table.globalSecondaryIndexes.length === 0
            ? table
            : { ...table, globalSecondaryIndexes: table.globalSecondaryIndexes.map((g, j) => (j === edit.at % table.globalSecondaryIndexes.length ? { ...g, projection: edit.projection } : g)) },
        ),
      ];
    case 'billing':
      return [
        onTable(design, (table) => ({
          ...table,
          billing: edit.provisioned ? { mode: 'PROVISIONED', readCapacityUnits: edit.units, writeCapacityUnits: Math.ceil(edit.units / 3) } : { mode: 'ON_DEMAND' },
        })),
      ];
    case 'pricing': {
      const base = design.pricing ?? DEFAULT_PRICING;
      const scale = (c: (typeof base.tableClasses)['STANDARD']) => ({ ...c, readRequestUnitUsdPerMillion: c.readRequestUnitUsdPerMillion * edit.factor, writeCapacityUnitUsdPerHour: c.writeCapacityUnitUsdPerHour * edit.factor });
      return [{ ...design, pricing: { ...base, tableClasses: { STANDARD: scale(base.tableClasses.STANDARD), STANDARD_INFREQUENT_ACCESS: scale(base.tableClasses.STANDARD_INFREQUENT_ACCESS) } } }];
    }
    case 'tableClass':
      return [onTable(design, (table) => ({ ...table, tableClass: edit.value }))];
    case 'dropTemplate':
      return [
        onTable(design, (table) => ({
          ...table,
          entities: table.entities.map((e, j) => {
            if (j !== edit.at % table.entities.length) return e;
            const keys = { ...e.keys };
            delete keys[edit.key];
            return { ...e, keys };
          }),
        })),
      ];
    case 'undo':
      return [history[Math.max(0, history.length - edit.steps)] ?? design];
  }
}

describe('createCostCache', () => {
  const designs: [string, Design][] = [
    ['examples/ecommerce', example('ecommerce')],
    ['examples/esports', example('esports')],
    ['examples/ecommerce with patterns whose costs read others', withCrossPatternCosts(example('ecommerce'))],
  ];

  it.each(designs)('after any sequence of edits of %s, returns exactly what a fresh costDesign returns', (_name, start) => {
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 8 }), (edits) => {
        const cache = createCostCache();
        const first = outcome(() => cache.costDesign(start));
        expect(first).toEqual(outcome(() => costDesign(start)));
        const history: Design[] = [start];
        let design = start;
        for (const edit of edits) {
          for (const next of apply(design, edit, history)) {
            history.push(design);
            design = next;
            const cached = outcome(() => cache.costDesign(design));
            const fresh = outcome(() => costDesign(design));
            // Same text (every derivation step, in order) and the same values, deep.
            expect(firstDifference(cached.ok ? cached.json : cached.error, fresh.ok ? fresh.json : fresh.error)).toBeUndefined();
            expect(cached).toEqual(fresh);
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('costs again only the pattern whose rate changed: the other patterns are the very objects of the last costing', () => {
    const cache = createCostCache();
    const design = example('ecommerce');
    const before = cache.costDesign(design);
    const edited = onPattern(design, 3, (p) => ({ ...p, ratePerSecond: 301 }));
    const after = cache.costDesign(edited);
    const [was, now] = [before.tables[0]!.patterns, after.tables[0]!.patterns];
    expect(now.map((p, i) => p === was[i])).toEqual(was.map((_, i) => i !== 3));
    // "List products in a category": 300 → 301 requests/s, its per-request units unchanged.
    expect(now[3]!.perSecond.value).toBeCloseTo((was[3]!.perSecond.value / 300) * 301, 9);
    expect(after).toEqual(costDesign(edited));
  });

  it("follows the write patterns a read's cost reads: a count's advice and a projection option's added writes", () => {
    const cache = createCostCache();
    const design = withCrossPatternCosts(example('ecommerce'));
    const patterns = () => cache.costDesign(design).tables[0]!.patterns;
    const byId = (costs: ReturnType<typeof patterns>, id: string) => costs.find((p) => p.patternId === id)!;
    const before = patterns();
    // The count's advice names the User writes' rates: 20 puts + 1 delete = 21 extra WCU/s.
    expect(byId(before, 'ap-count-users-in-country').plan.suggestion?.reason).toContain('21 extra WCU/s');
    const faster = onTable(design, (t) => ({ ...t, accessPatterns: t.accessPatterns.map((p) => (p.id === 'ap-create-user' ? { ...p, ratePerSecond: 40 } : p.id === 'ap-rename-product' ? { ...p, ratePerSecond: 6 } : p)) }));
    const after = cache.costDesign(faster);
    const count = byId(after.tables[0]!.patterns, 'ap-count-users-in-country');
    // 40 + 1 = 41 now.
    expect(count.plan.suggestion?.reason).toContain('41 extra WCU/s');
    // Renames at twice the rate: twice the writes the larger GSI1 entries add.
    const names = (costs: ReturnType<typeof patterns>) => byId(costs, 'ap-products-names').projectionOption!.extraWriteUnitsPerSecond.value;
    expect(names(before)).toBeGreaterThan(0);
    expect(names(after.tables[0]!.patterns)).toBeCloseTo(2 * names(before), 9);
    expect(after).toEqual(costDesign(faster));
  });

  it("a write's new rate re-costs the counts that weigh it, not its entity's other reads", () => {
    const cache = createCostCache();
    const design = withCrossPatternCosts(example('ecommerce'));
    const rate = (d: Design, r: number) => onTable(d, (t) => ({ ...t, accessPatterns: t.accessPatterns.map((p) => (p.id === 'ap-create-user' ? { ...p, ratePerSecond: r } : p)) }));
    cache.costDesign(design);
    // The first edit finds out which reads of User read its writes; the second re-costs only those.
    const before = cache.costDesign(rate(design, 2)).tables[0]!.patterns;
    const typed = rate(design, 25);
    const after = cache.costDesign(typed).tables[0]!.patterns;
    // Kept plans are the very objects of the last costing (a pattern with a projection option is
    // re-assembled each time around its kept plan and per-request figure, as the option reads every write).
    const samePlan = (id: string) => before.find((p) => p.patternId === id)!.plan === after.find((p) => p.patternId === id)!.plan;
    // The put's own plan does not read its rate: kept too, only its cost follows the rate.
    expect(['ap-get-user', 'ap-get-user-by-email', 'ap-count-users-in-country', 'ap-create-user'].map(samePlan)).toEqual([true, true, false, true]);
    const put = (costs: typeof after) => costs.find((p) => p.patternId === 'ap-create-user')!.perSecond.value;
    expect(put(after)).toBeCloseTo((put(before) / 2) * 25, 9);
    expect(after).toEqual(costDesign(typed).tables[0]!.patterns);
  });

  it('starts a table afresh when anything but its patterns changes', () => {
    const cache = createCostCache();
    const design = example('ecommerce');
    const before = cache.costDesign(design);
    const bigger = onTable(design, (t) => ({ ...t, entities: t.entities.map((e, i) => (i === 0 ? { ...e, itemCount: e.itemCount * 2 } : e)) }));
    const after = cache.costDesign(bigger);
    expect(after.tables[0]!.patterns.some((p, i) => p === before.tables[0]!.patterns[i])).toBe(false);
    expect(after).toEqual(costDesign(bigger));
  });
});

describe('exactKey', () => {
  it('tells apart values JSON would confuse, and equal values get equal keys', () => {
    const keys = [0, -0, NaN, Infinity, null, undefined, '0', 'n0', [0], { a: 0 }, { a: undefined }, {}, [undefined], []].map(exactKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(exactKey({ a: [1, 'x', { b: true }] })).toBe(exactKey({ a: [1, 'x', { b: true }] }));
  });
});
