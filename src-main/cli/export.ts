/**
 * `keyplan export <design> --to <format> [--out FILE]`: the design as a table definition
 * (CloudFormation YAML or JSON, Terraform, CDK), the AWS CLI's create-table input, a NoSQL Workbench
 * model, or sample items as BatchWriteItem requests in DynamoDB JSON. The formats are
 * `src-shared/formats`; this file reads the design, picks the format and writes the result.
 */
import type { Design } from '../../src-shared/model/schema.ts';
import { validateDesign } from '../../src-shared/model/validate.ts';
import {
  DEFAULT_EXPORT_ITEMS_PER_ENTITY,
  DEFAULT_ITEMS_PER_TABLE,
  toCdk,
  toCliInputs,
  toCloudFormation,
  toCloudFormationJson,
  toDynamoDbJsonFiles,
  toNoSqlWorkbench,
  toTerraform,
} from '../../src-shared/formats/index.ts';
import type { Command } from './command.ts';
import { problemLine, readDesign } from './input.ts';
import { errorLine, EXIT, writeLines, type CliIo } from './io.ts';
import { isFolder, makeFolder, pathsFor, shownPath, writeAll } from './output.ts';

/** Largest `--items`. */
const MAX_ITEMS_OPTION = 100_000;
/** Largest `--seed`: a 32-bit seed. */
const MAX_SEED = 4_294_967_295;

interface ExportedFile {
  name: string;
  /** What tells this file from its siblings in `<out>-<suffix>.json`. */
  suffix: string;
  content: string;
}

interface Format {
  name: string;
  summary: string;
  /** One file, or several (each table's input, each batch of items). */
  export(design: Design, options: { items?: number; seed?: number; nowMs: number }): string | ExportedFile[];
}

const FORMATS: readonly Format[] = [
  { name: 'cloudformation', summary: 'CloudFormation template, YAML (one AWS::DynamoDB::Table per table)', export: (d) => toCloudFormation(d) },
  { name: 'cloudformation-json', summary: 'the same template in JSON', export: (d) => toCloudFormationJson(d) },
  { name: 'terraform', summary: 'Terraform aws_dynamodb_table resources (HCL)', export: (d) => toTerraform(d) },
  { name: 'cdk', summary: 'AWS CDK v2 stack in TypeScript (dynamodb.TableV2)', export: (d) => toCdk(d) },
  {
    name: 'cli-input',
    summary: 'aws dynamodb create-table --cli-input-json input, one file per table',
    export: (d) => toCliInputs(d).map((f) => ({ name: f.fileName, suffix: f.tableName, content: f.content })),
  },
  {
    name: 'nosql-workbench',
    summary: `NoSQL Workbench model 3.0 (a facet per entity, up to --items sample items each, default ${DEFAULT_EXPORT_ITEMS_PER_ENTITY})`,
    export: (d, { items, nowMs }) => toNoSqlWorkbench(d, { dateMs: nowMs, ...(items !== undefined ? { maxItemsPerEntity: items } : {}) }),
  },
  {
    name: 'dynamodb-json',
    summary: `seeded sample items as BatchWriteItem requests of 25 (up to --items per table, default ${DEFAULT_ITEMS_PER_TABLE})`,
    export: (d, { items, seed }) =>
      toDynamoDbJsonFiles(d, { ...(items !== undefined ? { maxItemsPerTable: items } : {}), ...(seed !== undefined ? { seed } : {}) }).map((f) => ({
        name: f.fileName,
        suffix: f.fileName.replace(/^items-|\.json$/g, ''),
        content: f.content,
      })),
  },
];

const formatList = FORMATS.map((f) => f.name).join(', ');
const width = Math.max(...FORMATS.map((f) => f.name.length));

/** A whole number from 0 to `max`; undefined when absent; 'bad' otherwise. */
function parseCount(value: string | undefined, max: number): number | undefined | 'bad' {
  if (value === undefined) return undefined;
  const n = Number(value);
  return /^\d+$/.test(value) && n <= max ? n : 'bad';
}

