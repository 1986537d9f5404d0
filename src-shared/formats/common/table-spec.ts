/**
 * What every table-definition exporter (CloudFormation, Terraform, CDK, CLI input) needs from a
 * table, worked out once: the attribute definitions (exactly the key attributes of the table and its
 * indexes, cfn-lint E3039), key schemas (a GSI's as ordered lists: a multi-attribute key), billing
 * with each GSI's throughput, warm throughput, on-demand maximums, and stable names for the
 * generated resources. Internal to `formats`.
 */
import { partitionKeysOf, sortKeysOf, keySlotsOf } from '../../model/index.ts';
import type {
  AutoScaling,
  Billing,
  ContributorInsights,
  Encryption,
  KeyAttribute,
  OnDemandThroughput,
  PointInTimeRecovery,
  Projection,
  StreamViewType,
  Table,
  TableClass,
  WarmThroughput,
} from '../../model/index.ts';

export interface Throughput {
  /** Provisioned RCU: the initial RCU when reads auto scale. */
  read: number;
  /** Provisioned WCU: the initial WCU when writes auto scale. */
  write: number;
  /** Auto scaling per direction, when the design sets it (only directions that scale, at least one). */
  autoScaling?: AutoScaling;
}

/** Throughput from a design's capacity, with its auto scaling if a direction scales. */
function throughputOf(units: { readCapacityUnits: number; writeCapacityUnits: number; autoScaling?: AutoScaling }): Throughput {
  const t: Throughput = { read: units.readCapacityUnits, write: units.writeCapacityUnits };
  const a = units.autoScaling;
  if (a && (a.read || a.write)) t.autoScaling = { ...(a.read ? { read: a.read } : {}), ...(a.write ? { write: a.write } : {}) };
  return t;
}

export interface GsiSpec {
  name: string;
  /** The partition key's attributes in key order: one, or 2–4 for a multi-attribute key. */
  partitionKeys: string[];
  /** The sort key's attributes in key order: none, one, or 2–4 for a multi-attribute key. */
  sortKeys: string[];
  /** Whether either part has more than one attribute. */
  isMultiAttribute: boolean;
  projection: Projection;
  /** Set when the table is provisioned: the GSI's own capacity, or the table's fixed capacity when it has none. */
  throughput?: Throughput;
  /** The GSI's on-demand maximums, when the table is on-demand and the design sets at least one. */
  onDemandThroughput?: OnDemandThroughput;
  /** The GSI's warm throughput, when the design sets at least one direction. */
  warmThroughput?: WarmThroughput;
}

export interface LsiSpec {
  name: string;
  partitionKey: string;
  sortKey: string;
  projection: Projection;
}

export interface TableSpec {
  name: string;
  /** A resource name for the table, unique in the design: `ShopTable` (letters and digits only). */
  logicalId: string;
  /** Each key attribute once, in first-use order: the table's keys, then each GSI's, then each LSI's. */
  attributeDefinitions: KeyAttribute[];
  partitionKey: string;
  sortKey?: string;
  billing: Billing;
  /** The table's provisioned capacity, when provisioned. */
  throughput?: Throughput;
  gsis: GsiSpec[];
  lsis: LsiSpec[];
  tableClass: TableClass;
  ttlAttribute?: string;
  stream?: StreamViewType;
  pointInTimeRecovery?: PointInTimeRecovery;
  encryption?: Encryption;
  deletionProtection?: boolean;
  /** Tags sorted by key, so the output does not depend on the order the design lists them in. */
  tags: Array<[key: string, value: string]>;
  /** The table's on-demand maximums, when it is on-demand and the design sets at least one. */
  onDemandThroughput?: OnDemandThroughput;
  /** The table's warm throughput, when the design sets at least one direction. */
  warmThroughput?: WarmThroughput;
  contributorInsights?: ContributorInsights;
}

