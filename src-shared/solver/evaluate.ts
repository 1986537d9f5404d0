/**
 * One candidate of the search: a layout per entity made into a complete table (indexes for the
 * patterns the table's key does not serve, sparse conditions, shards), then planned and priced by
 * the same planner and cost engine as every screen.
 */
import { DEFAULT_PRICING } from '../capacity/index.ts';
import { costedTable, costTable, totalDesignCost, type PatternCost } from '../costing/index.ts';
import {
  MAX_LSIS_PER_TABLE,
  validateDesign,
  partitionKeysOf,
  sortKeysOf,
  isMultiAttributeKey,
  isReadPattern,
  withValueModel,
} from '../model/index.ts';
import type { AccessPattern, Design, Entity, GlobalSecondaryIndex, Pricing, Table } from '../model/index.ts';
import { planTable, applyIndexSuggestion } from '../planner/index.ts';
import { distinctCombinationsOf, entityCountsOf } from '../workload-stats/index.ts';
import type { IndexSuggestion, Plan } from '../planner/index.ts';
import { attributesOf, bindingsOf, prefixOf, type Layout } from './layouts.ts';
import type { AppliedRule, SolveOptions } from './types.ts';
import { formatCount, formatNumber, formatUsd } from '../numbers/index.ts';

export interface Candidate {
  /** The layouts chosen, one per entity in the table's order. */
  layouts: Layout[];
  /** How its new GSIs are keyed. */
  keying: IndexKeying;
  table: Table;
  design: Design;
  monthlyUsd: number;
  feasible: boolean;
  problems: string[];
  rules: AppliedRule[];
  patternCosts: PatternCost[];
  /** What tells two candidates apart: every template, index and condition. */
  signature: string;
  /** Requests per second of the reads an index serves: between equal costs, the busiest reads should hit the table (strongly consistent if need be, no replication lag). */
  indexReadRate: number;
}

/** The table the search starts from: the table's keys (PK/SK unless kept), no indexes, billing as asked. */
export function baseTable(table: Table, options: SolveOptions): Table {
  const keep = options.keepTableKey === true;
  const partitionKey = keep ? table.partitionKey : { name: 'PK', type: 'S' as const };
  const sortKey = keep ? table.sortKey : { name: 'SK', type: 'S' as const };
  const billing = options.billing === 'onDemand' ? { mode: 'ON_DEMAND' as const } : table.billing;
  const base: Table = { ...table, partitionKey, billing, globalSecondaryIndexes: [], localSecondaryIndexes: [] };
  if (sortKey) base.sortKey = sortKey;
  else delete base.sortKey;
  return base;
}

/** Whether a plan leaves its pattern for an index to serve: unserved, or a Scan, with a suggestion to apply. */
const wantsIndex = (plan: Plan): boolean => plan.suggestion !== undefined && (!plan.isServed || plan.operation === 'Scan');

/** The entities' table keys from the layouts. */
function withLayouts(base: Table, layouts: readonly Layout[]): Table {
  const pk = base.partitionKey.name;
  const sk = base.sortKey?.name;
  return { ...base, entities: base.entities.map((e, i): Entity => ({ ...e, keys: bindingsOf(layouts[i]!, pk, sk) })) };
}

/** How new GSIs are keyed: synthetic key attributes (`GSI1PK = STATUS#{status}`, which other entities can share) or the entity's own attributes where they fit. */
export type IndexKeying = 'synthetic' | 'natural';

