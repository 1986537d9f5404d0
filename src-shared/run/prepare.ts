/**
 * Builds everything a run sends, before anything is sent: the CreateTable input, the seeded sample
 * items to load, and for every access pattern its planned request filled with a sample item's values,
 * `repeat` times, with Keyplan's prediction for one call on that sample.
 *
 * More on its rules: docs/modules.md, "src-shared/run/prepare.ts".
 */
import { estimateItemBytes } from '../capacity/index.ts';
import { costTable, averageReadBytes } from '../costing/index.ts';
import type { PatternCost } from '../costing/index.ts';
import { formatNumber } from '../numbers/index.ts';
import type { AccessPattern, Design, Entity, Table } from '../model/index.ts';
import { isWritePattern, kindOf, unreachableAction, type WriteAction } from '../model/index.ts';
import { attributeTypes, tableFor } from './create-table.ts';
import { readCall, targetKeyAttributes, type PatternContext } from './read-calls.ts';
import { drawSample, pick, type RunSample, type SampleItem } from './sample-items.ts';
import type { EngineCapabilities, PatternRun, Prediction, RunCall, RunOperation, RunPlan } from './types.ts';
import { NEEDS_FULL_ENGINE } from './types.ts';
import { writeCall } from './write-calls.ts';

/** Every table a run creates starts with this, so that nothing a run creates is mistaken for the user's. */
export const RUN_TABLE_PREFIX = 'keyplan-run-';

/** DynamoDB table names are at most 255 characters. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html */
const MAX_TABLE_NAME_LENGTH = 255;

/** 8 base-36 characters of a 32-bit FNV-1a hash of the run id: short, and distinct per run. */
function shortId(runId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < runId.length; i += 1) {
    h ^= runId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(7, '0').padStart(8, 'k');
}

/** `keyplan-run-<short id>-<name>`, cut to DynamoDB's 255 characters. */
export function runTableName(runId: string, name: string): string {
  return `${RUN_TABLE_PREFIX}${shortId(runId)}-${name}`.slice(0, MAX_TABLE_NAME_LENGTH);
}

export interface PrepareOptions {
  runId: string;
  tableId: string;
  /** Sample items loaded per entity. */
  itemsPerEntity: number;
  /** Calls per pattern. */
  repeat: number;
  seed: number;
  capabilities: EngineCapabilities;
}

/** A figure's steps as lines: `label: expression = value unit`. */
function derivationLines(steps: ReadonlyArray<{ label: string; expression: string; value: number; unit: string }>): string[] {
  return steps.map((s) => `${s.label}: ${s.expression} = ${formatNumber(s.value, 4)}${s.unit === '' ? '' : ` ${s.unit}`}`);
}

/**
 * Prepares a run of one table of `design`. Pure: the same design and options give the same plan.
 * The table must exist (the caller checks).
 */
export function prepareRun(design: Design, options: PrepareOptions): RunPlan {
  const source = design.tables.find((t) => t.id === options.tableId);
  if (!source) throw new Error(`The design has no table "${options.tableId}".`);
  const n = Math.max(1, Math.floor(options.itemsPerEntity));
  const repeat = Math.max(1, Math.floor(options.repeat));
  const runName = runTableName(options.runId, source.name);
  const table = tableFor(source, runName, options.capabilities);

  // The table as the run holds it: N items per entity, every pattern once a second.
  const modelTable: Table = {
    ...source,
    entities: source.entities.map((e) => ({ ...e, itemCount: n })),
    accessPatterns: source.accessPatterns.map((p) => ({ ...p, ratePerSecond: 1 })),
  };
  const sample = drawSample(design, modelTable, repeat, options.seed);
  const costs = costTable(modelTable);
  const run: RunContext = {
    source,
    modelTable,
    runName,
    repeat,
    capabilities: options.capabilities,
    types: attributeTypes(source),
    omitted: new Set(table.omittedIndexes.map((o) => o.name)),
    sample,
    usedPuts: new Map(),
  };
  const patterns = modelTable.accessPatterns.map((pattern) => patternRun(run, pattern, costs.patterns.find((c) => c.patternId === pattern.id)));

  const items = [...sample.loaded.values()].flat().map((s) => s.item);
  const itemsPerEntity: Record<string, number> = {};
  for (const [entityId, list] of sample.loaded) itemsPerEntity[entityId] = list.length;
  return { runId: options.runId, table, items, itemsPerEntity, patterns, repeat, seed: options.seed };
}

