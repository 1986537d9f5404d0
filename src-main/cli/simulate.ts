/**
 * `keyplan simulate <design>`: the partition simulator on every table of a design, in-process (the
 * same `simulate` the app runs in a worker): per table and GSI the partition count, the largest
 * partition's share of the load, the throttled time and the hottest keys; per access pattern the
 * throttled fraction and DynamoDB's throttling reasons. This file only formats the results.
 */
import { formatShare, formatSecond, simulate } from '../../src-shared/partition/index.ts';
import type { SimulationResult, TargetResult } from '../../src-shared/partition/types.ts';
import type { Design } from '../../src-shared/model/schema.ts';
import type { Command } from './command.ts';
import { readValidDesign } from './input.ts';
import { errorLine, EXIT, writeJson, writeLines } from './io.ts';
import { jsonNumber, renderTable } from './text.ts';

/** One table or GSI in `keyplan simulate --json`. */
export interface SimulateTargetJson {
  name: string;
  kind: 'table' | 'gsi';
  partitionCount: number;
  partitionsForSize: number | null;
  partitionsForThroughput: number | null;
  /** The busiest partition's share of the load (R/3,000 + W/1,000 weighed), 0..1. */
  largestShare: number | null;
  /** Share of the time steps in which some request on it throttled, 0..1. */
  throttledTimeShare: number | null;
  throttles: { reason: string; requests: number }[];
  hottestKeys: { key: string; partition: number; share: number | null; readUnitsPerSecond: number | null; writeUnitsPerSecond: number | null }[];
  summary: string[];
}

/** What `keyplan simulate --json` prints. */
export interface SimulateJson {
  design: string;
  seed: number;
  hash: string;
  tables: {
    name: string;
    durationSeconds: number;
    stepSeconds: number;
    targets: SimulateTargetJson[];
    patterns: { id: string; name: string; requests: number; throttled: number; throttledFraction: number | null; reasons: string[] }[];
  }[];
  assumptions: string[];
}

const SEED_OPTION = '--seed';

function targetJson(t: TargetResult): SimulateTargetJson {
  return {
    name: t.name,
    kind: t.kind,
    partitionCount: t.partitionCount,
    partitionsForSize: jsonNumber(t.partitionsForSize),
    partitionsForThroughput: jsonNumber(t.partitionsForThroughput),
    largestShare: jsonNumber(t.largestShare),
    throttledTimeShare: jsonNumber(t.throttledTimeShare),
    throttles: t.throttles.map((x) => ({ reason: x.reason, requests: x.requests })),
    hottestKeys: t.hottestKeys.map((k) => ({
      key: k.key,
      partition: k.partition,
      share: jsonNumber(k.share),
      readUnitsPerSecond: jsonNumber(k.readUnitsPerSecond),
      writeUnitsPerSecond: jsonNumber(k.writeUnitsPerSecond),
    })),
    summary: t.summary,
  };
}

function simulateJson(design: Design, seed: number, results: SimulationResult[]): SimulateJson {
  return {
    design: design.name,
    seed,
    hash: results[0]?.hash ?? '',
    tables: results.map((r) => ({
      name: r.tableName,
      durationSeconds: r.durationSeconds,
      stepSeconds: r.stepSeconds,
      targets: r.targets.map(targetJson),
      patterns: r.patterns.map((p) => ({
        id: p.patternId,
        name: p.name,
        requests: p.requests,
        throttled: p.throttled,
        throttledFraction: jsonNumber(p.throttledFraction),
        reasons: [...p.reasons],
      })),
    })),
    assumptions: [...new Set(results.flatMap((r) => r.assumptions))],
  };
}

const HOT_KEYS_SHOWN = 3;
const count = (n: number) => Math.round(n).toLocaleString('en-US');
const partitionsText = (n: number | null) => (n === null ? '-' : (Math.round(n * 100) / 100).toLocaleString('en-US'));