/** A suggestion keyed on the entity's own attributes, turned into the synthetic key it stands against. */
function syntheticOf(s: IndexSuggestion): IndexSuggestion {
  if (!s.natural || s.indexName === undefined) return s;
  const name = s.indexName;
  const out: IndexSuggestion = {
    kind: 'gsi',
    indexName: name,
    partitionKey: { name: `${name}PK`, type: 'S' },
    partitionKeyTemplate: s.natural.partitionKeys.map((k) => `${k.name.toUpperCase()}#{${k.name}}`).join('#'),
    reason: s.reason,
  };
  if (s.entityId !== undefined) out.entityId = s.entityId;
  if (s.projection) out.projection = s.projection;
  const sorts = s.natural.sortKeys;
  if (sorts.length > 0) {
    out.sortKey = { name: `${name}SK`, type: sorts.length === 1 ? sorts[0]!.type : 'S' };
    out.sortKeyTemplate = sorts.map((k) => `{${k.name}}`).join('#');
  }
  return out;
}

/**
 * A synthetic GSI partition key template starts with the entity's prefix (`TICKET#STATUS#{status}`):
 * entities that share (overload) an index must not share its partitions, or a Query for one reads
 * the other's items too.
 */
function prefixed(table: Table, s: IndexSuggestion): IndexSuggestion {
  if (s.kind !== 'gsi' || s.natural || s.partitionKeyTemplate === undefined) return s;
  const entity = table.entities.find((e) => e.id === s.entityId);
  if (!entity) return s;
  const prefix = `${prefixOf(entity)}#`;
  return s.partitionKeyTemplate.startsWith(prefix) ? s : { ...s, partitionKeyTemplate: `${prefix}${s.partitionKeyTemplate}` };
}

/**
 * The other side of a many-to-many (docs/dynamodb-rules.md §13.4): a new GSI for a pattern that
 * knows exactly what the entity's table sort key is built from, and needs no range, inverts the
 * table key (partition key = the table's sort key template, sort key = its partition key template),
 * so one Query lists the items from the other side, and other entities can share the index.
 */
function inverted(table: Table, pattern: AccessPattern, s: IndexSuggestion): IndexSuggestion {
  if (s.kind !== 'gsi' || s.reuses || s.natural || pattern.range || s.indexName === undefined) return s;
  const entity = table.entities.find((e) => e.id === s.entityId);
  const sk = table.sortKey?.name;
  const pkTemplate = entity?.keys[table.partitionKey.name]?.template;
  const skTemplate = sk === undefined ? undefined : entity?.keys[sk]?.template;
  if (!pkTemplate || !skTemplate) return s;
  const skAttributes = attributesOf(skTemplate);
  const known = new Set(pattern.known);
  if (skAttributes.length === 0 || skAttributes.length !== known.size || !skAttributes.every((a) => known.has(a))) return s;
  return {
    ...s,
    partitionKey: { name: `${s.indexName}PK`, type: 'S' },
    partitionKeyTemplate: skTemplate,
    sortKey: { name: `${s.indexName}SK`, type: 'S' },
    sortKeyTemplate: pkTemplate,
    reason: `${s.reason} Keyed as the table key inverted, ${skTemplate} then ${pkTemplate}.`,
  };
}

/**
 * Adds indexes for the reads the table's key does not serve, the busiest first: the planner's own
 * suggestion for each (an existing GSI overloaded where its key shape fits, else a new one; an LSI
 * for a strongly consistent range), while the GSI budget lasts. An index that does not serve the
 * pattern it was added for is taken back.
 */
function addIndexes(start: Table, maxGsis: number, byRate: readonly number[], keying: IndexKeying): Table {
  let table = start;
  let plans = planTable(costedTable(table));
  const stuck = new Set<number>();
  for (let guard = 0; guard < 4 * table.accessPatterns.length + 4; guard += 1) {
    const next = byRate.find((i) => !stuck.has(i) && wantsIndex(plans[i]!));
    if (next === undefined) break;
    const suggested = plans[next]!.suggestion!;
    const suggestion = keying === 'synthetic' ? inverted(table, table.accessPatterns[next]!, prefixed(table, syntheticOf(suggested))) : suggested;
    const isNewGsi = suggestion.kind === 'gsi' && !suggestion.reuses;
    const full = (isNewGsi && table.globalSecondaryIndexes.length >= maxGsis) || (suggestion.kind === 'lsi' && table.localSecondaryIndexes.length >= MAX_LSIS_PER_TABLE);
    const applied = full ? table : applyIndexSuggestion(table, suggestion);
    if (applied === table) {
      stuck.add(next);
      continue;
    }
    const after = planTable(costedTable(applied));
    if (wantsIndex(after[next]!) || !after[next]!.isServed) {
      stuck.add(next);
      continue;
    }
    table = applied;
    plans = after;
  }
  return table;
}

