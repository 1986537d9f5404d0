/**
 * The one entity a describe-table import gives its table: every item, keyed by the plain key
 * attributes, its item count from ItemCount and its average item size from TableSizeBytes ÷
 * ItemCount; and the notes on the settings DescribeTable does not return. See `import.ts`.
 */
import { DEFAULT_VALUE_BYTES } from '../../capacity/index.ts';
import { formatNumber } from '../../numbers/index.ts';
import { PLACEHOLDER_NAME, utf8ByteLength, keySlotsOf, describeValue, joinPath, quote } from '../../model/index.ts';
import type { Attribute, Entity, KeyAttribute, KeyBinding, Table } from '../../model/index.ts';
import { slug } from '../common/ids.ts';
import { uniqueName } from '../common/table-spec.ts';
import { setOwn } from '../common/values.ts';
import { has, type Collector, type Json } from './collector.ts';

/** The name of the one entity an imported table gets: every item of the table. */
export const ENTITY_NAME = 'Item';
/** The S attribute of that entity that stands for all the non-key attributes, sized to the rest of the average item. */
export const OTHER_ATTRIBUTES_NAME = 'otherAttributes';

const bytes = (n: number): string => `${formatNumber(n)} B`;

/** A whole number ≥ 0 read from ItemCount or TableSizeBytes, or undefined (with a warning) when it is something else. */
function readCount(t: Json, field: string, base: string, c: Collector): number | undefined {
  if (!has(t, field)) return undefined;
  const v = t[field];
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  c.note('warning', joinPath(base, field), `${joinPath(base, field)} is ${describeValue(v)}, not a whole number ≥ 0; it was skipped.`);
  return undefined;
}

interface EntityKey {
  /** The key attribute. */
  key: KeyAttribute;
  /** The entity attribute that carries its value: the key's own name, or a placeholder-safe name. */
  attributeName: string;
}

/**
 * Value sizes that make the entity's item come to `averageBytes`, as `estimateItemBytes` counts it:
 * Σ over the key attributes of (name bytes + value bytes), plus, for a key whose name a template
 * cannot hold, its carrying attribute (name bytes + the same value bytes), plus the stand-in's name
 * and value bytes. Keys take DEFAULT_VALUE_BYTES and the stand-in the rest; when the rest is not
 * positive there is no stand-in and the key values shrink or grow to fit, at least 1 byte each.
 */
function sizeEntity(keys: readonly EntityKey[], averageBytes: number, standInName: string): { values: number[]; standIn?: number; isTooSmall: boolean } {
  const defaults = keys.map((k) => DEFAULT_VALUE_BYTES[k.key.type]);
  const weights = keys.map((k) => (k.attributeName === k.key.name ? 1 : 2));
  const nameBytes = keys.reduce((sum, k) => sum + utf8ByteLength(k.key.name) + (k.attributeName === k.key.name ? 0 : utf8ByteLength(k.attributeName)), 0);
  const keyBytes = nameBytes + defaults.reduce((sum, d, i) => sum + d * (weights[i] ?? 1), 0);
  const rest = averageBytes - keyBytes - utf8ByteLength(standInName);
  if (rest > 0) return { values: defaults, standIn: rest, isTooSmall: false };
  const available = averageBytes - nameBytes;
  const minimum = weights.reduce((sum, w) => sum + w, 0);
  if (available < minimum) return { values: keys.map(() => 1), isTooSmall: true };
  // Each value is 1 + (default − 1) × g, with g chosen so the weighted values add up to `available`.
  const spread = defaults.reduce((sum, d, i) => sum + (d - 1) * (weights[i] ?? 1), 0);
  const g = (available - minimum) / spread;
  return { values: defaults.map((d) => 1 + (d - 1) * g), isTooSmall: false };
}