function readable(file: string, json: SimulateJson, workloadFrom: string): string[] {
  const lines = [`Partition simulation of "${json.design}" (${file}), seed ${json.seed}`, `Hash: ${json.hash}`];
  for (const table of json.tables) {
    lines.push(
      '',
      `Table ${table.name}: ${formatSecond(table.durationSeconds)} at ${table.stepSeconds} s steps (${workloadFrom})`,
      ...renderTable(
        ['Target', 'Partitions', 'For size', 'For throughput', 'Largest share', 'Throttled time', 'Hottest keys (share of load)'],
        table.targets.map((t) => [
          t.kind === 'table' ? 'table' : `GSI ${t.name}`,
          String(t.partitionCount),
          partitionsText(t.partitionsForSize),
          partitionsText(t.partitionsForThroughput),
          formatShare(t.largestShare ?? 0),
          formatShare(t.throttledTimeShare ?? 0),
          t.hottestKeys.length === 0
            ? '-'
            : t.hottestKeys
                .slice(0, HOT_KEYS_SHOWN)
                .map((k) => `${k.key} (${formatShare(k.share ?? 0)}, p${k.partition})`)
                .join(', '),
        ]),
        ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
        '  ',
      ),
      '',
    );
    const rows = table.patterns.map((p) => [p.name, count(p.requests), count(p.throttled), formatShare(p.throttledFraction ?? 0), p.reasons.join(', ') || '-']);
    lines.push(...(rows.length === 0 ? ['  No access patterns.'] : renderTable(['Access pattern', 'Requests', 'Throttled', 'Throttled %', 'Throttling reasons'], rows, ['left', 'right', 'right', 'right', 'left'], '  ')));
    lines.push('', '  Findings');
    for (const t of table.targets) for (const s of t.summary) lines.push(`    ${s}`);
  }
  lines.push('', `The numbers rest on ${json.assumptions.length} modeling assumptions (see docs/dynamodb-rules.md §10); "--json" lists them.`);
  return lines;
}

/** The seed from `--seed N`: an integer, or a usage error. */
function seedOf(text: string | undefined): { seed?: number; error?: string } {
  if (text === undefined) return {};
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) return { error: `option "--seed" of "keyplan simulate" takes a whole number, got "${text}".` };
  return { seed: n };
}

export const simulateCommand: Command = {
  name: 'simulate',
  synopsis: 'keyplan simulate <design> [--seed N] [--json]',
  summary: 'partitions, hot keys and throttling over the design\'s workload',
  fileName: '<design>',
  flags: ['--json'],
  options: [SEED_OPTION],
  help: `Usage: keyplan simulate <design> [--seed N] [--json]

Runs the partition simulator on every table of a design file (*.keyplan.json) over the design's
workload (duration, step, spikes and ramps; one hour at one-second steps when it has none): each
pattern's rate and key popularity land on partitions hashed from the partition-key values, with
DynamoDB's per-partition limits (3,000 RCU / 1,000 WCU), burst and adaptive capacity, split for heat,
on-demand scaling, provisioned limits and GSI back-pressure (see docs/dynamodb-rules.md §4 and §10 for the rules and assumptions).

Prints, per table and GSI, the partition count (and what size and throughput need), the largest
partition's share of the load, the share of the time something throttled and the hottest keys; per
access pattern the requests, the throttled fraction and the throttling reasons DynamoDB would report;
then the findings in words.

The design must be valid: run "keyplan check" to see its problems.

Options:
  --seed N   the seed of the simulated arrival noise (default: the workload's seed); the same
             design and seed give the same numbers
  --json     print {"design", "seed", "hash", "tables": [{"name", "durationSeconds", "stepSeconds",
             "targets": [{"name", "kind", "partitionCount", "partitionsForSize",
             "partitionsForThroughput", "largestShare", "throttledTimeShare", "throttles":
             [{"reason", "requests"}], "hottestKeys": [{"key", "partition", "share",
             "readUnitsPerSecond", "writeUnitsPerSecond"}], "summary"}], "patterns": [{"id", "name",
             "requests", "throttled", "throttledFraction", "reasons"}]}], "assumptions"}
             Shares and fractions are 0..1; partitions are numbered from 0 in hash-range order.
  -h, --help print this help

Exit codes: 0 the design was simulated (throttling is reported, and does not fail it); 1 the file
cannot be read, is not a Keyplan design, or has problems; 2 usage error.

Example:
  keyplan simulate examples/ecommerce.keyplan.json
  keyplan simulate examples/ecommerce.keyplan.json --seed 7 --json | jq '.tables[0].patterns'`,

  async run({ file, flags, options }, io) {
    const { seed, error } = seedOf(options.get(SEED_OPTION));
    if (error) {
      writeLines(io.stderr, [errorLine(error)]);
      return EXIT.usage;
    }
    const input = await readValidDesign(file, io.cwd, 'simulate the design');
    if (!input.ok) {
      writeLines(io.stderr, input.errors);
      return EXIT.problems;
    }
    const design = input.value;
    const results = design.tables.map((t) => simulate(design, t.id, seed === undefined ? {} : { seed }));
    const json = simulateJson(design, results[0]?.seed ?? seed ?? 0, results);
    if (flags.has('--json')) {
      writeJson(io.stdout, json);
      return EXIT.ok;
    }
    writeLines(io.stdout, readable(file, json, design.workload ? "the design's workload" : 'no workload in the design: the default hour'));
    return EXIT.ok;
  },
};