/** The entity ids bound to a GSI's (single-attribute) partition key. */
const entitiesOn = (table: Table, gsi: GlobalSecondaryIndex): Entity[] => {
  if (isMultiAttributeKey(gsi)) return [];
  const pk = partitionKeysOf(gsi)[0]?.name;
  return pk === undefined ? [] : table.entities.filter((e) => Object.hasOwn(e.keys, pk));
};

/**
 * Sparse indexes: where every pattern an entity reads through a GSI filters on the same condition,
 * the entity's entries are written only when it holds (`when`), so the index keeps only the items
 * the patterns return: fewer index writes and less storage. Kept only where every pattern is still
 * served the same way.
 */
function addSparseConditions(table: Table, plans: readonly Plan[]): { table: Table; rules: AppliedRule[] } {
  let next = table;
  const rules: AppliedRule[] = [];
  for (const gsi of table.globalSecondaryIndexes) {
    const keyNames = [...partitionKeysOf(gsi), ...sortKeysOf(gsi)].map((k) => k.name);
    for (const entity of entitiesOn(next, gsi)) {
      const reads = table.accessPatterns.map((p, i) => ({ p, plan: plans[i]! })).filter(({ p, plan }) => p.entityId === entity.id && isReadPattern(p) && plan.target.kind === 'gsi' && plan.target.name === gsi.name);
      const filters = [...new Set(reads.map(({ p }) => p.filter?.trim() ?? ''))];
      if (reads.length === 0 || filters.length !== 1 || filters[0] === '') continue;
      const when = filters[0]!;
      const keys = { ...entity.keys };
      for (const k of keyNames) if (keys[k]) keys[k] = { ...keys[k]!, when };
      const candidate: Table = { ...next, entities: next.entities.map((e) => (e.id === entity.id ? { ...e, keys } : e)) };
      const after = planTable(costedTable(candidate));
      const same = reads.every(({ p }) => {
        const i = table.accessPatterns.indexOf(p);
        return after[i]!.isServed && after[i]!.target.kind === 'gsi' && (after[i]!.target as { name: string }).name === gsi.name;
      });
      if (!same) continue;
      next = candidate;
      rules.push({ rule: 'sparse-index', text: `${gsi.name} is sparse for ${entity.name}: its entries are written only when ${when}, the items ${reads.map(({ p }) => `"${p.name}"`).join(', ')} return${reads.length === 1 ? 's' : ''}.` });
    }
  }
  return { table: next, rules };
}

