/**
 * File formats a design goes to and comes from: table definitions (CloudFormation, Terraform, CDK,
 * the AWS CLI's CreateTable input), items as BatchWriteItem requests in DynamoDB JSON, and NoSQL
 * Workbench data models, and the design sheet (Markdown, HTML). One module per format, and one
 * registry of the export formats (`registry.ts`) for the export dialog and `keyplan export`; import
 * from here. Only the hosts and the UI import this folder.
 */
export { toCloudFormation, toCloudFormationJson, cloudFormationTemplate } from './cloudformation/export.ts';
export { TERRAFORM_AWS_PROVIDER_VERSION, toTerraform } from './terraform/export.ts';
export { toCdk, cdkStackName } from './cdk/export.ts';
export { cliInputNotes, toCliInput, toCliInputs, type CliInputFile } from './cli-input/export.ts';
export {
  DEFAULT_ITEMS_PER_TABLE,
  MAX_BATCH_WRITE_REQUESTS,
  base64Encode,
  encodeItem,
  encodeValue,
  itemTypesOf,
  parseBatchWriteRequest,
  toBatchWriteFiles,
  toDynamoDbJson,
  toDynamoDbJsonFiles,
  type BatchWriteFile,
  type BatchWriteItems,
  type BatchWriteOptions,
  type DynamoDbJsonErrorCode,
  type DynamoDbJsonOptions,
  type TableItems,
} from './dynamodb-json/export.ts';
export {
  DEFAULT_DESIGN_NAME,
  DEFAULT_EXPORT_ITEMS_PER_ENTITY,
  WORKBENCH_EXPORT_VERSION,
  WORKBENCH_VERSIONS,
  fromNoSqlWorkbench,
  noSqlWorkbenchNotes,
  toNoSqlWorkbench,
  workbenchDate,
  type NoSqlWorkbenchOptions,
  type WorkbenchErrorCode,
} from './nosql-workbench.ts';
export { ONETABLE_EXPORT_FORMAT, ONETABLE_EXPORT_QUERY_LIMIT, ONETABLE_EXPORT_VERSION, oneTableNotes, toOneTable } from './onetable/export.ts';
export {
  ONETABLE_DEFAULT_DESIGN_NAME,
  ONETABLE_DEFAULT_ITEM_COUNT,
  ONETABLE_DEFAULT_RATE_PER_SECOND,
  ONETABLE_DEFAULT_TABLE_NAME,
  ONETABLE_DEFAULT_TYPE_FIELD,
  ONETABLE_OPTIONAL_PRESENCE,
} from './onetable/defaults.ts';
export { fromOneTable } from './onetable/import.ts';
export type { OneTableErrorCode } from './onetable/import-log.ts';
export { sampleItemsOf } from './nosql-workbench/sample-items.ts';
export { decodeImportText } from './import-text.ts';
export {
  MAX_KEY_COLUMNS_PER_CHART,
  NEEDS_KEY_DESIGN,
  designSheet,
  expressionText,
  keyCellText,
  keyColumnRole,
  onDemandMaximumText,
  patternSummary,
  projectionText,
  servedByText,
  sheetPerRequest,
  sheetUnitsPerSecond,
  warmThroughputText,
  type DesignSheet,
  type EntityChartPart,
  type IndexGroup,
  type IndexSetting,
  type KeyCell,
  type KeyColumn,
  type PatternRow,
  type PlannedRow,
  type Setting,
  type SheetCosts,
  type SheetTotals,
  type TableSheet,
} from './design-sheet/sheet.ts';
export { toDesignSheetMarkdown } from './design-sheet/markdown.ts';
export { toDesignSheetHtml } from './design-sheet/html.ts';
export {
  EXPORT_FORMATS,
  exportBaseName,
  exportFileName,
  exportNotes,
  findExportFormat,
  type ExportFormat,
  type ExportNotes,
  type ExportFormatId,
  type ExportOptions,
  type ExportedFile,
} from './registry.ts';
