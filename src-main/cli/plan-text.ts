/** How `check` and `cost` name a plan's target and an index suggestion in plain text. */
import type { IndexSuggestion, Plan, Target } from '../../src-shared/planner/index.ts';

/** The index name, or null for the table itself (as DynamoDB's `IndexName` is absent then). */
export function indexOf(target: Target): string | null {
  return target.kind === 'table' ? null : target.name;
}

/** `table`, `GSI GSI1`, `LSI LSI1`. */
export function targetText(target: Target): string {
  return target.kind === 'table' ? 'table' : `${target.kind.toUpperCase()} ${target.name}`;
}

/**
 * `add GSI "GSI3": partition key GSI3PK = STATUS#{status}, sort key GSI3SK = {createdAt}, projection ALL`,
 * or `reuse GSI "GSI2": …` when the index exists and only the entity's templates (and maybe its
 * projection) change.
 */
export function suggestionText(s: IndexSuggestion): string {
  return `${s.reuses ? 'reuse' : 'add'} ${indexSuggestionText(s)}`;
}

function indexSuggestionText(s: IndexSuggestion): string {
  const keys: string[] = [];
  if (s.natural) {
    // Keyed on the entity's own attributes: no templates to write.
    keys.push(`partition key ${s.natural.partitionKeys.map((k) => `${k.name} (${k.type})`).join(' + ')}`);
    if (s.natural.sortKeys.length > 0) keys.push(`sort key ${s.natural.sortKeys.map((k) => `${k.name} (${k.type})`).join(' + ')}`);
  } else {
    if (s.kind === 'gsi') keys.push(`partition key ${s.partitionKey?.name ?? '?'} = ${s.partitionKeyTemplate ?? '?'}`);
    if (s.sortKeyTemplate !== undefined) keys.push(`sort key ${s.sortKey?.name ?? '?'} = ${s.sortKeyTemplate}`);
  }
  if (s.projection) keys.push(`projection ${s.projection.type}`);
  return `${s.kind.toUpperCase()}${s.indexName ? ` "${s.indexName}"` : ''}${keys.length > 0 ? `: ${keys.join(', ')}` : ''}`;
}

/** The suggestion as JSON: what to add, in the model's terms. */
export function suggestionJson(s: IndexSuggestion | undefined): Record<string, unknown> | null {
  if (!s) return null;
  return {
    kind: s.kind,
    indexName: s.indexName ?? null,
    reusesIndex: s.reuses === true,
    partitionKey: s.natural ? s.natural.partitionKeys : s.partitionKey ? { ...s.partitionKey, template: s.partitionKeyTemplate ?? null } : null,
    sortKey: s.natural ? (s.natural.sortKeys.length > 0 ? s.natural.sortKeys : null) : s.sortKey ? { ...s.sortKey, template: s.sortKeyTemplate ?? null } : null,
    projection: s.projection ?? null,
    reason: s.reason,
  };
}

/** `GetItem on table`, `Query on GSI GSI1`. */
export function operationText(plan: Plan): string {
  return `${plan.operation} on ${targetText(plan.target)}`;
}