/** The rules the indexes of a finished table apply, in words. */
function indexRules(table: Table): AppliedRule[] {
  const rules: AppliedRule[] = [];
  const pk = table.partitionKey.name;
  const sk = table.sortKey?.name;
  for (const gsi of table.globalSecondaryIndexes) {
    const on = entitiesOn(table, gsi);
    const [gpk] = partitionKeysOf(gsi);
    const [gsk] = sortKeysOf(gsi);
    if (isMultiAttributeKey(gsi) || (gpk && !on.length && table.entities.some((e) => e.attributes.some((a) => a.name === gpk.name)))) {
      const parts = [...partitionKeysOf(gsi).map((k) => k.name)];
      const sorts = sortKeysOf(gsi).map((k) => k.name);
      rules.push({ rule: 'multi-attribute-key', text: `${gsi.name} is keyed on the items' own attributes (${parts.join(' + ')}${sorts.length ? `; sort ${sorts.join(' + ')}` : ''}): no synthetic key attribute to write.` });
    } else if (on.length > 1) {
      rules.push({ rule: 'overloaded-gsi', text: `${gsi.name} is overloaded: ${on.map((e) => `${e.name} (${e.keys[gpk!.name]?.template})`).join(', ')} share it, one index for several patterns.` });
    } else if (on.length === 1) {
      const e = on[0]!;
      const inverted = gsk !== undefined && sk !== undefined && e.keys[gpk!.name]?.template === e.keys[sk]?.template && e.keys[gsk.name]?.template === e.keys[pk]?.template;
      rules.push(
        inverted
          ? { rule: 'inverted-index', text: `${gsi.name} inverts ${e.name}'s table key (${e.keys[sk]?.template} as partition, ${e.keys[pk]?.template} as sort): the other side of the many-to-many.` }
          : { rule: 'gsi', text: `${gsi.name} serves ${e.name} by ${e.keys[gpk!.name]?.template}${gsk && e.keys[gsk.name] ? `, sorted by ${e.keys[gsk.name]!.template}` : ''}.` },
      );
    }
    if (gsi.projection.type !== 'ALL') {
      rules.push({ rule: 'projection', text: `${gsi.name} projects ${gsi.projection.type === 'INCLUDE' ? `INCLUDE ${gsi.projection.nonKeyAttributes.join(', ')}` : 'KEYS_ONLY'}: only what its patterns read, so smaller entries and cheaper index writes.` });
    }
  }
  return rules;
}

/** A canonical text of everything a proposal decides. */
function signatureOf(table: Table): string {
  const entities = table.entities.map((e) => `${e.id}:${Object.entries(e.keys).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, b]) => `${k}=${b.template}${b.when ? `|${b.when}` : ''}${b.shards ? `|x${b.shards.count}` : ''}`).join(',')}`);
  const gsis = table.globalSecondaryIndexes.map((g) => `${g.name}(${JSON.stringify(g.partitionKey)},${JSON.stringify(g.sortKey ?? null)},${JSON.stringify(g.projection)})`);
  const lsis = table.localSecondaryIndexes.map((l) => `${l.name}(${JSON.stringify(l.sortKey)},${JSON.stringify(l.projection)})`);
  return [...entities, ...gsis, ...lsis].join(';');
}

/** What the pattern costs per month under the proposal's billing. */
export const patternMonthly = (cost: PatternCost, onDemand: boolean): number => (onDemand ? cost.monthly.onDemand.value : cost.monthly.provisioned.value);

/**
 * Entities whose table key cannot tell their items apart: the key's attributes take fewer distinct
 * values together than the entity has items (a user's scores keyed by the user alone), so items
 * would overwrite each other. Counts as the planner estimates them (cardinality, listed values,
 * references; an attribute without any is taken as unique).
 */