/** What every pattern of one run is prepared with. */
interface RunContext {
  /** The design's table. */
  source: Table;
  /** The table as the run holds it (`prepareRun`), which the predictions are costed on. */
  modelTable: Table;
  runName: string;
  repeat: number;
  capabilities: EngineCapabilities;
  types: Map<string, string>;
  /** GSIs the engine cannot create. */
  omitted: ReadonlySet<string>;
  sample: RunSample;
  /** Held-back items each entity's put patterns have taken so far. */
  usedPuts: Map<string, number>;
}

/** One pattern's run: its calls and prediction, or why it is not sent to this engine. */
function patternRun(run: RunContext, pattern: AccessPattern, cost: PatternCost | undefined): PatternRun {
  const plan = cost?.plan;
  const kind = kindOf(pattern.action).family;
  const transactional = pattern.consistency === 'transactional';
  const operation: RunOperation = plan && plan.operation !== 'None' ? (transactional && kind === 'write' ? 'TransactWriteItems' : (plan.operation as RunOperation)) : kind === 'write' ? 'PutItem' : 'Query';
  const target = plan ? (plan.target.kind === 'table' ? 'table' : plan.target.name) : 'table';
  const runOf = (extra: Partial<PatternRun>): PatternRun => ({
    patternId: pattern.id,
    name: pattern.name,
    kind,
    operation,
    target,
    consistency: plan?.consistency ?? pattern.consistency,
    calls: [],
    notes: [],
    ...extra,
  });
  if (!plan || !cost || plan.operation === 'None') return runOf({ skipped: `needs a key design${plan?.needsKeyDesign ? `: ${plan.needsKeyDesign}` : ''}` });
  if (transactional && !run.capabilities.transactions) {
    return runOf({ skipped: `${NEEDS_FULL_ENGINE}: the pattern is transactional and this engine has no TransactWriteItems or TransactGetItems` });
  }
  if (transactional && kind === 'read') return runOf({ skipped: 'a transactional read (TransactGetItems) is not run yet; its plan is costed as usual' });
  if (run.omitted.has(target)) return runOf({ skipped: `${NEEDS_FULL_ENGINE}: it queries ${target}, whose multi-attribute key this engine cannot create` });
  const entity = run.modelTable.entities.find((e) => e.id === pattern.entityId);
  if (!entity) return runOf({ skipped: 'needs a key design: the pattern names no entity' });

  const notes: string[] = [];
  const prediction = predictionOf(run, cost, kind, entity, notes);
  const ctx: PatternContext = { table: run.source, runName: run.runName, types: run.types, plan, pattern, repeat: run.repeat };
  const calls = isWritePattern(pattern) ? writeCalls(run, { ...ctx, pattern }, entity) : readCalls(run, ctx, entity, target, notes);
  if ('skipped' in calls) return runOf({ prediction, notes, skipped: calls.skipped });
  return runOf({ prediction, calls: calls.calls, notes });
}

/** The calls of a pattern, or why there are none. */
type Calls = { calls: RunCall[] } | { skipped: string };

/** Prediction: the cost engine's figure for one call on the run's table (a GSI's fetches and the engine's missing indexes left out, with a note). */
function predictionOf(run: RunContext, cost: PatternCost, kind: PatternRun['kind'], entity: Entity, notes: string[]): Prediction {
  const plan = cost.plan;
  const units: Record<string, number> = {};
  for (const c of cost.consumption) {
    const name = c.target === 'table' ? 'table' : c.target.gsi;
    if (run.omitted.has(name)) {
      notes.push(`${name} is not created on this engine, so its units are left out of the prediction.`);
      continue;
    }
    const value = kind === 'write' ? c.writeUnitsPerSecond : c.readUnitsPerSecond;
    units[name] = (units[name] ?? 0) + value;
  }
  if (plan.fetch?.kind === 'gsi' && kind === 'read') {
    notes.push(`The plan fetches ${formatNumber(plan.fetch.items)} base items from the table with ${plan.fetch.operation ?? 'GetItem'} after the index read; the run sends the index read only, so the fetch's units are left out.`);
    delete units['table'];
  }
  const totalUnits = Object.values(units).reduce((s, v) => s + v, 0);
  const averageItemBytes = kind === 'read' ? averageReadBytes(run.modelTable, plan).value : estimateItemBytes(run.modelTable, entity).value;
  return {
    units,
    total: totalUnits,
    unit: kind,
    itemsRead: plan.itemsRead,
    itemsReturned: plan.itemsReturned,
    requests: plan.requests,
    averageItemBytes,
    derivation: derivationLines(cost.perRequest.steps),
  };
}

