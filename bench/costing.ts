/**
 * Costing speed, per edit, as a user types a rate: `benchCosting()` changes one access pattern's
 * `ratePerSecond` at a time and takes the design's costs through a cost cache (`createCostCache`),
 * the way the open document does on every keystroke.
 *
 * 1. costing.edit.200-patterns-20-gsis: a generated design (the e-commerce example grown to 200
 *    patterns over 20 GSIs), per edit through the cache. Target 20 ms. Baseline: the full
 *    `costDesign` of the same edited design, without a cache (the ratio is baseline ÷ cached).
 * 2. costing.edit.example: examples/ecommerce.keyplan.json, per edit through the cache. Target 2 ms.
 * 3. browser.keystroke-to-figure.*: what the e2e timing helper (e2e/typing-latency.spec.ts) last
 *    recorded in test-results/timings/typing-latency.json, when that file exists: keystroke in the
 *    rate field → the pattern's new cost on screen, in Chromium. Recorded, not a target.
 *
 * Before timing, a few edits are costed both ways and must agree to the byte (the cache is only an
 * optimisation). Run alone: `node --import tsx bench/costing.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { costDesign, createCostCache } from '../src-shared/costing/index.ts';
import type { AccessPattern, Design, Entity, GlobalSecondaryIndex, Projection } from '../src-shared/model/index.ts';
import { parseDesign } from '../src-shared/model/index.ts';
import { type BenchResult, median } from './result.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** Edits per measurement (after three unmeasured ones): each one a new rate on a pattern, round the design. */
const EDITS = 30;

/** The e-commerce example, parsed as the app opens it. */
export function exampleDesign(): Design {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(ROOT, 'examples/ecommerce.keyplan.json'), 'utf8')));
  if (!parsed.ok) throw new Error(`examples/ecommerce.keyplan.json does not parse: ${parsed.errors.map((p) => p.message).join(' ')}`);
  return parsed.value;
}

const PROJECTIONS = (n: number, entity: Entity): Projection => {
  const extra = entity.attributes.at(-1)!.name;
  return n % 3 === 0 ? { type: 'ALL' } : n % 3 === 1 ? { type: 'KEYS_ONLY' } : { type: 'INCLUDE', nonKeyAttributes: [extra] };
};

/**
 * The e-commerce example grown to `patternCount` access patterns over `gsiCount` GSIs: each added
 * GSI indexes one entity by one of its attributes (projections ALL, KEYS_ONLY and INCLUDE in turn),
 * and the added patterns cycle over the entities and over gets, lists by an indexed attribute (some
 * returning attributes the index lacks), counts, filtered lists no index serves, puts, updates of an
 * indexed attribute and deletes, at rates from 1 to 500 per second.
 */