/** The one entity: every item of the table, keyed by the plain key attributes, with the counts DescribeTable gives. */
export function buildEntity(table: Table, t: Json, base: string, ttlAttribute: string | undefined, ids: Set<string>, c: Collector): Entity {
  const slots = keySlotsOf(table);
  const taken = new Set<string>(slots.map((s) => s.attribute.name));
  if (ttlAttribute !== undefined) taken.add(ttlAttribute);
  const keys: EntityKey[] = slots.map((s) => {
    const name = s.attribute.name;
    if (PLACEHOLDER_NAME.test(name)) return { key: s.attribute, attributeName: name };
    const safe = uniqueName(name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^(?![A-Za-z_])/, '_'), taken, '_');
    c.note('inferred', base, `Key attribute ${quote(name)} has characters a key template cannot name; entity ${quote(ENTITY_NAME)} carries its value in attribute ${quote(safe)}, with the template {${safe}}.`);
    return { key: s.attribute, attributeName: safe };
  });
  const standInName = uniqueName(OTHER_ATTRIBUTES_NAME, taken);

  const itemCount = readCount(t, 'ItemCount', base, c);
  const sizeBytes = readCount(t, 'TableSizeBytes', base, c);
  const countPath = joinPath(base, 'ItemCount');
  const sizePath = joinPath(base, 'TableSizeBytes');
  const templates = keys.map((k) => `{${k.attributeName}}`).join(', ');
  const approximate = 'approximate: DynamoDB updates it about every six hours';

  const attributes: Attribute[] = keys.map((k) => ({ name: k.attributeName, type: k.key.type }));
  let standIn: Attribute | undefined;
  if (itemCount === undefined) {
    c.note('inferred', base, `Entity ${quote(ENTITY_NAME)} stands for every item of the table, keyed by the plain key attributes (${templates}); the description has no ItemCount, so its item count is 0 and it has no average item size.`);
  } else {
    c.note(
      'inferred',
      countPath,
      `Entity ${quote(ENTITY_NAME)} stands for every item of the table, keyed by the plain key attributes (${templates}): DescribeTable holds no entities. Its item count, ${formatNumber(itemCount)}, is ItemCount (${approximate}).`,
    );
    if (itemCount === 0) {
      c.note('inferred', countPath, `ItemCount is 0 (a new table reads 0 until DynamoDB next counts it), so there is no average item size; the key attributes keep Keyplan's default sizes.`);
    } else if (sizeBytes === undefined) {
      c.note('inferred', sizePath, `The description has no usable TableSizeBytes, so there is no average item size; the key attributes keep Keyplan's default sizes.`);
    } else {
      const average = sizeBytes / itemCount;
      const sized = sizeEntity(keys, average, standInName);
      sized.values.forEach((v, i) => {
        const a = attributes[i];
        if (a) a.averageSizeBytes = v;
      });
      const figure = `${bytes(average)}, is TableSizeBytes ÷ ItemCount (${bytes(sizeBytes)} ÷ ${formatNumber(itemCount)}), both approximate: DynamoDB updates them about every six hours`;
      if (sized.standIn !== undefined) {
        standIn = { name: standInName, type: 'S', averageSizeBytes: sized.standIn };
        c.note(
          'inferred',
          sizePath,
          `The average item size, ${figure}. The key attributes take Keyplan's default value sizes (S ${DEFAULT_VALUE_BYTES.S} B, N ${DEFAULT_VALUE_BYTES.N} B, B ${DEFAULT_VALUE_BYTES.B} B) and attribute ${quote(standInName)} (S) stands for the other attributes, with the remaining ${bytes(sized.standIn)}.`,
        );
      } else if (sized.isTooSmall) {
        c.note('warning', sizePath, `The average item size, ${figure}, is less than the key attributes' names and 1 byte per value take; each key value was set to 1 byte, so the entity's item is larger than the figure.`);
      } else {
        c.note('inferred', sizePath, `The average item size, ${figure}. It leaves no room for other attributes, so the key attributes' value sizes were scaled to make up the whole item.`);
      }
    }
  }
  if (standIn) attributes.push(standIn);

  const entityKeys: Record<string, KeyBinding> = {};
  for (const k of keys) setOwn(entityKeys, k.key.name, { template: `{${k.attributeName}}` });
  return { id: uniqueName(`ent-${slug(table.name)}-${slug(ENTITY_NAME)}`, ids), name: ENTITY_NAME, itemCount: itemCount ?? 0, attributes, keys: entityKeys };
}

/** `dropped` notes for the settings DescribeTable does not return and no companion gave, each with the command that returns it. */
export function noteMissingSettings(table: Table, arn: string | undefined, hasTtl: boolean, hasBackups: boolean, c: Collector): void {
  const name = table.name;
  const resource = arn ?? `<the table's ARN>`;
  const missing: Array<[what: string, command: string, isCompanion: boolean]> = [];
  if (!hasTtl) missing.push(['time to live (TTL) setting', `aws dynamodb describe-time-to-live --table-name ${name}`, true]);
  if (!hasBackups) missing.push(['point-in-time recovery setting', `aws dynamodb describe-continuous-backups --table-name ${name}`, true]);
  missing.push(['tags', `aws dynamodb list-tags-of-resource --resource-arn ${resource}`, false]);
  missing.push(['Contributor Insights setting', `aws dynamodb describe-contributor-insights --table-name ${name}`, false]);
  missing.push(['resource policy', `aws dynamodb get-resource-policy --resource-arn ${resource}`, false]);
  // Auto scaling is Application Auto Scaling's, and only a provisioned table has it.
  if (table.billing.mode === 'PROVISIONED') {
    missing.push(['auto scaling settings', `aws application-autoscaling describe-scalable-targets --service-namespace dynamodb --resource-ids table/${name}`, false]);
  }
  for (const [what, command, isCompanion] of missing) {
    const companion = isCompanion ? ' (give its output as a companion to import it)' : '';
    c.note('dropped', '', `DescribeTable does not return the table's ${what}; \`${command}\` does${companion}. The design has none.`);
  }
}
