/**
 * File formats a design goes to and comes from: table definitions (CloudFormation, Terraform, CDK,
 * the AWS CLI's CreateTable input), items as BatchWriteItem requests in DynamoDB JSON, NoSQL
 * Workbench data models, OneTable schemas, describe-table output, and the design sheet (Markdown,
 * HTML). This module is the folder's public API: the hosts and the UI import from here, and only they
 * import this folder.
 *
 * More on its rules: docs/modules.md, "src-shared/formats/index.ts".
 */
export { toCloudFormation, toCloudFormationJson, cloudFormationTemplate } from './cloudformation/export.ts';
export { fromCloudFormation, type CloudFormationErrorCode } from './cloudformation/import.ts';
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
  toBatchWriteFiles,
  toDynamoDbJson,
  toDynamoDbJsonFiles,
  type BatchWriteFile,
  type BatchWriteOptions,
  type DynamoDbJsonOptions,
  type TableItems,
} from './dynamodb-json/export.ts';
export { parseBatchWriteRequest, type BatchWriteItems, type DynamoDbJsonErrorCode } from './dynamodb-json/import.ts';
export {
  DEFAULT_EXPORT_ITEMS_PER_ENTITY,
  WORKBENCH_EXPORT_VERSION,
  noSqlWorkbenchNotes,
  toNoSqlWorkbench,
  workbenchDate,
  type NoSqlWorkbenchOptions,
} from './nosql-workbench/export.ts';
export { DEFAULT_DESIGN_NAME, fromNoSqlWorkbench } from './nosql-workbench/import.ts';
export { WORKBENCH_VERSIONS, type WorkbenchErrorCode } from './nosql-workbench/model-shape.ts';
export { sampleItemsOf } from './nosql-workbench/sample-items.ts';
export { ONETABLE_EXPORT_FORMAT, ONETABLE_EXPORT_QUERY_LIMIT, ONETABLE_EXPORT_VERSION, oneTableNotes, toOneTable } from './onetable/export.ts';
export {
  ONETABLE_DEFAULT_DESIGN_NAME,
  ONETABLE_DEFAULT_ITEM_COUNT,
  ONETABLE_DEFAULT_RATE_PER_SECOND,
  ONETABLE_DEFAULT_TABLE_NAME,
  ONETABLE_DEFAULT_TYPE_FIELD,
  ONETABLE_OPTIONAL_PRESENCE,
} from './onetable/defaults.ts';
export { fromOneTable, type OneTableErrorCode } from './onetable/import.ts';
export { fromDescribeTable, type DescribeTableErrorCode } from './describe-table/import.ts';
export { designSheet, type DesignSheet, type SheetCosts, type SheetTotals, type TableSheet } from './design-sheet/sheet.ts';
export { MAX_KEY_COLUMNS_PER_CHART, type EntityChartPart, type IndexGroup, type KeyCell, type KeyColumn } from './design-sheet/entity-chart.ts';
export { expressionText, type PatternRow, type PlannedRow } from './design-sheet/pattern-chart.ts';
export { projectionText, type IndexSetting, type Setting } from './design-sheet/settings.ts';
export {
  NEEDS_KEY_DESIGN,
  SHEET_METHOD,
  SHEET_SOURCES,
  keyCellText,
  keyColumnRole,
  patternSummary,
  pricingText,
  servedByText,
  sheetPerRequest,
  sheetUnitsPerSecond,
} from './design-sheet/text.ts';
export { toDesignSheetMarkdown } from './design-sheet/markdown.ts';
export { toDesignSheetHtml } from './design-sheet/html.ts';
export { onDemandMaximumText, warmThroughputText } from './common/throughput-text.ts';
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
export { READABLE_FORMATS, detectImportFormat, detectJsonFormat, importText, unknownFormatProblem, type ImportFormat } from './import.ts';
export {
  IMPORT_SOURCES,
  IMPORT_SOURCE_LABELS,
  type ImportErrorCode,
  type ImportNote,
  type ImportNoteKind,
  type ImportResult,
  type ImportSource,
  type Imported,
} from './common/import-types.ts';
export { decodeImportText } from './import-text.ts';
export { MAX_IMPORT_BYTES, MAX_IMPORT_DEPTH, describeBytes, tooLargeProblem, type ImportBoundsErrorCode } from './common/bounds.ts';
export { MAX_TEMPLATE_BYTES } from './cloudformation/template-text.ts';
