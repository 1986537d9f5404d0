/**
 * The design sheet's settings of a table and of each index: keys (a multi-attribute GSI key as
 * `tournamentId (S) + region (S)`), billing and capacity, on-demand maximums, warm throughput, table
 * class, TTL, streams, point-in-time recovery, encryption, deletion protection, Contributor Insights,
 * tags, projections.
 */
import { configuredCapacityText } from '../../costing/index.ts';
import { partitionKeysOf, sortKeysOf } from '../../model/index.ts';
import type { KeyAttribute, OnDemandThroughput, Projection, Table, WarmThroughput } from '../../model/index.ts';
import { onDemandMaximumText, warmThroughputText } from '../common/throughput-text.ts';

/** One setting of a table: `Billing` → `On-demand`. */
export interface Setting {
  label: string;
  value: string;
}

/** A GSI or LSI with its keys, projection and capacity. */
export interface IndexSetting {
  kind: 'gsi' | 'lsi';
  name: string;
  /** `GSI1PK (S)`, or `tournamentId (S) + region (S)` for a multi-attribute key; an LSI's is the table's. */
  partitionKey: string;
  /** `GSI1SK (S)`, `round (N) + bracket (S)`, or undefined when the index has none. */
  sortKey: string | undefined;
  projection: string;
  capacity: string;
}

const keyText = (k: KeyAttribute): string => `${k.name} (${k.type})`;

/** A key part's attributes in key order: `tournamentId (S) + region (S)`. */
const keyPartText = (attributes: readonly KeyAttribute[]): string => attributes.map(keyText).join(' + ');

/** Whether a throughput setting holds any direction. */
const hasWarm = (w: WarmThroughput | undefined): w is WarmThroughput => w !== undefined && (w.readUnitsPerSecond !== undefined || w.writeUnitsPerSecond !== undefined);
const hasMaximum = (o: OnDemandThroughput | undefined): o is OnDemandThroughput => o !== undefined && (o.maxReadRequestUnits !== undefined || o.maxWriteRequestUnits !== undefined);

const TABLE_CLASS_LABELS: Record<Table['tableClass'], string> = { STANDARD: 'Standard', STANDARD_INFREQUENT_ACCESS: 'Standard-IA (Standard-Infrequent Access)' };

/** `ALL`, `KEYS_ONLY`, `INCLUDE customerId, placedAt`. */
export function projectionText(p: Projection): string {
  return p.type === 'INCLUDE' ? `INCLUDE ${p.nonKeyAttributes.join(', ') || '(no attributes)'}` : p.type;
}

/** The table's settings, in the order the sheet lists them; optional ones only when the design sets them. */
export function tableSettings(table: Table): Setting[] {
  const billing = table.billing;
  const settings: Setting[] = [
    { label: 'Partition key', value: keyText(table.partitionKey) },
    { label: 'Sort key', value: table.sortKey ? keyText(table.sortKey) : 'none' },
    { label: 'Billing', value: billing.mode === 'ON_DEMAND' ? 'On-demand (pay per request)' : 'Provisioned' },
  ];
  if (billing.mode === 'PROVISIONED') {
    settings.push({
      label: billing.autoScaling?.read || billing.autoScaling?.write ? 'Capacity (auto scaling)' : 'Capacity',
      value: configuredCapacityText({ readCapacityUnits: billing.readCapacityUnits, writeCapacityUnits: billing.writeCapacityUnits, ...(billing.autoScaling ? { autoScaling: billing.autoScaling } : {}) }),
    });
  } else if (hasMaximum(table.onDemandThroughput)) {
    settings.push({ label: 'On-demand maximum', value: onDemandMaximumText(table.onDemandThroughput) });
  }
  if (hasWarm(table.warmThroughput)) settings.push({ label: 'Warm throughput', value: warmThroughputText(table.warmThroughput) });
  settings.push(
    { label: 'Table class', value: TABLE_CLASS_LABELS[table.tableClass] ?? table.tableClass },
    { label: 'Time to live', value: table.ttlAttribute ? `on, attribute ${table.ttlAttribute}` : 'off' },
    { label: 'Streams', value: table.stream ? `on, ${table.stream}` : 'off' },
  );
  if (table.pointInTimeRecovery) {
    const pitr = table.pointInTimeRecovery;
    settings.push({ label: 'Point-in-time recovery', value: pitr.enabled ? `on, ${pitr.recoveryPeriodInDays ?? 35} days` : 'off' });
  }
  if (table.encryption) {
    const e = table.encryption;
    settings.push({ label: 'Encryption at rest', value: e.type === 'AWS_OWNED' ? 'AWS owned key' : e.kmsKeyId ? `AWS KMS key ${e.kmsKeyId}` : 'AWS managed KMS key (aws/dynamodb)' });
  }
  if (table.deletionProtection !== undefined) settings.push({ label: 'Deletion protection', value: table.deletionProtection ? 'on' : 'off' });
  if (table.contributorInsights) {
    const c = table.contributorInsights;
    settings.push({ label: 'Contributor Insights', value: c.enabled ? `on, ${c.mode ?? 'ACCESSED_AND_THROTTLED_KEYS'}` : 'off' });
  }
  const tags = Object.entries(table.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (tags.length > 0) settings.push({ label: 'Tags', value: tags.map(([k, v]) => `${k}=${v}`).join(', ') });
  return settings;
}

/** Each GSI, then each LSI, with its keys, projection and capacity. */
export function indexSettings(table: Table): IndexSetting[] {
  const isProvisioned = table.billing.mode === 'PROVISIONED';
  return [
    ...table.globalSecondaryIndexes.map((g): IndexSetting => {
      const sortKeys = sortKeysOf(g);
      const capacity = [
        !isProvisioned ? `on-demand${hasMaximum(g.onDemandThroughput) ? `, ${onDemandMaximumText(g.onDemandThroughput)}` : ''}` : g.provisioned ? configuredCapacityText(g.provisioned) : "the table's capacity (none of its own)",
        ...(hasWarm(g.warmThroughput) ? [`warm throughput ${warmThroughputText(g.warmThroughput)}`] : []),
      ];
      return {
        kind: 'gsi',
        name: g.name,
        partitionKey: keyPartText(partitionKeysOf(g)),
        sortKey: sortKeys.length > 0 ? keyPartText(sortKeys) : undefined,
        projection: projectionText(g.projection),
        capacity: capacity.join('; '),
      };
    }),
    ...table.localSecondaryIndexes.map((l): IndexSetting => ({
      kind: 'lsi',
      name: l.name,
      partitionKey: `${keyText(table.partitionKey)}, the table's`,
      sortKey: keyText(l.sortKey),
      projection: projectionText(l.projection),
      capacity: "the table's",
    })),
  ];
}
