/**
 * What every table-definition exporter (CloudFormation, Terraform, CDK, CLI input) needs from a
 * table, worked out once: the attribute definitions (exactly the key attributes of the table and its
 * indexes, cfn-lint E3039), key schemas, billing with each GSI's throughput, and stable names for the
 * generated resources. Internal to `formats`.
 */
import { keySlotsOf } from '../model/key-slots.ts';
import type { AutoScaling, Billing, Encryption, KeyAttribute, PointInTimeRecovery, Projection, StreamViewType, Table, TableClass } from '../model/schema.ts';

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
  partitionKey: string;
  sortKey?: string;
  projection: Projection;
  /** Set when the table is provisioned: the GSI's own capacity, or the table's fixed capacity when it has none. */
  throughput?: Throughput;
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

function tableSpecOf(table: Table, logicalId: string): TableSpec {
  const throughput = table.billing.mode === 'PROVISIONED' ? throughputOf(table.billing) : undefined;
  const spec: TableSpec = {
    name: table.name,
    logicalId,
    attributeDefinitions: keySlotsOf(table).map((slot) => slot.attribute),
    partitionKey: table.partitionKey.name,
    billing: table.billing,
    gsis: table.globalSecondaryIndexes.map((g) => {
      const gsi: GsiSpec = { name: g.name, partitionKey: g.partitionKey.name, projection: g.projection };
      if (g.sortKey) gsi.sortKey = g.sortKey.name;
      // A provisioned table needs throughput on every GSI (cfn-lint E3639); the design's rules ask for
      // it, and an index still without one gets the table's fixed capacity (not its auto scaling).
      if (throughput) gsi.throughput = g.provisioned ? throughputOf(g.provisioned) : { read: throughput.read, write: throughput.write };
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
  return spec;
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
