/**
 * `keyplan sample <design> [--items N] [--seed S] [--table NAME]`: the design's seeded sample items,
 * one DynamoDB JSON item per line: the same items the app's Data screen shows and the dynamodb-json
 * export writes, from the same value model.
 */
import { createSampleStore } from '../../src-shared/sample/index.ts';
import type { Command } from './command.ts';
import { errorLine, EXIT, writeLines } from './io.ts';
import { readValidDesign } from './input.ts';
import { formatCount } from '../../src-shared/numbers/index.ts';

/** Items per table when `--items` is not given. */
export const DEFAULT_SAMPLE_ITEMS = 20;
const MAX_ITEMS = 2_000_000;
const MAX_SEED = 4_294_967_295;

/** A whole number from 0 to `max`; undefined when absent; 'bad' otherwise. */
function parseCount(value: string | undefined, max: number): number | undefined | 'bad' {
  if (value === undefined) return undefined;
  const n = Number(value);
  return /^\d+$/.test(value) && n <= max ? n : 'bad';
}

export const sampleCommand: Command = {
  name: 'sample',
  synopsis: 'keyplan sample <design> [--items N] [--seed S] [--table NAME]',
  summary: 'seeded sample items as DynamoDB JSON, one per line',
  fileName: '<design>',
  flags: [],
  options: ['--items', '--seed', '--table'],
  help: `Usage: keyplan sample <design> [--items N] [--seed S] [--table NAME]

Prints sample items of the design as DynamoDB JSON, one item per line (JSON Lines): the items the
app's Data screen shows for the same seed, generated from each attribute's values and spread (the
Entities screen), with keys rendered from the key templates and sparse index keys only where their
conditions hold. The entities' item counts are scaled down together to at most N items per table.

Options:
  --items N     items per table, at most (default ${DEFAULT_SAMPLE_ITEMS}, up to ${formatCount(MAX_ITEMS)})
  --seed S      seed of every random choice (default 1); the same seed gives the same items
  --table NAME  only this table (default: every table, one after the other)
  -h, --help    print this help

Exit codes: 0 printed; 1 the design cannot be read or has problems, or has no such table;
2 usage error (a bad --items or --seed).

Example:
  keyplan sample examples/ecommerce.keyplan.json --items 5 --seed 7`,

  async run({ file, options }, io) {
    const items = parseCount(options.get('--items'), MAX_ITEMS);
    const seed = parseCount(options.get('--seed'), MAX_SEED);
    for (const [name, value, max] of [['--items', items, MAX_ITEMS], ['--seed', seed, MAX_SEED]] as const) {
      if (value !== 'bad') continue;
      writeLines(io.stderr, [errorLine(`${name} is "${options.get(name)}"; expected a whole number from 0 to ${formatCount(max)}.`)]);
      return EXIT.usage;
    }
    const input = await readValidDesign(file, io.cwd, 'print sample items');
    if (!input.ok) {
      writeLines(io.stderr, input.errors);
      return EXIT.problems;
    }
    const design = input.value;
    const wanted = options.get('--table');
    const tables = wanted === undefined ? design.tables : design.tables.filter((t) => t.name === wanted);
    if (tables.length === 0) {
      writeLines(io.stderr, [errorLine(`"${file}" has no table named "${wanted ?? ''}"; expected one of: ${design.tables.map((t) => t.name).join(', ')}.`)]);
      return EXIT.problems;
    }
    for (const table of tables) {
      const store = createSampleStore(design, table.id, { seed: typeof seed === 'number' ? seed : 1, maxItems: typeof items === 'number' ? items : DEFAULT_SAMPLE_ITEMS });
      const count = store.summary().views.find((v) => v.kind === 'table')?.itemCount ?? 0;
      const lines: string[] = [];
      for (let i = 0; i < count; i += 1) lines.push(JSON.stringify(store.itemAt('table', i)));
      if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
    }
    return EXIT.ok;
  },
};