/** `orders-by-date` → `OrdersByDate`: words of letters and digits, each capitalized. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** A name made unique against `taken` (which it is added to) by a numeric suffix: `ShopTable2`. */
export function uniqueName(base: string, taken: Set<string>, separator = ''): string {
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}${separator}${n}`;
  taken.add(name);
  return name;
}

/** CloudFormation logical ids: alphanumeric, at most 255 characters. https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/resources-section-structure.html */
const MAX_LOGICAL_ID_LENGTH = 255;

/** The specs of every table of a design, with logical ids unique across them. */
export function tableSpecsOf(tables: readonly Table[]): TableSpec[] {
  const taken = new Set<string>();
  return tables.map((table) => {
    const base = `${pascalCase(table.name) || 'Keyplan'}Table`.slice(0, MAX_LOGICAL_ID_LENGTH - 4);
    return tableSpecOf(table, uniqueName(base, taken));
  });
}

/** The directions of a warm throughput the design sets; undefined when it sets neither. */
function warmThroughputOf(w: WarmThroughput | undefined): WarmThroughput | undefined {
  if (!w) return undefined;
  const out: WarmThroughput = {};
  if (w.readUnitsPerSecond !== undefined) out.readUnitsPerSecond = w.readUnitsPerSecond;
  if (w.writeUnitsPerSecond !== undefined) out.writeUnitsPerSecond = w.writeUnitsPerSecond;
  return out.readUnitsPerSecond === undefined && out.writeUnitsPerSecond === undefined ? undefined : out;
}

/**
 * The on-demand maximums the design sets, on an on-demand table only (a provisioned table has none:
 * its capacity is its maximum); undefined when it sets neither.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html
 */
function onDemandThroughputOf(o: OnDemandThroughput | undefined, isOnDemand: boolean): OnDemandThroughput | undefined {
  if (!o || !isOnDemand) return undefined;
  const out: OnDemandThroughput = {};
  if (o.maxReadRequestUnits !== undefined) out.maxReadRequestUnits = o.maxReadRequestUnits;
  if (o.maxWriteRequestUnits !== undefined) out.maxWriteRequestUnits = o.maxWriteRequestUnits;
  return out.maxReadRequestUnits === undefined && out.maxWriteRequestUnits === undefined ? undefined : out;
}

function tableSpecOf(table: Table, logicalId: string): TableSpec {
  const throughput = table.billing.mode === 'PROVISIONED' ? throughputOf(table.billing) : undefined;
  const isOnDemand = table.billing.mode === 'ON_DEMAND';
  const spec: TableSpec = {
    name: table.name,
    logicalId,
    attributeDefinitions: keySlotsOf(table).map((slot) => slot.attribute),
    partitionKey: table.partitionKey.name,
    billing: table.billing,
    gsis: table.globalSecondaryIndexes.map((g) => {
      const partitionKeys = partitionKeysOf(g).map((a) => a.name);
      const sortKeys = sortKeysOf(g).map((a) => a.name);
      const gsi: GsiSpec = { name: g.name, partitionKeys, sortKeys, isMultiAttribute: partitionKeys.length > 1 || sortKeys.length > 1, projection: g.projection };
      // A provisioned table needs throughput on every GSI (cfn-lint E3639); the design's rules ask for
      // it, and an index still without one gets the table's fixed capacity (not its auto scaling).
      if (throughput) gsi.throughput = g.provisioned ? throughputOf(g.provisioned) : { read: throughput.read, write: throughput.write };
      const onDemand = onDemandThroughputOf(g.onDemandThroughput, isOnDemand);
      if (onDemand) gsi.onDemandThroughput = onDemand;
      const warm = warmThroughputOf(g.warmThroughput);
      if (warm) gsi.warmThroughput = warm;
      return gsi;
    }),
    lsis: table.localSecondaryIndexes.map((l) => ({ name: l.name, partitionKey: table.partitionKey.name, sortKey: l.sortKey.name, projection: l.projection })),
    tableClass: table.tableClass,
    tags: Object.entries(table.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
  if (table.sortKey) spec.sortKey = table.sortKey.name;
  if (throughput) spec.throughput = throughput;
  if (table.ttlAttribute !== undefined && table.ttlAttribute.trim() !== '') spec.ttlAttribute = table.ttlAttribute;
  if (table.stream) spec.stream = table.stream;
  if (table.pointInTimeRecovery) spec.pointInTimeRecovery = table.pointInTimeRecovery;
  if (table.encryption) spec.encryption = table.encryption;
  if (table.deletionProtection !== undefined) spec.deletionProtection = table.deletionProtection;
  const onDemand = onDemandThroughputOf(table.onDemandThroughput, isOnDemand);
  if (onDemand) spec.onDemandThroughput = onDemand;
  const warm = warmThroughputOf(table.warmThroughput);
  if (warm) spec.warmThroughput = warm;
  if (table.contributorInsights) spec.contributorInsights = table.contributorInsights;
  return spec;
}

/** A key schema's elements in order: every partition-key attribute (HASH), then every sort-key attribute (RANGE). */
export function keySchemaElements(partitionKeys: readonly string[], sortKeys: readonly string[]): Array<{ name: string; keyType: 'HASH' | 'RANGE' }> {
  return [...partitionKeys.map((name) => ({ name, keyType: 'HASH' as const })), ...sortKeys.map((name) => ({ name, keyType: 'RANGE' as const }))];
}

/** The non-key attributes an INCLUDE projection copies; none for KEYS_ONLY and ALL. */
export const nonKeyAttributesOf = (projection: Projection): string[] | undefined => (projection.type === 'INCLUDE' ? projection.nonKeyAttributes : undefined);

/**
 * Text with every lone UTF-16 surrogate replaced by U+FFFD, so that it can be written as UTF-8 in
 * any of the output formats (a lone surrogate has no UTF-8 form).
 */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
