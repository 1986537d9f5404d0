/**
 * What a DynamoDB table's definition means, the same whether a CloudFormation resource writes it
 * (its properties follow the CreateTable API) or DescribeTable returns it: the key attribute types,
 * projection types and billing modes, -1 as "no on-demand maximum", and the design table they make.
 * Shared by the CloudFormation importer (`../cloudformation/`) and the describe-table importer
 * (`../describe-table/`); each reads its own source's shape (intrinsic functions, output-only
 * fields) and words its own notes and problems.
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html
 */
import type { KeyAttributeType, Table } from '../../model/index.ts';
import { uniqueName } from './table-spec.ts';

/** `AttributeType` of a key attribute. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_AttributeDefinition.html */
export const KEY_ATTRIBUTE_TYPES = ['S', 'N', 'B'] as const;
export const isKeyAttributeType = (v: unknown): v is KeyAttributeType => (KEY_ATTRIBUTE_TYPES as readonly unknown[]).includes(v);

/** `ProjectionType` of an index. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Projection.html */
export const PROJECTION_TYPES = ['ALL', 'KEYS_ONLY', 'INCLUDE'] as const;

/** `BillingMode`. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BillingModeSummary.html */
export const BILLING_MODES = ['PROVISIONED', 'PAY_PER_REQUEST'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
export const isBillingMode = (v: unknown): v is BillingMode => (BILLING_MODES as readonly unknown[]).includes(v);

/**
 * An on-demand maximum as the design keeps it: -1 is "no maximum", which the design says by leaving
 * the maximum out. https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html
 */
export const NO_MAXIMUM = -1;
export const onDemandMaximum = (units: number | undefined): number | undefined => (units === NO_MAXIMUM ? undefined : units);

/** The id of a GSI or LSI: `gsi-<table>-<index>`, unique among `ids` (the slugs are each importer's). */
export const indexId = (kind: 'gsi' | 'lsi', tableSlug: string, indexSlug: string, ids: Set<string>): string => uniqueName(`${kind}-${tableSlug}-${indexSlug}`, ids);

/** A table's parts as an importer read them: optional settings it did not find are undefined. */
export type TableParts = Omit<Table, 'id' | 'entities' | 'accessPatterns'>;

/** A table's properties in the order the design schema lists them, which is the order a design file is written in. */
const TABLE_KEYS = [
  'id',
  'name',
  'partitionKey',
  'sortKey',
  'billing',
  'tableClass',
  'ttlAttribute',
  'stream',
  'globalSecondaryIndexes',
  'localSecondaryIndexes',
  'entities',
  'accessPatterns',
  'pointInTimeRecovery',
  'encryption',
  'deletionProtection',
  'tags',
  'contributorInsights',
  'onDemandThroughput',
  'warmThroughput',
] as const satisfies ReadonlyArray<keyof Table>;

/**
 * The design table of `parts`, with an id (`tbl-<slug>`, unique among `ids`), no entities and no
 * access patterns (the importer adds what its source holds), and only the settings that were read.
 */
export function newTable(parts: TableParts, tableSlug: string, ids: Set<string>): Table {
  const all: Record<string, unknown> = { ...parts, id: uniqueName(`tbl-${tableSlug}`, ids), entities: [], accessPatterns: [] };
  const table: Record<string, unknown> = {};
  for (const key of TABLE_KEYS) {
    if (all[key] !== undefined) table[key] = all[key];
  }
  return table as Table;
}
