/**
 * The export formats: the one list the export dialog's tabs and `keyplan export --to` both read, so
 * that they offer the same formats under the same ids, labels and file names.
 *
 * A format produces one file (CloudFormation, Terraform, the design sheet …) or several (the AWS CLI
 * input: one per table; DynamoDB JSON items: one per batch of 25 requests). Each file has its own
 * name (`Shop.create-table.json`, `items-001.json`); `exportFileName` puts the design's base name in
 * front of it, or gives a single file its name (`my-shop.cloudformation.yaml`).
 */
import type { Design } from '../model/index.ts';
import { toCdk } from './cdk/export.ts';
import { cliInputNotes, toCliInputs } from './cli-input/export.ts';
import { toCloudFormation, toCloudFormationJson } from './cloudformation/export.ts';
import { toDesignSheetHtml } from './design-sheet/html.ts';
import { toDesignSheetMarkdown } from './design-sheet/markdown.ts';
import { DEFAULT_ITEMS_PER_TABLE, toDynamoDbJsonFiles } from './dynamodb-json/export.ts';
import { DEFAULT_EXPORT_ITEMS_PER_ENTITY, noSqlWorkbenchNotes, toNoSqlWorkbench } from './nosql-workbench/export.ts';
import { oneTableNotes, toOneTable } from './onetable/export.ts';
import { toTerraform } from './terraform/export.ts';

export type ExportFormatId =
  | 'cloudformation'
  | 'cloudformation-json'
  | 'terraform'
  | 'cdk'
  | 'cli-input'
  | 'nosql-workbench'
  | 'onetable'
  | 'dynamodb-json'
  | 'markdown'
  | 'html';

/** Options a format may read; each says which (`keyplan export --items`, `--seed`). */
export interface ExportOptions {
  /** dynamodb-json: items per table, at most; nosql-workbench: sample items per facet, at most. */
  items?: number;
  /** dynamodb-json: the seed of the sample data. */
  seed?: number;
  /** nosql-workbench: the date the model says it was made (none when absent). */
  nowMs?: number;
}

/** One file a format produces. */
export interface ExportedFile {
  /** The file's own name: the single file's extension part (`cloudformation.yaml`), or `Shop.create-table.json`. */
  name: string;
  /** What tells this file from its siblings when the CLI writes them next to a stem (`tables-Shop.json`). */
  suffix: string;
  /** What the file holds, when a format makes several: `Shop`, `Shop, 25 items`. */
  label?: string;
  content: string;
}

/** What an export leaves out of its file, so that nothing is dropped silently: a heading and one line per setting. */
export interface ExportNotes {
  /** One sentence on why these are not in the file. */
  heading: string;
  /** One per setting left out: the table (and index), the setting and its value. */
  lines: string[];
}

export interface ExportFormat {
  /** What `keyplan export --to` takes. */
  id: ExportFormatId;
  /** Other ids `--to` accepts for it (older or longer names). */
  aliases: readonly string[];
  /** The export dialog's tab. */
  label: string;
  /** One line for `keyplan export --help`. */
  summary: string;
  /** One sentence under the dialog's tabs on what the file is for. */
  hint: string;
  /** How the dialog's preview highlights it (a Monaco language id). */
  language: string;
  /** Whether it makes several files (one per table or per batch) rather than one. */
  isMultiFile: boolean;
  /** The options of `ExportOptions` it reads. */
  options: readonly ('items' | 'seed')[];
  produce(design: Design, options?: ExportOptions): ExportedFile[];
  /**
   * For a format that cannot hold every setting of a design: the heading of its notes and the
   * settings of `design` its file leaves out, one line each (shown by the export dialog, printed by
   * `keyplan export` on stderr). Absent for a format that writes every setting.
   */
  notes?: { heading: string; of(design: Design): string[] };
  /** The default name of a file, when not `<base>.<file's own name>`. */
  fileName?: (base: string, file: ExportedFile) => string;
}

/** One file named `name` (the part after the design's base name). */
const single = (name: string, content: string): ExportedFile[] => [{ name, suffix: '', content }];