/** A read pattern's calls, each from a sample item in the plan's target (spread over them). */
function readCalls(run: RunContext, ctx: PatternContext, entity: Entity, target: string, notes: string[]): Calls {
  const entityItems = run.sample.loaded.get(entity.id) ?? [];
  const needed = ctx.plan.operation === 'Scan' ? [] : targetKeyAttributes(run.source, ctx.plan);
  const inTarget = entityItems.filter((s) => needed.every((a) => s.item[a] !== undefined));
  const candidates = inTarget.length > 0 ? inTarget : entityItems;
  if (inTarget.length === 0 && needed.length > 0) notes.push(`No ${entity.name} sample item is in ${target}: the requests use items outside it and read nothing.`);
  if (candidates.length === 0) return { skipped: `no ${entity.name} items in the sample to take values from` };
  const calls: RunCall[] = [];
  for (let k = 0; k < run.repeat; k += 1) calls.push(readCall(ctx, pick(candidates, k, run.repeat), candidates, k));
  return { calls };
}

/** A write pattern's calls: puts write held-back items, deletes remove loaded ones from the end, updates change loaded ones. */
function writeCalls(run: RunContext, ctx: PatternContext & { pattern: { action: WriteAction } }, entity: Entity): Calls {
  const entityItems = run.sample.loaded.get(entity.id) ?? [];
  const repeat = run.repeat;
  const calls: RunCall[] = [];
  switch (ctx.pattern.action) {
    case 'put': {
      const pool = run.sample.heldBack.get(entity.id) ?? [];
      const used = run.usedPuts.get(entity.id) ?? 0;
      for (let k = 0; k < repeat && used + k < pool.length; k += 1) calls.push(writeCall(ctx, pool[used + k]!, [], entity));
      run.usedPuts.set(entity.id, used + repeat);
      break;
    }
    case 'delete':
      for (let k = 0; k < repeat && k < entityItems.length; k += 1) calls.push(writeCall(ctx, entityItems[entityItems.length - 1 - k]!, [], entity));
      break;
    case 'update':
      if (entityItems.length === 0) return { skipped: `no ${entity.name} items in the sample to update` };
      for (let k = 0; k < repeat; k += 1) {
        const sample: SampleItem = pick(entityItems, k, repeat);
        const at = entityItems.indexOf(sample);
        calls.push(writeCall(ctx, sample, [...entityItems.slice(at + 1 + k), ...entityItems.slice(0, at + 1 + k)], entity));
      }
      break;
    default:
      unreachableAction(ctx.pattern.action);
  }
  return { calls };
}

/** The order a run sends its patterns in: reads, updates, puts, deletes (reports keep the design's order). */
export function sendOrder(patterns: readonly PatternRun[]): PatternRun[] {
  const writeKind = (p: PatternRun): string => {
    if (p.operation !== 'TransactWriteItems') return p.operation;
    const first = (p.calls[0]?.requests[0]?.input['TransactItems'] as Array<Record<string, unknown>> | undefined)?.[0] ?? {};
    return 'Update' in first ? 'UpdateItem' : 'Delete' in first ? 'DeleteItem' : 'PutItem';
  };
  const rank = (p: PatternRun): number => {
    if (p.kind === 'read') return 0;
    const op = writeKind(p);
    return op === 'UpdateItem' ? 1 : op === 'PutItem' ? 2 : 3;
  };
  return [...patterns].sort((a, b) => rank(a) - rank(b));
}