function collisions(table: Table): string[] {
  // The value model's relation graph too: attributes a reference ties together count once.
  const modeled = withValueModel(table);
  const refs = entityCountsOf(modeled);
  const keyNames = [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
  const out: string[] = [];
  for (const entity of table.entities) {
    const names = [...new Set(keyNames.flatMap((k) => attributesOf(entity.keys[k]?.template ?? '')))];
    if (entity.itemCount <= 1) continue;
    // A key of constants alone is one value: every item would have the same key.
    const own = modeled.entities.find((e) => e.id === entity.id) ?? entity;
    const distinct = names.length === 0 ? 1 : distinctCombinationsOf(own, names, new Map(), refs).count;
    if (distinct < entity.itemCount) {
      out.push(`${entity.name}'s table key (${names.length > 0 ? names.join(', ') : 'constants only'}) takes at most ${formatCount(distinct)} distinct values for ${formatNumber(entity.itemCount, 3)} items: items would overwrite each other.`);
    }
  }
  return out;
}

const baselines = new WeakMap<Design, Set<string>>();
/** The problems the input design has before any proposal, by path and message (computed once per design). */
function baselineProblems(design: Design): Set<string> {
  let known = baselines.get(design);
  if (!known) {
    known = new Set(validateDesign(design).map((p) => `${p.path}\u0000${p.message}`));
    baselines.set(design, known);
  }
  return known;
}

/**
 * Provisioned capacity sized to the proposal's load: the table and each GSI get the whole units
 * their patterns need (at least 1), so a proposal is neither throttled by capacity it was not given
 * nor billed for capacity another layout needed. Auto scaling settings of the input are kept.
 */
export function sizeCapacity(table: Table, pricing: Pricing): Table {
  const cost = costTable(table, pricing);
  const needs = (kind: 'table' | 'gsi', name?: string) => cost.targets.find((t) => t.kind === kind && (kind === 'table' || t.name === name))?.loadNeeds;
  const own = needs('table');
  if (!own) return table;
  const autoScaling = table.billing.mode === 'PROVISIONED' ? table.billing.autoScaling : undefined;
  return {
    ...table,
    billing: { mode: 'PROVISIONED', readCapacityUnits: Math.max(1, own.readCapacityUnits), writeCapacityUnits: Math.max(1, own.writeCapacityUnits), ...(autoScaling ? { autoScaling } : {}) },
    globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => {
      const n = needs('gsi', g.name);
      return n ? { ...g, provisioned: { readCapacityUnits: Math.max(1, n.readCapacityUnits), writeCapacityUnits: Math.max(1, n.writeCapacityUnits) } } : g;
    }),
  };
}

/** Whether proposals are provisioned: asked for, or the table's own billing. */
export const isProvisioned = (table: Table, options: SolveOptions): boolean => options.billing === 'provisioned' || (options.billing !== 'onDemand' && table.billing.mode === 'PROVISIONED');

/** The input's cost beside the proposals (`inputCost`). */
export interface InputCost {
  /** The table's requests or capacity plus its storage, under the proposals' billing. */
  monthlyUsd: number;
  onDemand: boolean;
  /** Patterns the cost leaves out for want of a key design: then it is no measure to compare with. */
  leftOut: number;
  /** Provisioned: the same with the capacity the input configures, where that differs. */
  asConfiguredUsd?: number;
}

/**
 * The input's table priced as a proposal is: under the proposals' billing, and provisioned at the
 * capacity its own load needs (`sizeCapacity`), not at what it configures. A proposal's ratio to it
 * then measures the key design, not a change of capacity that any design could make.
 */
export function inputCost(design: Design, table: Table, options: Pick<SolveOptions, 'billing'>): InputCost {
  const pricing: Pricing = design.pricing ?? DEFAULT_PRICING;
  const billed: Table = options.billing === 'onDemand' ? { ...table, billing: { mode: 'ON_DEMAND' } } : table;
  const provisioned = isProvisioned(table, options);
  const priced = provisioned ? sizeCapacity(billed, pricing) : billed;
  const cost = costTable(priced, pricing);
  const total = totalDesignCost(pricing, [cost]);
  const onDemand = priced.billing.mode === 'ON_DEMAND';
  const out: InputCost = { monthlyUsd: onDemand ? total.onDemandMonthly.value : total.provisionedMonthly.value, onDemand, leftOut: cost.needingKeyDesign.length };
  if (provisioned && table.billing.mode === 'PROVISIONED') {
    const configured = totalDesignCost(pricing, [costTable(table, pricing)]).provisionedMonthly.value;
    if (Math.round(configured * 100) !== Math.round(out.monthlyUsd * 100)) out.asConfiguredUsd = configured;
  }
  return out;
}

