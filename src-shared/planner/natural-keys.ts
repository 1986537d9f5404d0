/**
 * Where a GSI's synthetic key (`GSI1PK = TOURNAMENT#{tournamentId}#REGION#{region}`) only puts the
 * entity's own attributes side by side, a multi-attribute key on those attributes serves the same
 * Queries (docs/dynamodb-rules.md §11) and saves: no key attribute to write and keep in sync, smaller
 * items, no backfill when the index is added to a live table. Never offered where the synthetic key
 * carries more than its attributes: a constant (a template with no attribute, or literal text that
 * labels none), an "only when" condition, shards, or an index other entities share (their templates
 * tell them apart; DynamoDB has no index predicate, so a multi-attribute index holds exactly the items
 * that carry all its attributes).
 */
import {
  storedKeyPart,
  isMultiAttributeKey,
  partitionKeysOf,
  sortKeysOf,
  estimateRenderedBytes,
  parseKeyTemplate,
  templateAttributes,
  utf8ByteLength,
  type KeyTemplate,
} from '../model/index.ts';
import type { Entity, KeyAttribute, Table } from '../model/index.ts';
import { formatBytesIn, formatNumber } from '../numbers/index.ts';

/** Literal text that only separates or labels attributes, between or before placeholders. */
const SEPARATOR = /^[#|:_.\-/ ]+$/;

/** A GSI that could be keyed on the entity's own attributes, and what that saves. */
export interface NaturalKeyAlternative {
  gsiId: string;
  gsiName: string;
  entityId: string;
  entityName: string;
  partitionKeys: KeyAttribute[];
  sortKeys: KeyAttribute[];
  /** The synthetic key attributes the entity would no longer write. */
  removes: string[];
  /** Bytes each item no longer carries (the synthetic attributes' names and rendered values), an estimate. */
  bytesPerItem: number;
  /** `bytesPerItem` × the entity's item count. */
  bytesTotal: number;
  /** Other entities carrying every attribute of the new key: they would be in the index too. */
  joiners: string[];
  /** One paragraph: what changes and what it saves. */
  reason: string;
}

/** Rendered sizes where the value model states none, by type (bytes of text). */
const DEFAULT_RENDERED: Readonly<Record<string, number>> = { S: 16, N: 8, B: 16 };

/**
 * The attributes a template is built from, when it carries nothing else: every literal either labels
 * the placeholder after it (`TOURNAMENT#`) or separates; at least one placeholder; at most 4.
 */
function onlyAttributes(t: KeyTemplate): string[] | undefined {
  const names = templateAttributes(t);
  if (names.length === 0 || names.length > 4 || new Set(names).size !== names.length) return undefined;
  for (let i = 0; i < t.parts.length; i += 1) {
    const part = t.parts[i];
    if (part?.kind !== 'literal') continue;
    const labelsNext = t.parts[i + 1]?.kind === 'attribute';
    if (!labelsNext && !SEPARATOR.test(part.text)) return undefined;
  }
  return names;
}

/** Multi-attribute alternatives for the table's synthetic GSI keys, one per GSI that has one. */
export function naturalKeyAlternatives(table: Table): NaturalKeyAlternative[] {
  const out: NaturalKeyAlternative[] = [];
  for (const gsi of table.globalSecondaryIndexes ?? []) {
    if (isMultiAttributeKey(gsi)) continue;
    const [pk] = partitionKeysOf(gsi);
    const [sk] = sortKeysOf(gsi);
    if (!pk) continue;
    const keyNames = [pk.name, ...(sk ? [sk.name] : [])];
    const users = (table.entities ?? []).filter((e) => keyNames.some((k) => Object.hasOwn(e.keys ?? {}, k)));
    // An index several entities share is overloaded: its templates tell them apart.
    if (users.length !== 1) continue;
    const entity = users[0] as Entity;
    const alternative = alternativeFor(table, gsi.id, gsi.name, entity, pk, sk);
    if (alternative) out.push(alternative);
  }
  return out;
}

function alternativeFor(table: Table, gsiId: string, gsiName: string, entity: Entity, pk: KeyAttribute, sk: KeyAttribute | undefined): NaturalKeyAlternative | undefined {
  const typeOf = (name: string) => entity.attributes.find((a) => a.name === name)?.type;
  const partOf = (key: KeyAttribute): { names: string[]; template: KeyTemplate } | undefined => {
    const binding = Object.hasOwn(entity.keys, key.name) ? entity.keys[key.name] : undefined;
    if (!binding || (binding.when !== undefined && binding.when.trim() !== '') || binding.shards) return undefined;
    // Already natural: the entity writes the attribute itself.
    if (binding.template === `{${key.name}}`) return undefined;
    const parsed = parseKeyTemplate(binding.template);
    if (!parsed.ok) return undefined;
    const names = onlyAttributes(parsed.value);
    if (!names || names.some((n) => !['S', 'N', 'B'].includes(typeOf(n) ?? ''))) return undefined;
    return { names, template: parsed.value };
  };
  const pkPart = partOf(pk);
  if (!pkPart) return undefined;
  const skPart = sk ? partOf(sk) : undefined;
  if (sk && !skPart) return undefined;
  const all = [...pkPart.names, ...(skPart?.names ?? [])];
  if (new Set(all).size !== all.length) return undefined;
  const toKey = (n: string): KeyAttribute => ({ name: n, type: typeOf(n) as KeyAttribute['type'] });
  const partitionKeys = pkPart.names.map(toKey);
  const sortKeys = (skPart?.names ?? []).map(toKey);

  const rendered: Record<string, number> = {};
  for (const a of entity.attributes) rendered[a.name] = a.averageSizeBytes ?? DEFAULT_RENDERED[a.type] ?? 16;
  const removes = [pk.name, ...(sk ? [sk.name] : [])];
  const bytesPerItem =
    utf8ByteLength(pk.name) +
    estimateRenderedBytes(pkPart.template, rendered, 16) +
    (sk && skPart ? utf8ByteLength(sk.name) + estimateRenderedBytes(skPart.template, rendered, 16) : 0);
  const items = Number.isFinite(entity.itemCount) && entity.itemCount > 0 ? entity.itemCount : 0;
  const joiners = (table.entities ?? []).filter((e) => e.id !== entity.id && all.every((n) => e.attributes.some((a) => a.name === n))).map((e) => e.name);
  const parts = `partition key ${partitionKeys.map((k) => k.name).join(' + ')}${sortKeys.length > 0 ? `, sort key ${sortKeys.map((k) => k.name).join(' + ')}` : ''}`;
  const reason =
    `GSI ${gsiName}'s ${removes.join(' and ')} only put ${entity.name}'s own ${all.join(', ')} side by side: a multi-attribute key (${parts}) serves the same Queries` +
    `${sortKeys.some((k) => k.type === 'N') ? ', numbers sorting as numbers without padding,' : ''} and saves: no key attribute to write and keep in sync, ` +
    `about ${Math.round(bytesPerItem)} B per item (${formatBytesIn(bytesPerItem * items, 'MB', 0)} over ${formatNumber(items, 3)} items, an estimate), and no backfill when the index is added to a live table.` +
    (joiners.length > 0 ? ` ${joiners.join(', ')} items also carry ${all.join(', ')}: they would be in the index too.` : '') +
    ' Changing a deployed GSI\u2019s key means deleting it and creating it again.';
  return { gsiId, gsiName, entityId: entity.id, entityName: entity.name, partitionKeys, sortKeys, removes, bytesPerItem, bytesTotal: bytesPerItem * items, joiners, reason };
}

/** The table with the alternative applied: the GSI keyed on the attributes, the entity's synthetic templates gone. */
export function applyNaturalKey(table: Table, alternative: NaturalKeyAlternative): Table {
  const partitionKey = storedKeyPart(alternative.partitionKeys);
  if (!partitionKey) return table;
  return {
    ...table,
    globalSecondaryIndexes: table.globalSecondaryIndexes.map((g) => {
      if (g.id !== alternative.gsiId) return g;
      const { sortKey: _old, ...rest } = g;
      const sortKey = storedKeyPart(alternative.sortKeys);
      return sortKey ? { ...rest, partitionKey, sortKey } : { ...rest, partitionKey };
    }),
    entities: table.entities.map((e) => {
      if (e.id !== alternative.entityId) return e;
      const keys = { ...e.keys };
      for (const name of alternative.removes) delete keys[name];
      return { ...e, keys };
    }),
  };
}
