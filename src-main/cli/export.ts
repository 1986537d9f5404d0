/**
 * `keyplan export <design> --to <format> [--out FILE]`: the design as a table definition
 * (CloudFormation YAML or JSON, Terraform, CDK), the AWS CLI's create-table input, a NoSQL Workbench
 * model, sample items as BatchWriteItem requests in DynamoDB JSON, or its design sheet (Markdown,
 * HTML). The formats are the export dialog's, from one registry (`src-shared/formats/registry.ts`);
 * this file reads the design, picks the format and writes the result. What a format cannot hold of
 * the design (a NoSQL Workbench model has no warm throughput …) goes to stderr, one line per setting,
 * as the export dialog's note shows it: never dropped silently.
 */
import { validateDesign } from '../../src-shared/model/index.ts';
import {
  EXPORT_FORMATS,
  exportNotes,
  findExportFormat,
  type ExportedFile,
  type ExportFormat,
  type ExportOptions,
} from '../../src-shared/formats/index.ts';
import type { Command } from './command.ts';
import { problemLine, readDesign } from './input.ts';
import { errorLine, EXIT, writeLines, type CliIo } from './io.ts';
import { isFolder, makeFolder, pathsFor, shownPath, writeAll } from './output.ts';

/** Largest `--items`. */
const MAX_ITEMS_OPTION = 100_000;
/** Largest `--seed`: a 32-bit seed. */
const MAX_SEED = 4_294_967_295;

const formatList = EXPORT_FORMATS.map((f) => f.id).join(', ');
const width = Math.max(...EXPORT_FORMATS.map((f) => f.id.length));
const aliasLines = EXPORT_FORMATS.flatMap((f) => f.aliases.map((a) => `  ${a.padEnd(width)}  the same as ${f.id}`));

/** What `--to` accepts, one line each: `--to` ids in the registry's order (the export dialog's tabs). */
export function exportFormatHelp(): string {
  return EXPORT_FORMATS.map((f: ExportFormat) => `  ${f.id.padEnd(width)}  ${f.summary}`).join('\n');
}

/** A whole number from 0 to `max`; undefined when absent; 'bad' otherwise. */
function parseCount(value: string | undefined, max: number): number | undefined | 'bad' {
  if (value === undefined) return undefined;
  const n = Number(value);
  return /^\d+$/.test(value) && n <= max ? n : 'bad';
}

/** Where the export goes and what it says it wrote. */
async function writeExport(format: ExportFormat, files: ExportedFile[], out: string | undefined, io: CliIo): Promise<number> {
  if (out === undefined) {
    // Several documents on stdout: one JSON document per line (JSON Lines).
    io.stdout.write(format.isMultiFile ? files.map((f) => `${JSON.stringify(JSON.parse(f.content))}\n`).join('') : (files[0]?.content ?? ''));
    return EXIT.ok;
  }
  const shown = (path: string): string => shownPath(io.cwd, path);
  const written = format.isMultiFile ? files : [{ name: out, suffix: '', content: files[0]?.content ?? '' }];
  const toFolder = format.isMultiFile && (await isFolder(out, io.cwd));
  const paths = format.isMultiFile
    ? pathsFor(out, io.cwd, toFolder, written.map((f) => f.name), written.map((f) => f.suffix))
    : pathsFor(out, io.cwd, false, [out], ['']);
  if (toFolder) {
    const made = await makeFolder(pathsFor(out, io.cwd, false, [out], [''])[0]!, out);
    if (!made.ok) {
      writeLines(io.stderr, made.errors.map(errorLine));
      return EXIT.problems;
    }
  }
  const result = await writeAll(
    written.map((f, i) => ({ path: paths[i]!, content: f.content })),
    shown,
  );
  if (!result.ok) {
    writeLines(io.stderr, result.errors.map(errorLine));
    return EXIT.problems;
  }
  const names = paths.map(shown);
  writeLines(io.stdout, [names.length === 0 ? 'Nothing to write: the design has no items.' : names.length === 1 ? `Wrote ${names[0]}` : `Wrote ${names.length} files: ${names[0]} … ${names.at(-1)}`]);
  return EXIT.ok;
}

export const exportCommand: Command = {
  name: 'export',
  synopsis: 'keyplan export <design> --to <format> [--out FILE]',
  summary: 'the design as CloudFormation, Terraform, CDK, CLI input, NoSQL Workbench, DynamoDB JSON, or its design sheet (Markdown, HTML)',
  fileName: '<design>',
  flags: [],
  options: ['--to', '--out', '--items', '--seed'],
  help: `Usage: keyplan export <design> --to <format> [--out FILE] [--items N] [--seed S]

Writes the design in another format. The design must pass "keyplan check" (no problems; unserved
access patterns do not stop an export).

Formats (--to), the export dialog's formats:
${exportFormatHelp()}
Aliases:
${aliasLines.join('\n')}

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
What a format cannot hold of the design is printed on stderr after a "keyplan: note:" line, one
setting per line: the NoSQL Workbench model has no warm throughput, on-demand maximum, multi-attribute
GSI key, point-in-time recovery, encryption, deletion protection, Contributor Insights or tags; the
create-table input has no TTL, point-in-time recovery or Contributor Insights (each names its call).
Items in dynamodb-json go in with: aws dynamodb batch-write-item --cli-input-json file://items-001.json
(a table with: aws dynamodb create-table --cli-input-json file://Shop.create-table.json).

Exit codes: 0 written; 1 the design cannot be read, has problems, or a file cannot be written;
2 usage error (no --to, an unknown format, a bad --items or --seed).

Examples:
  keyplan export examples/ecommerce.keyplan.json --to cloudformation --out template.yaml
  keyplan export examples/ecommerce.keyplan.json --to dynamodb-json --out items/
  keyplan export examples/ecommerce.keyplan.json --to markdown --out design-sheet.md`,

  async run({ file, options }, io) {
    const to = options.get('--to');
    const format = to === undefined ? undefined : findExportFormat(to);
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
    const exportOptions: ExportOptions = { nowMs: Date.now(), ...(items !== undefined && items !== 'bad' ? { items } : {}), ...(seed !== undefined && seed !== 'bad' ? { seed } : {}) };
    const exit = await writeExport(format, format.produce(input.design, exportOptions), options.get('--out'), io);
    const notes = exit === EXIT.ok ? exportNotes(format, input.design) : undefined;
    if (notes) writeLines(io.stderr, [`keyplan: note: ${notes.heading}`, ...notes.lines.map((l) => `  ${l}`)]);
    return exit;
  },
};