/** Prices a finished table: its monthly cost, feasibility and what makes it infeasible. */
export function price(design: Design, table: Table, options: SolveOptions): Pick<Candidate, 'monthlyUsd' | 'feasible' | 'problems' | 'patternCosts' | 'design' | 'indexReadRate'> {
  const pricing: Pricing = design.pricing ?? DEFAULT_PRICING;
  const cost = costTable(table, pricing);
  const total = totalDesignCost(pricing, [cost]);
  const onDemand = table.billing.mode === 'ON_DEMAND';
  const monthlyUsd = onDemand ? total.onDemandMonthly.value : total.provisionedMonthly.value;
  const problems: string[] = [];
  cost.patterns.forEach((p) => {
    // A Scan serves a pattern (reading every item) unless Scans are ruled out.
    if (p.plan.operation === 'Scan' && p.needsKeyDesign === undefined) {
      if (options.noScan) problems.push(`"${p.name}" needs a Scan.`);
    } else if (p.needsKeyDesign !== undefined || !p.plan.isServed) problems.push(`"${p.name}" is not served.`);
  });
  cost.patterns.forEach((p, i) => {
    const pattern = table.accessPatterns[i]!;
    // A GSI reads eventually consistent only: a strong or transactional read needs the table or an LSI.
    if (isReadPattern(pattern) && pattern.consistency !== 'eventual' && p.plan.target.kind === 'gsi') problems.push(`"${p.name}" asks for a ${pattern.consistency} read, which GSI ${p.plan.target.name} cannot give.`);
  });
  problems.push(...collisions(table));
  const next: Design = { ...design, tables: design.tables.map((t) => (t.id === table.id ? table : t)) };
  // Only problems the proposal brings: what the input already breaks elsewhere (a short table name,
  // another table) is not the key design's doing.
  const before = baselineProblems(design);
  for (const problem of validateDesign(next)) if (!before.has(`${problem.path}\u0000${problem.message}`)) problems.push(problem.message);
  if (options.monthlyBudgetUsd !== undefined && monthlyUsd > options.monthlyBudgetUsd) problems.push(`It costs ${formatUsd(monthlyUsd)} a month, over the budget of ${formatUsd(options.monthlyBudgetUsd)}.`);
  const indexReadRate = cost.patterns.reduce((sum, p, i) => {
    const pattern = table.accessPatterns[i]!;
    return isReadPattern(pattern) && p.plan.target.kind !== 'table' && Number.isFinite(pattern.ratePerSecond) ? sum + pattern.ratePerSecond : sum;
  }, 0);
  return { design: next, monthlyUsd, feasible: problems.length === 0, problems, patternCosts: cost.patterns, indexReadRate };
}

/** Makes and prices the candidate of one layout per entity. */
export function evaluate(design: Design, base: Table, layouts: readonly Layout[], options: SolveOptions, byRate: readonly number[], keying: IndexKeying = 'synthetic'): Candidate {
  const keyed = withLayouts(base, layouts);
  const indexed = addIndexes(keyed, options.maxGsis ?? 5, byRate, keying);
  const sparseResult = addSparseConditions(indexed, planTable(costedTable(indexed)));
  const sparse = sparseResult.rules;
  const provisioned = isProvisioned(base, options);
  const table = provisioned ? sizeCapacity(sparseResult.table, design.pricing ?? DEFAULT_PRICING) : sparseResult.table;
  const rules: AppliedRule[] = [
    ...layouts.map((l): AppliedRule => ({ rule: l.kind === 'child' ? 'item-collection' : l.kind === 'kept' ? 'kept-table-key' : 'own-partition', text: l.text })),
    ...indexRules(table),
    ...sparse,
    ...(provisioned && table.billing.mode === 'PROVISIONED'
      ? [{ rule: 'provisioned-capacity' as const, text: `Provisioned capacity sized to the load: the table ${table.billing.readCapacityUnits} RCU / ${table.billing.writeCapacityUnits} WCU${table.globalSecondaryIndexes.map((g) => (g.provisioned ? `, ${g.name} ${g.provisioned.readCapacityUnits} / ${g.provisioned.writeCapacityUnits}` : '')).join('')}.` }]
      : []),
  ];
  return { layouts: [...layouts], keying, table, rules, signature: signatureOf(table), ...price(design, table, options) };
}
