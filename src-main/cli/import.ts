/**
 * `keyplan import <file> --from nosql-workbench [--out FILE]`: a NoSQL Workbench data model read as a
 * Keyplan design (`fromNoSqlWorkbench`), printed or written as a .keyplan.json file.
 */
import { resolve } from 'node:path';
import { fromNoSqlWorkbench } from '../../src-shared/formats/index.ts';
import type { Command } from './command.ts';
import { parseJson, problemLine, readText } from './input.ts';
import { errorLine, EXIT, writeLines } from './io.ts';
import { shownPath, writeAll } from './output.ts';

const SOURCES = ['nosql-workbench'] as const;
/** Problems listed before "… and N more". */
const MAX_LISTED_PROBLEMS = 50;

export const importCommand: Command = {
  name: 'import',
  synopsis: 'keyplan import <file> --from nosql-workbench [--out FILE]',
  summary: 'a NoSQL Workbench data model as a Keyplan design',
  fileName: '<file>',
  flags: [],
  options: ['--from', '--out'],
  help: `Usage: keyplan import <file> --from nosql-workbench [--out FILE]

Reads a NoSQL Workbench data model (versions 1.0, 2.0 and 3.0) and prints it as a Keyplan design, or
writes it to FILE (a .keyplan.json; written to a temporary file and renamed, so a failed import writes
nothing). Entities come from the model's facets, or from its sample items (by a type attribute, else
by the partition key's prefix such as USER#); key templates are inferred from the sample items' key
values; item counts are the number of sample items (set real counts afterwards).

Options:
  --from FORMAT  the file's format (required): ${SOURCES.join(', ')}
  --out FILE     write the design to FILE instead of stdout
  -h, --help     print this help

Every problem is one line on stderr, with its path in the model
(DataModel[0].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey: …).

Exit codes: 0 imported; 1 the file cannot be read, is not JSON, is not a model, has problems, or the
output cannot be written; 2 usage error.

Example:
  keyplan import Bank.json --from nosql-workbench --out bank.keyplan.json`,

  async run({ file, options }, io) {
    const from = options.get('--from');
    if (from === undefined || !(SOURCES as readonly string[]).includes(from)) {
      const message = from === undefined ? '"keyplan import" needs --from <format>' : `unknown format "${from}" for --from`;
      writeLines(io.stderr, [errorLine(`${message}; expected: ${SOURCES.join(', ')} (see "keyplan import --help").`)]);
      return EXIT.usage;
    }
    const text = await readText(file, io.cwd);
    if (!text.ok) {
      writeLines(io.stderr, text.errors.map(errorLine));
      return EXIT.problems;
    }
    const json = parseJson(text.value, file);
    if (!json.ok) {
      writeLines(io.stderr, json.errors.map(errorLine));
      return EXIT.problems;
    }
    const result = fromNoSqlWorkbench(json.value);
    if (!result.ok) {
      const lines = result.errors.slice(0, MAX_LISTED_PROBLEMS).map((p) => errorLine(`${file}: ${problemLine(p)}`));
      if (result.errors.length > MAX_LISTED_PROBLEMS) lines.push(errorLine(`${file}: … and ${result.errors.length - MAX_LISTED_PROBLEMS} more problems.`));
      writeLines(io.stderr, lines);
      return EXIT.problems;
    }
    const content = `${JSON.stringify(result.value, null, 2)}\n`;
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
    const design = result.value;
    const entities = design.tables.reduce((n, t) => n + t.entities.length, 0);
    const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
    writeLines(io.stdout, [`Imported "${design.name}" (${plural(design.tables.length, 'table')}, ${plural(entities, 'entity').replace('entitys', 'entities')}) to ${out}`]);
    return EXIT.ok;
  },
};