export const EXPORT_FORMATS: readonly ExportFormat[] = [
  {
    id: 'cloudformation',
    aliases: ['cloudformation-yaml'],
    label: 'CloudFormation YAML',
    summary: 'CloudFormation template, YAML (one AWS::DynamoDB::Table per table)',
    hint: 'One AWS::DynamoDB::Table resource per table; deploy with aws cloudformation deploy.',
    language: 'yaml',
    isMultiFile: false,
    options: [],
    produce: (d) => single('cloudformation.yaml', toCloudFormation(d)),
  },
  {
    id: 'cloudformation-json',
    aliases: [],
    label: 'CloudFormation JSON',
    summary: 'the same template in JSON',
    hint: 'The same template as JSON.',
    language: 'json',
    isMultiFile: false,
    options: [],
    produce: (d) => single('cloudformation.json', toCloudFormationJson(d)),
  },
  {
    id: 'terraform',
    aliases: [],
    label: 'Terraform',
    summary: 'Terraform aws_dynamodb_table resources (HCL)',
    hint: 'One aws_dynamodb_table resource per table.',
    language: 'hcl',
    isMultiFile: false,
    options: [],
    produce: (d) => single('tf', toTerraform(d)),
  },
  {
    id: 'cdk',
    aliases: [],
    label: 'CDK TypeScript',
    summary: 'AWS CDK v2 stack in TypeScript (dynamodb.TableV2)',
    hint: 'An AWS CDK v2 stack with one TableV2 per table.',
    language: 'typescript',
    isMultiFile: false,
    options: [],
    produce: (d) => single('stack.ts', toCdk(d)),
    // As CDK projects name a stack's file: my-shop-stack.ts.
    fileName: (base, file) => `${base}-${file.name}`,
  },
  {
    id: 'cli-input',
    aliases: [],
    label: 'AWS CLI input',
    summary: 'aws dynamodb create-table --cli-input-json input, one file per table',
    hint: 'aws dynamodb create-table --cli-input-json file://<file>, one file per table.',
    language: 'json',
    isMultiFile: true,
    options: [],
    produce: (d) => toCliInputs(d).map((f) => ({ name: f.fileName, suffix: f.tableName, label: f.tableName, content: f.content })),
    notes: {
      heading: 'Not in the create-table input, which has no parameter for them: set each with its call once the table is ACTIVE.',
      of: cliInputNotes,
    },
  },
  {
    id: 'nosql-workbench',
    aliases: [],
    label: 'NoSQL Workbench',
    summary: `NoSQL Workbench model 3.0 (a facet per entity, up to --items sample items each, default ${DEFAULT_EXPORT_ITEMS_PER_ENTITY})`,
    hint: 'A data model (version 3.0) with sample items, to open in NoSQL Workbench for DynamoDB.',
    language: 'json',
    isMultiFile: false,
    options: ['items'],
    produce: (d, o = {}) =>
      single(
        'nosql-workbench.json',
        toNoSqlWorkbench(d, { ...(o.nowMs !== undefined ? { dateMs: o.nowMs } : {}), ...(o.items !== undefined ? { maxItemsPerEntity: o.items } : {}) }),
      ),
    notes: {
      heading: 'Not in the NoSQL Workbench model, which has no place for them:',
      of: noSqlWorkbenchNotes,
    },
  },
  {
    id: 'onetable',
    aliases: [],
    label: 'OneTable schema',
    summary: 'OneTable schema (onetable:1.1.0) of the first table: indexes, a model per entity with value templates, saved queries for read patterns',
    hint: 'A schema for the DynamoDB OneTable library (new Table({ schema })) or the SenseDeep app: indexes, models with value templates, saved queries.',
    language: 'json',
    isMultiFile: false,
    options: [],
    produce: (d) => single('onetable.json', toOneTable(d)),
    notes: {
      heading: 'Not in the OneTable schema, which has no place for them:',
      of: oneTableNotes,
    },
  },
  {
    id: 'dynamodb-json',
    aliases: [],
    label: 'DynamoDB JSON items',
    summary: `seeded sample items as BatchWriteItem requests of 25 (up to --items per table, default ${DEFAULT_ITEMS_PER_TABLE})`,
    hint: 'Sample items as BatchWriteItem requests of 25: aws dynamodb batch-write-item --cli-input-json file://<file>, once the table exists.',
    language: 'json',
    isMultiFile: true,
    options: ['items', 'seed'],
    produce: (d, o = {}) =>
      toDynamoDbJsonFiles(d, { ...(o.items !== undefined ? { maxItemsPerTable: o.items } : {}), ...(o.seed !== undefined ? { seed: o.seed } : {}) }).map((f) => ({
        name: f.fileName,
        suffix: f.fileName.replace(/^items-|\.json$/g, ''),
        label: `${f.tableName}, ${f.itemCount} ${f.itemCount === 1 ? 'item' : 'items'}`,
        content: f.content,
      })),
  },
  {
    id: 'markdown',
    aliases: ['md'],
    label: 'Design sheet (Markdown)',
    summary: 'the design sheet in Markdown: entity chart, access-pattern chart with costs, table and index settings',
    hint: 'The entity chart, the access-pattern chart with units and dollars per month, and the table settings, for a pull request or a wiki.',
    language: 'markdown',
    isMultiFile: false,
    options: [],
    produce: (d) => single('design-sheet.md', toDesignSheetMarkdown(d)),
  },
  {
    id: 'html',
    aliases: [],
    label: 'Design sheet (HTML)',
    summary: 'the same design sheet as one standalone HTML page (inline CSS, no scripts; prints well)',
    hint: 'The same design sheet as one self-contained page: open it in any browser, attach it to a review or print it.',
    language: 'html',
    isMultiFile: false,
    options: [],
    produce: (d) => single('design-sheet.html', toDesignSheetHtml(d)),
  },
];

/**
 * What `format`'s file leaves out of `design`, or undefined when it leaves nothing out (or the format
 * writes every setting). A half-made design (the dialog renders one as it is edited) that trips the
 * check gives undefined: the export itself then says what is wrong.
 */
export function exportNotes(format: ExportFormat, design: Design): ExportNotes | undefined {
  if (!format.notes) return undefined;
  let lines: string[];
  try {
    lines = format.notes.of(design);
  } catch {
    return undefined;
  }
  return lines.length > 0 ? { heading: format.notes.heading, lines } : undefined;
}

/** The format `--to` names, by its id or an alias; undefined for an unknown name. */
export function findExportFormat(idOrAlias: string): ExportFormat | undefined {
  return EXPORT_FORMATS.find((f) => f.id === idOrAlias || f.aliases.includes(idOrAlias));
}

/** `My shop design` → `my-shop-design`: the start of every exported file's name. */
export function exportBaseName(designName: string): string {
  const base = designName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return base || 'design';
}

/**
 * The name a file of a format is saved under by default: the design's base name, then the file's
 * own name (`my-shop.cloudformation.yaml`, `my-shop.Shop.create-table.json`), unless the format
 * names its files its own way (CDK: `my-shop-stack.ts`).
 */
export function exportFileName(format: ExportFormat, base: string, file: ExportedFile): string {
  return format.fileName ? format.fileName(base, file) : `${base}.${file.name}`;
}