export function largeDesign(patternCount = 200, gsiCount = 20): Design {
  const design = exampleDesign();
  const table = design.tables[0]!;
  const entities = table.entities.map((e) => ({ ...e, keys: { ...e.keys } }));
  const gsis: GlobalSecondaryIndex[] = [...table.globalSecondaryIndexes];
  /** Per entity: the attributes an added GSI indexes it by. */
  const indexedBy = new Map<string, string[]>();
  for (let n = gsis.length + 1; n <= gsiCount; n += 1) {
    const entity = entities[n % entities.length]!;
    const candidates = entity.attributes.slice(1);
    const attribute = candidates[Math.floor(n / entities.length) % candidates.length]!.name;
    const name = `GSI${n}`;
    gsis.push({ id: `gsi-${n}`, name, partitionKey: { name: `${name}PK`, type: 'S' }, sortKey: { name: `${name}SK`, type: 'S' }, projection: PROJECTIONS(n, entity) });
    entity.keys[`${name}PK`] = { template: `${attribute.toUpperCase()}#{${attribute}}` };
    entity.keys[`${name}SK`] = { template: `${entity.name.toUpperCase()}#{${entity.attributes[0]!.name}}` };
    indexedBy.set(entity.id, [...(indexedBy.get(entity.id) ?? []), attribute]);
  }
  const patterns: AccessPattern[] = [...table.accessPatterns];
  for (let i = patterns.length; i < patternCount; i += 1) {
    const entity = entities[i % entities.length]!;
    const idName = entity.attributes[0]!.name;
    const indexed = indexedBy.get(entity.id) ?? [entity.attributes[1]!.name];
    const attribute = indexed[Math.floor(i / entities.length) % indexed.length]!;
    const base = { id: `ap-gen-${i}`, name: `P${i} ${entity.name}`, entityId: entity.id, ratePerSecond: 1 + ((i * 37) % 500), consistency: 'eventual' as const };
    const everyKey = [...new Set(Object.values(entity.keys).flatMap((b) => [...b.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))];
    const primary = `${entity.keys.PK!.template}${entity.keys.SK!.template}`;
    const updatable = indexed.filter((a) => !primary.includes(`{${a}}`));
    const filtered = entity.attributes.slice(1).find((a) => a.type === 'S' && a.name !== attribute) ?? entity.attributes[0]!;
    switch (i % 8) {
      case 0:
        patterns.push({ ...base, name: `${base.name}: get`, action: 'get', known: everyKey.filter((a) => primary.includes(`{${a}}`)) });
        break;
      case 1:
        patterns.push({ ...base, name: `${base.name}: list by ${attribute}`, action: 'query', known: [attribute], resultSize: 10 + (i % 40) });
        break;
      case 2:
        patterns.push({ ...base, name: `${base.name}: list by ${attribute}, some attributes`, action: 'query', known: [attribute], resultSize: 5, returns: [idName, entity.attributes.at(-1)!.name] });
        break;
      case 3:
        patterns.push({ ...base, name: `${base.name}: count by ${attribute}`, action: 'count', known: [attribute] });
        break;
      case 4:
        patterns.push({ ...base, name: `${base.name}: filtered list`, action: 'query', known: [entity.attributes.at(-1)!.name], resultSize: 20, filter: `${filtered.name} = "X"` });
        break;
      case 5:
        patterns.push({ ...base, name: `${base.name}: put`, action: 'put', known: everyKey });
        break;
      case 6:
        patterns.push({ ...base, name: `${base.name}: update`, action: 'update', known: everyKey, updates: [updatable[0] ?? entity.attributes.at(-1)!.name] });
        break;
      default:
        patterns.push({ ...base, name: `${base.name}: delete`, action: 'delete', known: everyKey });
    }
  }
  return {
    ...design,
    id: 'bench-costing',
    name: `${patternCount} patterns, ${gsiCount} GSIs`,
    tables: [{ ...table, entities, globalSecondaryIndexes: gsis, accessPatterns: patterns }],
  };
}

/** `design` with the `n`-th edit applied: a new rate on one pattern, the next one round the table each time. */
function withEdit(design: Design, n: number): Design {
  const table = design.tables[0]!;
  const at = (n * 7) % table.accessPatterns.length;
  const accessPatterns = table.accessPatterns.map((p, i) => (i === at ? { ...p, ratePerSecond: p.ratePerSecond + 1 + (n % 9) } : p));
  return { ...design, tables: [{ ...table, accessPatterns }, ...design.tables.slice(1)] };
}

/** Times `EDITS` edits of `start`, each costed by `cost`, after a few unmeasured ones; milliseconds per edit. */
function timeEdits(label: string, start: Design, cost: (design: Design) => unknown, edits = EDITS): number[] {
  let design = start;
  for (let n = 0; n < 3; n += 1) cost((design = withEdit(design, n)));
  const times: number[] = [];
  for (let n = 3; n < edits + 3; n += 1) {
    design = withEdit(design, n);
    const started = performance.now();
    cost(design);
    times.push(performance.now() - started);
  }
  const digits = median(times) < 10 ? 2 : 0;
  console.log(`${label}: ${times.length} edits, median ${median(times).toFixed(digits)} ms (min ${Math.min(...times).toFixed(digits)}, max ${Math.max(...times).toFixed(digits)})`);
  return times;
}

/** The cache must give what a fresh costing gives: checked on a few edits before anything is timed. */
function checkSame(start: Design): void {
  const cache = createCostCache();
  let design = start;
  for (let n = 0; n < 5; n += 1) {
    design = withEdit(design, n);
    if (JSON.stringify(cache.costDesign(design)) !== JSON.stringify(costDesign(design))) {
      throw new Error(`benchCosting: the cost cache and costDesign disagree on ${start.name} after edit ${n + 1}.`);
    }
  }
}

/** What the e2e timing helper last recorded in the browser (test-results/timings/typing-latency.json), if it ran. */
function browserResults(): BenchResult[] {
  const file = resolve(ROOT, 'test-results/timings/typing-latency.json');
  if (!existsSync(file)) {
    console.log('browser keystroke → figure: not measured (run `npx playwright test e2e/typing-latency.spec.ts` after `npm run build`)');
    return [];
  }
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as { results?: BenchResult[] };
  const results = (recorded.results ?? []).filter((r) => typeof r.name === 'string' && typeof r.median === 'number');
  for (const r of results) console.log(`${r.name}: median ${r.median} ${r.unit} (recorded by e2e/typing-latency.spec.ts)`);
  return results;
}

/** Costing per edit through the cost cache: the 200-pattern, 20-GSI design against a full costing, and the example. */
export async function benchCosting(): Promise<BenchResult[]> {
  const large = largeDesign();
  const example = exampleDesign();
  checkSame(large);
  checkSame(example);
  const round = (ms: number) => Math.round(ms * 100) / 100;

  const largeCache = createCostCache();
  largeCache.costDesign(large);
  const cached = median(timeEdits(`costing per edit, ${large.name}, through the cost cache`, large, (d) => largeCache.costDesign(d)));
  const full = median(timeEdits('  the same edits, costDesign of the whole design (no cache)', large, costDesign));
  console.log(`  ${(full / cached).toFixed(1)}× a full costing; target 20 ms`);

  const exampleCache = createCostCache();
  exampleCache.costDesign(example);
  const exampleCached = median(timeEdits('costing per edit, examples/ecommerce.keyplan.json, through the cost cache', example, (d) => exampleCache.costDesign(d)));
  const exampleFull = median(timeEdits('  the same edits, costDesign of the whole design (no cache)', example, costDesign));
  console.log(`  ${(exampleFull / exampleCached).toFixed(1)}× a full costing; target 2 ms`);

  return [
    {
      name: 'costing.edit.200-patterns-20-gsis',
      median: round(cached),
      unit: 'ms',
      target: 20,
      baseline: { name: 'costing.full.200-patterns-20-gsis', median: round(full) },
      ratio: Math.round((full / cached) * 10) / 10,
    },
    {
      name: 'costing.edit.example',
      median: round(exampleCached),
      unit: 'ms',
      target: 2,
      baseline: { name: 'costing.full.example', median: round(exampleFull) },
      ratio: Math.round((exampleFull / exampleCached) * 10) / 10,
    },
    ...browserResults(),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify({ results: await benchCosting() }));
}
