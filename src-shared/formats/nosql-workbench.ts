/**
 * NoSQL Workbench for DynamoDB data models (the JSON its data modeler imports and exports), both
 * directions: `fromNoSqlWorkbench` reads model versions 1.0, 2.0 and 3.0; `toNoSqlWorkbench` writes
 * version 3.0.
 *
 * Reading. A model is `{ ModelName, ModelMetadata, DataModel: [table …] }`; each table has TableName,
 * KeyAttributes, NonKeyAttributes (name and type), GlobalSecondaryIndexes (key attributes and
 * projection), BillingMode with ProvisionedCapacitySettings, sample items (TableData, in DynamoDB
 * JSON, on the table or on each facet) and facets (TableFacets: FacetName, KeyAttributeAlias,
 * NonKeyAttributes, TableData). Blocks Keyplan has no use for (DataAccess, ModelSchema, auto scaling
 * settings, dates) are ignored. LocalSecondaryIndexes, which Workbench does not write, are read when present.
 *
 * Entities:
 * - One per facet, named by FacetName. Its items are the facet's TableData, plus table-level items
 *   assigned to it (by a type attribute whose value is the facet's name, else by the facet whose
 *   attributes fit the item best). Its attributes are the facet's NonKeyAttributes.
 * - Without facets, from the table's items, grouped by a type attribute when every item has one
 *   (`type`, `entityType`, `entity_type`, `_type`, `__type`, `__typename`, `_et`, `__edb_e__`, in any
 *   case), else by the literal prefix of the partition key (`USER#…` → entity `USER`; items without a
 *   prefix make one entity named after the table). Its attributes are those its items hold. A table
 *   with neither facets nor items gets no entity.
 * - Item count: the number of sample items (0 when none: Workbench's sample data says nothing about
 *   volume, so set real counts after importing).
 * - Attribute types: the type the entity's items hold (when they agree), else the table's
 *   NonKeyAttributes type, else S.
 *
 * Key templates are inferred from the items' key values, split at `#`. A part that is the same word
 * (letters and `_`) in every item is literal text (`PROFILE`, the `USER` of `USER#…`); a part that
 * equals an attribute's value in every item becomes that attribute's placeholder (`{State}#{Date}`);
 * any other part becomes a placeholder of a new attribute, named after the facet's key alias, else the
 * word before it (`USER#…` → `{userId}`), else the key attribute's own name (the attribute holds itself:
 * `{AccountID}`). A table key no item holds becomes `{<key>}`. An entity is in a GSI when some item of
 * it holds all of the index's keys (with no items: when its facet lists them).
 *
 * Billing: BillingMode PROVISIONED with ProvisionedCapacitySettings.ProvisionedThroughput, else
 * on-demand (also when BillingMode is absent, as in version 1.0 and 2.0 models). A provisioned
 * table's GSIs get the table's throughput unless they carry their own ProvisionedThroughput.
 *
 * Ids derive from names (`tbl-<table>`, `gsi-<table>-<index>`, `ent-<table>-<entity>`), so the same
 * model always gives the same design. Every problem carries the path in the model
 * (`DataModel[0].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey`) and what was found and expected.
 *
 * Writing: one facet per entity (its key aliases name the key templates' placeholder), the table's
 * NonKeyAttributes, GSIs, billing, and a few sample items per facet rendered from the key templates
 * with deterministic sample values (as many as the entity's item count, up to `maxItemsPerEntity`).
 * Not written, because a Workbench model has no place for them: LSIs, TTL, streams, table class,
 * point-in-time recovery, encryption, tags, GSI throughput other than the table's, access patterns.
 * Reading back what was written gives the same design for any design `fromNoSqlWorkbench` produced.
 */
export { DEFAULT_EXPORT_ITEMS_PER_ENTITY, noSqlWorkbenchNotes, toNoSqlWorkbench, WORKBENCH_EXPORT_VERSION, workbenchDate, type NoSqlWorkbenchOptions } from './nosql-workbench/export.ts';
export { DEFAULT_DESIGN_NAME, fromNoSqlWorkbench } from './nosql-workbench/import.ts';
export { WORKBENCH_VERSIONS, type WorkbenchErrorCode } from './nosql-workbench/model-shape.ts';
