/**
 * The design sheet's access-pattern chart: per pattern, the table or index that serves it, the key
 * condition and filter with their values written in, units per request and per second, and dollars
 * per month, from the design's costs; or why the pattern is not costed yet.
 */
import type { Figure } from '../../capacity/index.ts';
import type { PatternCost, TableCost } from '../../costing/index.ts';
import type { AccessPattern, Table } from '../../model/index.ts';
import { busiestRatePerSecond } from '../../model/index.ts';
import type { Plan, Target } from '../../planner/index.ts';

/** One row of the access-pattern chart. */
export interface PatternRow {
  /** 1-based position in the table's list of patterns. */
  number: number;
  patternId: string;
  name: string;
  /** The entity's name; undefined when the pattern names none (yet) or one that does not exist. */
  entityName: string | undefined;
  action: AccessPattern['action'];
  ratePerSecond: number;
  consistency: AccessPattern['consistency'];
  /** Present when the pattern was planned and costed. */
  plan?: PlannedRow;
  /** Why the pattern is not costed yet, when it is not: it needs a key design (no entity, or no key templates). */
  needsKeyDesign?: string;
}

/** What a planned and costed pattern's row shows: its request, units and monthly dollars. */
export interface PlannedRow {
  kind: 'read' | 'write';
  /** GetItem, Query, Scan, PutItem … */
  operation: Plan['operation'];
  /** The plan's badge: Query, GSI Query, Fan-out Query, Scan … */
  badge: Plan['badge'];
  isServed: boolean;
  /** `table`, `GSI GSI1`, `LSI ByDate`. */
  target: string;
  /** Writes: the indexes the write also changes, `GSI1 (put)`. */
  alsoWrites: string[];
  /** The key condition (writes: the key) with its values written in: `PK = "USER#{userId}" AND begins_with(SK, "ORDER#")`. */
  keyCondition?: string;
  /** The FilterExpression with its names and values written in. */
  filter?: string;
  /** RCU or WCU per call. */
  perRequest: Figure;
  /** RCU/s or WCU/s at the pattern's rate. */
  perSecond: Figure;
  unit: 'RCU' | 'WCU';
  onDemandMonthly: Figure;
  /** The load's share of provisioned capacity (not a share of a provisioned table's bill). */
  provisionedMonthly: Figure;
  /** What a reviewer must know beside the numbers: unserved, a design problem, a fetch from the table. */
  notes: string[];
}

const PLACEHOLDER = /[:#][A-Za-z0-9_]+/g;
const BARE_LITERAL = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false)$/;

/**
 * An expression with its `#name` and `:value` placeholders written in: names as the attribute,
 * values as the key template they hold, in quotes. With `bareLiterals` (a filter, which compares
 * numbers and booleans as such) a number or boolean stays bare.
 */
export function expressionText(
  expression: string,
  values: Readonly<Record<string, string>>,
  names: Readonly<Record<string, string>> = {},
  bareLiterals = false,
): string {
  return expression.replace(PLACEHOLDER, (token) => {
    if (token.startsWith('#')) return Object.hasOwn(names, token) ? names[token]! : token;
    if (!Object.hasOwn(values, token)) return token;
    const value = values[token]!;
    return bareLiterals && BARE_LITERAL.test(value) ? value : `"${value}"`;
  });
}

const targetLabel = (t: Target): string => (t.kind === 'table' ? 'table' : `${t.kind.toUpperCase()} ${t.name}`);

function planNotes(cost: PatternCost): string[] {
  const plan = cost.plan;
  const notes: string[] = [];
  if (plan.designProblem) notes.push(`Design problem: ${plan.designProblem}`);
  if (!plan.isServed) {
    const s = plan.suggestion;
    const keys = s ? [s.partitionKeyTemplate, s.sortKeyTemplate].filter((t) => t !== undefined).join(' / ') : '';
    notes.push(
      s
        ? `Not served by a key: a Scan. Suggested: ${s.reuses ? 'reuse' : 'add'} ${s.kind.toUpperCase()}${s.indexName ? ` ${s.indexName}` : ''}${keys ? ` keyed ${keys}` : ''}.`
        : 'Not served by a key: a Scan.',
    );
  }
  if (plan.fetch) {
    const f = plan.fetch;
    notes.push(
      f.kind === 'gsi'
        ? `${f.index} does not project ${f.missing.join(', ')}: + ${f.operation ?? 'BatchGetItem'} from the table`
        : `${f.index} does not project ${f.missing.join(', ')}: + a fetch of the base item per item read`,
    );
  }
  return notes;
}

function plannedRow(cost: PatternCost): PlannedRow {
  const plan = cost.plan;
  const row: PlannedRow = {
    kind: cost.kind,
    operation: plan.operation,
    badge: plan.badge,
    isServed: plan.isServed,
    target: targetLabel(plan.target),
    alsoWrites: plan.indexWrites.filter((w) => w.target.kind !== 'table' && w.effect !== 'none' && w.fraction > 0).map((w) => `${w.target.kind === 'table' ? 'table' : w.target.name} (${w.effect === 'enterOrLeave' ? 'enter or leave' : w.effect})`),
    perRequest: cost.perRequest,
    perSecond: cost.perSecond,
    unit: cost.kind === 'read' ? 'RCU' : 'WCU',
    onDemandMonthly: cost.monthly.onDemand,
    provisionedMonthly: cost.monthly.provisioned,
    notes: planNotes(cost),
  };
  if (plan.keyCondition !== undefined) row.keyCondition = expressionText(plan.keyCondition, plan.values);
  if (plan.filter !== undefined) row.filter = expressionText(plan.filter, plan.values, plan.names ?? {}, true);
  return row;
}

/** The access-pattern chart of a table: a row per pattern, planned and costed from `cost` where it can be. */
export function patternRows(table: Table, cost: TableCost | undefined): PatternRow[] {
  const costs = new Map(cost?.patterns.map((p) => [p.patternId, p]));
  return table.accessPatterns.map((p, i) => {
    // A pattern may be written before its entity exists, or before the entity has key templates:
    // it is not costed yet (the costs say why), and its row says so instead of figures.
    const entity = p.entityId === undefined ? undefined : table.entities.find((e) => e.id === p.entityId);
    const planned = costs.get(p.id);
    const row: PatternRow = {
      number: i + 1,
      patternId: p.id,
      name: p.name,
      entityName: entity?.name,
      action: p.action,
      // The peak (busiest minute): the rate the units per second are sized from.
      ratePerSecond: busiestRatePerSecond(p),
      consistency: p.consistency,
    };
    if (planned && entity && planned.needsKeyDesign === undefined) row.plan = plannedRow(planned);
    else if (planned || !entity) row.needsKeyDesign = planned?.needsKeyDesign ?? `The pattern names no entity of table ${table.name}: pick or create the entity it reads or writes.`;
    return row;
  });
}
