/**
 * `keyplan import <file> [<companion>…] [--from FORMAT] [--out FILE] [--strict]`: a NoSQL Workbench
 * model, a OneTable schema, a CloudFormation template or describe-table output read as a Keyplan
 * design (src-shared/formats/import.ts), printed or written as a .keyplan.json file. What the reading
 * skipped, inferred or did not import is printed on stderr, one line each with its path in the source.
 */
import { resolve } from 'node:path';
import {
  describeBytes,
  detectImportFormat,
  IMPORT_SOURCE_LABELS,
  IMPORT_SOURCES,
  importText,
  MAX_IMPORT_BYTES,
  READABLE_FORMATS,
  unknownFormatProblem,
  type ImportNote,
  type ImportSource,
} from '../../src-shared/formats/index.ts';
import type { Command } from './command.ts';
import { parseJson, problemLine, readText } from './input.ts';
import { errorLine, EXIT, writeLines } from './io.ts';
import { shownPath, writeAll } from './output.ts';

const FROM = ['auto', ...IMPORT_SOURCES] as const;
/** Problems (and notes) listed before "… and N more". */
const MAX_LISTED = 50;
/** At most this many companion files (describe-time-to-live, describe-continuous-backups). */
const MAX_COMPANIONS = 2;

/** How each kind of note starts its line. */
const NOTE_LABELS: Record<ImportNote['kind'], string> = { warning: 'warning: skipped', dropped: 'not imported', inferred: 'inferred' };

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export const importCommand: Command = {
  name: 'import',
  synopsis: 'keyplan import <file> [--from FORMAT] [--out FILE] [--strict]',
  summary: 'a NoSQL Workbench model, OneTable schema, CloudFormation template or describe-table output as a Keyplan design',
  fileName: '<file>',
  flags: ['--strict'],
  options: ['--from', '--out'],
  fileCount: { min: 1, max: 1 + MAX_COMPANIONS },
  help: `Usage: keyplan import <file> [--from FORMAT] [--out FILE] [--strict]
       keyplan import <describe-table.json> [<ttl.json>] [<backups.json>] --from describe-table

Reads a model from another tool and prints it as a Keyplan design, or writes it to FILE (a
.keyplan.json; written to a temporary file and renamed, so a failed import writes nothing).

Formats (--from; default auto, which tells them apart by their content):
  nosql-workbench  a NoSQL Workbench data model (versions 1.0, 2.0 and 3.0): tables, indexes, and
                   entities from its facets or sample items, with key templates inferred from the
                   sample key values and item counts from the number of sample items
  onetable         a OneTable schema (JSON, "format": "onetable:1.x"): indexes, models as entities
                   with typed attributes, value templates as key templates, saved queries as access
                   patterns
  cloudformation   a CloudFormation template (YAML with !Ref/!Sub/… tags, or JSON): every
                   AWS::DynamoDB::Table and GlobalTable with keys, indexes, billing, capacity,
                   settings and the auto scaling of its ScalableTarget/ScalingPolicy resources; a
                   template holds no entities
  describe-table   the output of "aws dynamodb describe-table": keys, indexes, billing, capacity,
                   warm throughput, table class, streams, encryption, and ItemCount and
                   TableSizeBytes as one entity's count and item size. Give the outputs of
                   "aws dynamodb describe-time-to-live" and "describe-continuous-backups" as further
                   files to bring TTL and point-in-time recovery

Options:
  --from FORMAT  ${FROM.join(', ')} (default auto)
  --out FILE     write the design to FILE instead of stdout
  --strict       exit 1, writing nothing, when any part of the source was skipped as malformed
  -h, --help     print this help

Every problem that stops the import is one line on stderr with its path in the source
(DataModel[0].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey: …). What the import skipped,
did not import or inferred is one line each on stderr too ("keyplan: warning: skipped …",
"keyplan: not imported: …", "keyplan: inferred: …"); the design is still written.

Exit codes: 0 imported (with or without notes); 1 the file cannot be read, is no format Keyplan
reads, has problems, has skipped parts under --strict, or the output cannot be written; 2 usage
error.

Examples:
  keyplan import Bank.json --out bank.keyplan.json
  keyplan import template.yaml --from cloudformation --out tables.keyplan.json
  keyplan import table.json ttl.json backups.json --from describe-table --out orders.keyplan.json`,

  async run({ file, files, flags, options }, io) {
    const from = options.get('--from') ?? 'auto';
    if (!(FROM as readonly string[]).includes(from)) {
      writeLines(io.stderr, [errorLine(`unknown format "${from}" for --from; expected: ${FROM.join(', ')} (see "keyplan import --help").`)]);
      return EXIT.usage;
    }
    const texts: string[] = [];
    for (const name of files) {
      const text = await readText(name, io.cwd, { maxBytes: MAX_IMPORT_BYTES, shown: describeBytes(MAX_IMPORT_BYTES), what: 'to import', why: 'the most Keyplan imports; see docs/limits.md' });
      if (!text.ok) {
        writeLines(io.stderr, text.errors.map(errorLine));
        return EXIT.problems;
      }
      texts.push(text.value);
    }
    const [text, ...companions] = texts as [string, ...string[]];
    if (text.trim() === '' || text === '\ufeff') {
      writeLines(io.stderr, [errorLine(`"${file}" is empty: there is nothing to import.`)]);
      return EXIT.problems;
    }
    let source: ImportSource;
    if (from === 'auto') {
      const detected = detectImportFormat(text);
      if (detected === undefined) {
        const json = parseJson(text, file);
        const reason = json.ok ? problemLine(unknownFormatProblem(text)) : `${json.errors[0]!} It is not a CloudFormation template in YAML either. Expected ${READABLE_FORMATS}.`;
        writeLines(io.stderr, [errorLine(json.ok ? `${file}: ${reason}` : reason)]);
        return EXIT.problems;
      }
      if (detected === 'keyplan') {
        writeLines(io.stderr, [errorLine(`"${file}" is a Keyplan design already: open it as it is (see "keyplan check ${file}").`)]);
        return EXIT.problems;
      }
      source = detected;
    } else source = from as ImportSource;
    if (companions.length > 0 && source !== 'describe-table') {
      writeLines(io.stderr, [errorLine(`"keyplan import" takes further files only with describe-table output (its describe-time-to-live and describe-continuous-backups outputs); "${file}" is read as a ${IMPORT_SOURCE_LABELS[source]}.`)]);
      return EXIT.usage;
    }
    // JSON formats: a syntax error is said with its line and column.
    for (const [i, t] of texts.entries()) {
      if (source === 'cloudformation' && i === 0) continue;
      const json = parseJson(t, files[i]!);
      if (!json.ok) {
        writeLines(io.stderr, json.errors.map(errorLine));
        return EXIT.problems;
      }
    }

    const result = importText(source, text, companions);
    if (!result.ok) {
      const lines = result.errors.slice(0, MAX_LISTED).map((p) => errorLine(`${file}: ${problemLine(p)}`));
      if (result.errors.length > MAX_LISTED) lines.push(errorLine(`${file}: … and ${result.errors.length - MAX_LISTED} more problems.`));
      writeLines(io.stderr, lines);
      return EXIT.problems;
    }
    const { design, notes } = result.value;
    const noteLines = notes.slice(0, MAX_LISTED).map((n) => errorLine(`${NOTE_LABELS[n.kind]}: ${file}: ${problemLine(n)}`));
    if (notes.length > MAX_LISTED) noteLines.push(errorLine(`${file}: … and ${notes.length - MAX_LISTED} more notes.`));
    writeLines(io.stderr, noteLines);
    const skipped = notes.filter((n) => n.kind === 'warning').length;
    if (flags.has('--strict') && skipped > 0) {
      writeLines(io.stderr, [errorLine(`${file}: ${plural(skipped, 'part was', 'parts were')} skipped as malformed; nothing written (--strict).`)]);
      return EXIT.problems;
    }
    const content = `${JSON.stringify(design, null, 2)}\n`;
    const out = options.get('--out');
    if (out === undefined) {
      io.stdout.write(content);
      return EXIT.ok;
    }
    const written = await writeAll([{ path: resolve(io.cwd, out), content }], (p) => shownPath(io.cwd, p));
    if (!written.ok) {
      writeLines(io.stderr, written.errors.map(errorLine));
      return EXIT.problems;
    }
    const entities = design.tables.reduce((n, t) => n + t.entities.length, 0);
    const noted = notes.length === 0 ? '' : `; ${plural(notes.length, 'note', 'notes')} above`;
    writeLines(io.stdout, [`Imported "${design.name}" from a ${IMPORT_SOURCE_LABELS[source]} (${plural(design.tables.length, 'table', 'tables')}, ${plural(entities, 'entity', 'entities')}) to ${out}${noted}`]);
    return EXIT.ok;
  },
};