/** Where the export goes and what it says it wrote. */
async function writeExport(result: string | ExportedFile[], out: string | undefined, io: CliIo): Promise<number> {
  if (out === undefined) {
    // Several documents on stdout: one JSON document per line (JSON Lines).
    const text = typeof result === 'string' ? result : result.map((f) => `${JSON.stringify(JSON.parse(f.content))}\n`).join('');
    io.stdout.write(text);
    return EXIT.ok;
  }
  const shown = (path: string): string => shownPath(io.cwd, path);
  const files = typeof result === 'string' ? [{ name: out, suffix: '', content: result }] : result;
  const toFolder = typeof result !== 'string' && (await isFolder(out, io.cwd));
  const paths = typeof result === 'string' ? pathsFor(out, io.cwd, false, [out], ['']) : pathsFor(out, io.cwd, toFolder, files.map((f) => f.name), files.map((f) => f.suffix));
  if (toFolder) {
    const made = await makeFolder(pathsFor(out, io.cwd, false, [out], [''])[0]!, out);
    if (!made.ok) {
      writeLines(io.stderr, made.errors.map(errorLine));
      return EXIT.problems;
    }
  }
  const written = await writeAll(
    files.map((f, i) => ({ path: paths[i]!, content: f.content })),
    shown,
  );
  if (!written.ok) {
    writeLines(io.stderr, written.errors.map(errorLine));
    return EXIT.problems;
  }
  const names = paths.map(shown);
  writeLines(io.stdout, [names.length === 0 ? 'Nothing to write: the design has no items.' : names.length === 1 ? `Wrote ${names[0]}` : `Wrote ${names.length} files: ${names[0]} … ${names.at(-1)}`]);
  return EXIT.ok;
}

export const exportCommand: Command = {
  name: 'export',
  synopsis: 'keyplan export <design> --to <format> [--out FILE]',
  summary: 'the design as CloudFormation, Terraform, CDK, CLI input, NoSQL Workbench or DynamoDB JSON',
  fileName: '<design>',
  flags: [],
  options: ['--to', '--out', '--items', '--seed'],
  help: `Usage: keyplan export <design> --to <format> [--out FILE] [--items N] [--seed S]

Writes the design in another format. The design must pass "keyplan check" (no problems; unserved
access patterns do not stop an export).

Formats (--to):
${FORMATS.map((f) => `  ${f.name.padEnd(width)}  ${f.summary}`).join('\n')}

Options:
  --to FORMAT  the format (required)
  --out FILE   write to FILE instead of stdout. cli-input and dynamodb-json make several files:
               with --out DIR/ (a trailing slash, or an existing folder) each goes into DIR under its
               own name (Shop.create-table.json, items-001.json …); otherwise FILE is a stem:
               items.json → items-001.json, items-002.json … (tables.json → tables-Shop.json …),
               and a single file is written to FILE itself. Files are written to temporary files
               first and renamed into place, so a failed export writes nothing.
  --items N    dynamodb-json: items per table, at most (the entities' counts scaled down together);
               nosql-workbench: sample items per facet, at most (0–${MAX_ITEMS_OPTION})
  --seed S     dynamodb-json: seed of the sample data (default 1), the app's data screen's items
  -h, --help   print this help

On stdout, cli-input and dynamodb-json print one JSON document per line (JSON Lines).
Items in dynamodb-json go in with: aws dynamodb batch-write-item --cli-input-json file://items-001.json
(a table with: aws dynamodb create-table --cli-input-json file://Shop.create-table.json).

Exit codes: 0 written; 1 the design cannot be read, has problems, or a file cannot be written;
2 usage error (no --to, an unknown format, a bad --items or --seed).

Examples:
  keyplan export examples/ecommerce.keyplan.json --to cloudformation --out template.yaml
  keyplan export examples/ecommerce.keyplan.json --to dynamodb-json --out items/`,

  async run({ file, options }, io) {
    const to = options.get('--to');
    const format = FORMATS.find((f) => f.name === to);
    if (to === undefined || !format) {
      const message = to === undefined ? '"keyplan export" needs --to <format>' : `unknown format "${to}" for --to`;
      writeLines(io.stderr, [errorLine(`${message}; expected one of: ${formatList} (see "keyplan export --help").`)]);
      return EXIT.usage;
    }
    const items = parseCount(options.get('--items'), MAX_ITEMS_OPTION);
    const seed = parseCount(options.get('--seed'), MAX_SEED);
    for (const [name, value, max] of [['--items', items, MAX_ITEMS_OPTION], ['--seed', seed, MAX_SEED]] as const) {
      if (value !== 'bad') continue;
      writeLines(io.stderr, [errorLine(`${name} is "${options.get(name)}"; expected a whole number from 0 to ${max}.`)]);
      return EXIT.usage;
    }
    const input = await readDesign(file, io.cwd);
    if (input.kind === 'unreadable') {
      writeLines(io.stderr, [errorLine(input.message)]);
      return EXIT.problems;
    }
    const problems = input.kind === 'design' ? validateDesign(input.design) : input.problems;
    if (input.kind !== 'design' || problems.length > 0) {
      const first = problems[0] ? `; the first: ${problemLine(problems[0])}` : '';
      const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
      writeLines(io.stderr, [errorLine(`cannot export "${file}": it has ${count} (see "keyplan check ${file}")${first}`)]);
      return EXIT.problems;
    }
    const exported = format.export(input.design, { nowMs: Date.now(), ...(items !== undefined && items !== 'bad' ? { items } : {}), ...(seed !== undefined && seed !== 'bad' ? { seed } : {}) });
    return writeExport(exported, options.get('--out'), io);
  },
};
