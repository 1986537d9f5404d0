/**
 * `keyplan size <item.json>`: the size of one item given in DynamoDB JSON, and what reading and
 * writing it costs in capacity units. The item is validated as DynamoDB would; an item over 400 KB
 * still gets its size printed, then fails with `item.tooLarge`.
 */
import {
  checkItemSize,
  getItemReadUnits,
  itemSizeBytes,
  itemSizeFigure,
  MAX_ITEM_BYTES,
  parseDynamoDbItem,
  readUnitsForBytes,
  writeUnits,
  writeUnitsForBytes,
  type Item,
  formatNumber,
} from '../../src-shared/capacity/index.ts';
import type { Result } from '../../src-shared/errors.ts';
import type { Problem } from '../../src-shared/model/index.ts';
import type { Command } from './command.ts';
import { errorLine, EXIT, writeJson, writeLines } from './io.ts';
import { parseJson, problemLine, readText } from './input.ts';
import { explainFigure, formatBytes } from './text.ts';

/** What `keyplan size --json` prints. */
export interface SizeJson {
  bytes: number;
  rcu: { strong: number; eventual: number; transactional: number };
  wcu: { standard: number; transactional: number };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The item in `json`: a bare item (`{"id": {"S": "a"}}`), or the `{"Item": {...}}` that
 * `aws dynamodb get-item` prints, when the whole is not itself a valid item.
 */
function parseItem(json: unknown): Result<Item, Problem> {
  const whole = parseDynamoDbItem(json, 'item');
  if (whole.ok || !isRecord(json)) return whole;
  const keys = Object.keys(json);
  if (keys.length === 1 && keys[0] === 'Item' && isRecord(json.Item)) {
    const inner = parseDynamoDbItem(json.Item, 'Item');
    if (inner.ok) return inner;
  }
  return whole;
}

export function sizeJson(bytes: number): SizeJson {
  return {
    bytes,
    rcu: {
      strong: readUnitsForBytes(bytes, 'strong'),
      eventual: readUnitsForBytes(bytes, 'eventual'),
      transactional: readUnitsForBytes(bytes, 'transactional'),
    },
    wcu: { standard: writeUnitsForBytes(bytes, false), transactional: writeUnitsForBytes(bytes, true) },
  };
}

function readable(file: string, item: Item, units: SizeJson, isExplained: boolean): string[] {
  const share = (units.bytes / MAX_ITEM_BYTES) * 100;
  const attributes = Object.keys(item).length;
  const lines = [
    `${file}: ${formatNumber(units.bytes)} bytes${units.bytes >= 1024 ? ` (${formatBytes(units.bytes)})` : ''}, ` +
      (units.bytes > MAX_ITEM_BYTES
        ? `${formatNumber(units.bytes - MAX_ITEM_BYTES)} over the ${formatNumber(MAX_ITEM_BYTES)}-byte item limit`
        : `${formatNumber(share, share < 1 ? 3 : 1)}% of the ${formatNumber(MAX_ITEM_BYTES)}-byte item limit`) +
      `; ${formatNumber(attributes)} attribute${attributes === 1 ? '' : 's'}`,
    `  Read  (GetItem)   ${formatNumber(units.rcu.eventual)} RCU eventually consistent, ${formatNumber(units.rcu.strong)} strongly consistent, ${formatNumber(units.rcu.transactional)} transactional`,
    `  Write (PutItem)   ${formatNumber(units.wcu.standard)} WCU, ${formatNumber(units.wcu.transactional)} transactional (table only; each GSI and LSI the item is in adds its own)`,
  ];
  if (!isExplained) return lines;
  lines.push('', 'Size', ...explainFigure(itemSizeFigure(item), '  '));
  for (const consistency of ['eventual', 'strong', 'transactional'] as const) {
    lines.push('', `Read, ${consistency}`, ...explainFigure(getItemReadUnits(units.bytes, consistency), '  '));
  }
  for (const transactional of [false, true]) {
    const write = writeUnits({ kind: 'put', newItemBytes: units.bytes, transactional, indexes: [] });
    lines.push('', `Write${transactional ? ', transactional' : ''}`, ...explainFigure(write.table, '  '));
  }
  return lines;
}

export const sizeCommand: Command = {
  name: 'size',
  synopsis: 'keyplan size <item.json> [--json] [--explain]',
  summary: 'size of one item in DynamoDB JSON, and its read and write units',
  fileName: '<item.json>',
  flags: ['--json', '--explain'],
  help: `Usage: keyplan size <item.json> [--json] [--explain]

Prints the size of one item given in DynamoDB JSON ({"id": {"S": "a"}, "n": {"N": "1"}}, or the
{"Item": {...}} that "aws dynamodb get-item" prints), by DynamoDB's rules: attribute names and values
in UTF-8 bytes, numbers by their digits, lists and maps with their overhead. Then the capacity units
one GetItem and one PutItem of it consume: reads in 4 KB blocks (eventually consistent half a unit,
strongly consistent one, transactional two), writes in 1 KB blocks (transactional twice).

The item is validated as DynamoDB would (type descriptors, numbers, base64, empty sets, nesting).
An item over ${formatNumber(MAX_ITEM_BYTES)} bytes still gets its size printed, then fails.

Options:
  --json     print {"bytes": n, "rcu": {"strong": n, "eventual": n, "transactional": n},
             "wcu": {"standard": n, "transactional": n}}
  --explain  print the derivation: every attribute's bytes, then the read and write units (text only)
  -h, --help print this help

Exit codes: 0 the item is valid; 1 it cannot be read, is not JSON, is not a valid item, or is too
large (the size is printed all the same); 2 usage error.

Example:
  keyplan size order.json
  aws dynamodb get-item --table-name Shop --key '{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"}}' > item.json && keyplan size item.json --json`,

  async run({ file, flags }, io) {
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
    const item = parseItem(json.value);
    if (!item.ok) {
      writeLines(io.stderr, item.errors.map((p) => errorLine(`${file}: ${problemLine(p)}`)));
      return EXIT.problems;
    }
    const units = sizeJson(itemSizeBytes(item.value));
    if (flags.has('--json')) writeJson(io.stdout, units);
    else writeLines(io.stdout, readable(file, item.value, units, flags.has('--explain')));
    const limit = checkItemSize(item.value);
    if (!limit.ok) {
      writeLines(io.stderr, limit.errors.map((p) => errorLine(`${file}: ${p.message}`)));
      return EXIT.problems;
    }
    return EXIT.ok;
  },
};
