/**
 * `keyplan simulate <design>`: the partition simulator on every table of a design, in-process (the
 * same `simulate` the app runs in a worker): per table and GSI the partition count, the largest
 * partition's share of the load, the throttled time and the hottest keys; per access pattern the
 * throttled fraction and DynamoDB's throttling reasons. This file only formats the results.
 */
import {
  DEFAULT_PARTITION_LIMITS,
  DEFAULT_START,
  formatPartitionsNeeded,
  formatShare,
  formatSecond,
  simulate,
  type PartitionLimitModel,
  type SimulationStart,
} from '../../src-shared/partition/index.ts';
import type { SimulationResult, TargetResult } from '../../src-shared/partition/index.ts';
import { hotKeysOf } from '../../src-shared/partition/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { formatUnits } from '../../src-shared/capacity/index.ts';
import type { Command } from './command.ts';
import { readValidDesign } from './input.ts';
import { errorLine, EXIT, writeJson, writeLines } from './io.ts';
import { jsonNumber, renderTable } from './text.ts';
import { formatCount } from '../../src-shared/numbers/index.ts';

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
  /** Keys carrying traffic: tracked by name, and spread evenly as background. */
  keysWithTraffic: { named: number; background: number };
  /** The keys carrying the most load, the hottest first (the text lists those over twice the mean key load). */
  hottestKeys: {
    key: string;
    partition: number;
    share: number | null;
    readUnitsPerSecond: number | null;
    writeUnitsPerSecond: number | null;
    peakReadUnitsPerSecond: number | null;
    peakWriteUnitsPerSecond: number | null;
    /** Over twice the mean key load, or throttled at the mean or above: the text lists only these. */
    hot: boolean;
  }[];
  /** Keys whose requests throttled: their stated peak and busiest simulated second, why, and the shards the stated peak needs. */
  throttledKeys: {
    key: string;
    partition: number;
    peakReadUnitsPerSecond: number | null;
    peakWriteUnitsPerSecond: number | null;
    statedPeakReadUnitsPerSecond: number | null;
    statedPeakWriteUnitsPerSecond: number | null;
    throttledFraction: number | null;
    reasons: string[];
    limit: string;
    minimumShards: number;
    recommendedShards: number;
    headroom: number;
  }[];
  summary: string[];
}

/** What `keyplan simulate --json` prints. */
export interface SimulateJson {
  design: string;
  seed: number;
  hash: string;
  /** `cold`: a new table at its initial capacity; `warm`: the base load has run before. */
  start: SimulationStart;
  /** How a partition's read and write limits combined: `independent` or `linear`. */
  partitionLimits: PartitionLimitModel;
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
const START_OPTION = '--start';
const LIMITS_OPTION = '--limits';
const HEADROOM_OPTION = '--headroom';

function targetJson(t: TargetResult): SimulateTargetJson {
  const hot = new Set(hotKeysOf(t));
  return {
    name: t.name,
    kind: t.kind,
    partitionCount: t.partitionCount,
    partitionsForSize: jsonNumber(t.partitionsForSize),
    partitionsForThroughput: jsonNumber(t.partitionsForThroughput),
    largestShare: jsonNumber(t.largestShare),
    throttledTimeShare: jsonNumber(t.throttledTimeShare),
    throttles: t.throttles.map((x) => ({ reason: x.reason, requests: x.requests })),
    keysWithTraffic: { named: t.keysWithTraffic.named, background: t.keysWithTraffic.background },
    hottestKeys: t.hottestKeys.map((k) => ({
      key: k.key,
      partition: k.partition,
      share: jsonNumber(k.share),
      readUnitsPerSecond: jsonNumber(k.readUnitsPerSecond),
      writeUnitsPerSecond: jsonNumber(k.writeUnitsPerSecond),
      peakReadUnitsPerSecond: jsonNumber(k.peakReadUnitsPerSecond),
      peakWriteUnitsPerSecond: jsonNumber(k.peakWriteUnitsPerSecond),
      hot: hot.has(k),
    })),
    throttledKeys: t.throttledKeys.map((k) => {
      const advice = k.shards;
      return {
        key: k.key,
        partition: k.partition,
        peakReadUnitsPerSecond: jsonNumber(k.peakReadUnitsPerSecond),
        peakWriteUnitsPerSecond: jsonNumber(k.peakWriteUnitsPerSecond),
        statedPeakReadUnitsPerSecond: jsonNumber(k.statedPeakReadUnitsPerSecond),
        statedPeakWriteUnitsPerSecond: jsonNumber(k.statedPeakWriteUnitsPerSecond),
        throttledFraction: jsonNumber(k.throttledFraction),
        reasons: [...k.reasons],
        limit: k.limit,
        minimumShards: advice.minimum,
        recommendedShards: advice.recommended,
        headroom: advice.headroom,
      };
    }),
    summary: t.summary,
  };
}

function simulateJson(design: Design, seed: number, results: SimulationResult[]): SimulateJson {
  return {
    design: design.name,
    seed,
    hash: results[0]?.hash ?? '',
    start: results[0]?.start ?? DEFAULT_START,
    partitionLimits: results[0]?.partitionLimits ?? DEFAULT_PARTITION_LIMITS,
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
const partitionsText = (n: number | null) => (n === null ? '-' : formatPartitionsNeeded(n));

/** How many hottest keys the table shows of how many with traffic, when it leaves some out. */
function hottestNote(targets: SimulateTargetJson[]): string[] {
  const cut = targets.filter((t) => t.hottestKeys.filter((k) => k.hot).length > HOT_KEYS_SHOWN);
  if (cut.length === 0) return [];
  const of = cut
    .map((t) => `${formatCount(t.keysWithTraffic.named)} on ${t.kind === 'table' ? 'the table' : `GSI ${t.name}`}${t.keysWithTraffic.background > 0 ? ` plus ${formatCount(t.keysWithTraffic.background)} spread evenly` : ''}`)
    .join(', ');
  return [`  Hottest keys: the ${HOT_KEYS_SHOWN} hottest shown of those over twice the mean key load, among the keys with traffic (${of}); --json lists more.`];
}

function readable(file: string, json: SimulateJson, workloadFrom: string): string[] {
  const lines = [
    `Partition simulation of "${json.design}" (${file}), seed ${json.seed}`,
    `Hash: ${json.hash}`,
    json.start === 'cold'
      ? 'Start: cold, a new table at its initial capacity (--start warm: the load has run before)'
      : 'Start: warm, the design\'s base load has run before (--start cold: a new table)',
    json.partitionLimits === 'independent'
      ? 'Partition limits: 3,000 RCU/s and 1,000 WCU/s, independent (--limits linear: R/3,000 + W/1,000 ≤ 1)'
      : 'Partition limits: R/3,000 + W/1,000 ≤ 1, a linear combination (--limits independent: separate limits)',
  ];
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
          !t.hottestKeys.some((k) => k.hot)
            ? t.keysWithTraffic.named + t.keysWithTraffic.background === 0
              ? '-'
              : 'none over 2× the mean key load'
            : t.hottestKeys
                .filter((k) => k.hot)
                .slice(0, HOT_KEYS_SHOWN)
                .map((k) => `${k.key} (${formatShare(k.share ?? 0)}, p${k.partition})`)
                .join(', '),
        ]),
        ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
        '  ',
      ),
      ...hottestNote(table.targets),
      '',
    );
    const rows = table.patterns.map((p) => [p.name, formatCount(p.requests), formatCount(p.throttled), formatShare(p.throttledFraction ?? 0), p.reasons.join(', ') || '-']);
    lines.push(...(rows.length === 0 ? ['  No access patterns.'] : renderTable(['Access pattern', 'Requests', 'Throttled', 'Throttled %', 'Throttling reasons'], rows, ['left', 'right', 'right', 'right', 'left'], '  ')));
    const throttledKeys = table.targets.flatMap((t) => t.throttledKeys.map((k) => ({ target: t.kind === 'table' ? 'table' : `GSI ${t.name}`, k })));
    if (throttledKeys.length > 0) {
      lines.push(
        '',
        ...renderTable(
          ['Throttled key', 'Target', 'Stated peak RCU/s', 'Stated peak WCU/s', 'Simulated peak WCU/s', 'Throttled', 'Shards (min / recommended)', 'Why'],
          throttledKeys.map(({ target, k }) => [
            k.key,
            target,
            formatUnits(k.statedPeakReadUnitsPerSecond ?? 0),
            formatUnits(k.statedPeakWriteUnitsPerSecond ?? 0),
            formatUnits(k.peakWriteUnitsPerSecond ?? 0),
            formatShare(k.throttledFraction ?? 0),
            `${k.minimumShards} / ${k.recommendedShards} at ${k.headroom}`,
            k.limit,
          ]),
          ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'left'],
          '  ',
        ),
      );
    }
    lines.push('', '  Findings');
    for (const t of table.targets) for (const s of t.summary) lines.push(`    ${s}`);
  }
  lines.push('', `The numbers rest on ${json.assumptions.length} modeling assumptions; "--json" lists them (docs/dynamodb-rules.md §10 explains each).`);
  return lines;
}

/** `--start cold|warm`, `--limits independent|linear` and `--headroom H` (at least 1), or a usage error. */
function runOptionsOf(options: ReadonlyMap<string, string>): { start?: SimulationStart; limits?: PartitionLimitModel; headroom?: number; error?: string } {
  const start = options.get(START_OPTION);
  const limits = options.get(LIMITS_OPTION);
  const headroom = options.get(HEADROOM_OPTION);
  if (start !== undefined && start !== 'cold' && start !== 'warm') return { error: `option "--start" of "keyplan simulate" takes "cold" or "warm", got "${start}".` };
  if (limits !== undefined && limits !== 'independent' && limits !== 'linear') return { error: `option "--limits" of "keyplan simulate" takes "independent" or "linear", got "${limits}".` };
  const h = headroom === undefined ? undefined : Number(headroom);
  if (headroom !== undefined && !(h !== undefined && Number.isFinite(h) && h >= 1 && headroom.trim() !== '')) return { error: `option "--headroom" of "keyplan simulate" takes a number of at least 1 (1.25 is the default), got "${headroom}".` };
  return { ...(start ? { start } : {}), ...(limits ? { limits } : {}), ...(h !== undefined ? { headroom: h } : {}) };
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
  synopsis: 'keyplan simulate <design> [--seed N] [--start cold|warm] [--limits independent|linear] [--headroom H] [--json]',
  summary: 'partitions, hot keys and throttling over the design\'s workload',
  fileName: '<design>',
  flags: ['--json'],
  options: [SEED_OPTION, START_OPTION, LIMITS_OPTION, HEADROOM_OPTION],
  help: `Usage: keyplan simulate <design> [--seed N] [--start cold|warm] [--limits independent|linear] [--headroom H] [--json]

Runs the partition simulator on every table of a design file (*.keyplan.json) over the design's
workload (duration, step, spikes and ramps; one hour at one-second steps when it has none): each
pattern's rate and key popularity land on partitions hashed from the partition-key values, with
DynamoDB's per-partition limits (3,000 RCU / 1,000 WCU), burst and adaptive capacity, split for heat
(which isolates a hot item from its neighbours), on-demand scaling, provisioned limits and auto
scaling, and GSI back-pressure (see docs/dynamodb-rules.md §4, §5 and §10 for the rules and assumptions).

Prints, per table and GSI, the partition count (and what size and throughput need), the largest
partition's share of the load, the share of the time something throttled and the hottest keys; per
access pattern the requests, the throttled fraction and the throttling reasons DynamoDB would report;
per throttled key its busiest second and the write shards that peak needs; then the findings in words.

The design must be valid: run "keyplan check" to see its problems.

Options:
  --seed N   the seed of the simulated arrival noise (default: the workload's seed); the same
             design and seed give the same numbers
  --start cold|warm
             cold (default, for a design never deployed): a new table at its initial capacity (a
             new on-demand table serves 12,000 reads/s or 4,000 writes/s at once; provisioned its
             capacity), growing only by split for heat and on-demand's doubling of its previous
             peak; warm: the design's base load has run before (splits done, burst saved)
  --limits independent|linear
             independent (default): a partition's 3,000 RCU/s and 1,000 WCU/s are separate
             limits, reads never throttle writes; linear: R/3,000 + W/1,000 ≤ 1
  --headroom H
             the headroom of the recommended shard count, at least 1 (default 1.25):
             ceil(peak WCU/s × H / 1,000), and the same with peak RCU/s and 3,000
  --json     print {"design", "seed", "hash", "start", "partitionLimits", "tables": [{"name",
             "durationSeconds", "stepSeconds", "targets": [{"name", "kind", "partitionCount",
             "partitionsForSize", "partitionsForThroughput", "largestShare",
             "throttledTimeShare", "throttles": [{"reason", "requests"}], "keysWithTraffic":
             {"named", "background"}, "hottestKeys" (the most load first; "hot": over 2× the mean key load, or throttled at the mean or above): [{"key",
             "partition", "share", "readUnitsPerSecond", "writeUnitsPerSecond",
             "peakReadUnitsPerSecond", "peakWriteUnitsPerSecond", "hot"}], "throttledKeys": [{"key",
             "partition", "peakReadUnitsPerSecond", "peakWriteUnitsPerSecond",
             "statedPeakReadUnitsPerSecond", "statedPeakWriteUnitsPerSecond",
             "throttledFraction", "reasons", "limit", "minimumShards", "recommendedShards",
             "headroom"}], "summary"}], "patterns": [{"id", "name", "requests", "throttled",
             "throttledFraction", "reasons"}]}], "assumptions"}
             Shares and fractions are 0..1; units are per second (peaks: the busiest second);
             partitions are numbered from 0 in hash-range order.
  -h, --help print this help

Exit codes: 0 the design was simulated (throttling is reported, and does not fail it); 1 the file
cannot be read, is not a Keyplan design, or has problems; 2 usage error.

Example:
  keyplan simulate examples/ecommerce.keyplan.json
  keyplan simulate examples/ecommerce.keyplan.json --seed 7 --json | jq '.tables[0].patterns'
  keyplan simulate examples/ecommerce.keyplan.json --start warm --json | jq '.tables[0].targets[].throttledKeys'`,

  async run({ file, flags, options }, io) {
    const { seed, error } = seedOf(options.get(SEED_OPTION));
    const run = runOptionsOf(options);
    if (error || run.error) {
      writeLines(io.stderr, [errorLine((error ?? run.error) as string)]);
      return EXIT.usage;
    }
    const input = await readValidDesign(file, io.cwd, 'simulate the design');
    if (!input.ok) {
      writeLines(io.stderr, input.errors);
      return EXIT.problems;
    }
    const design = input.value;
    const simulateOptions = { ...(seed === undefined ? {} : { seed }), ...(run.start ? { start: run.start } : {}), ...(run.limits ? { limits: run.limits } : {}), ...(run.headroom !== undefined ? { headroom: run.headroom } : {}) };
    const results = design.tables.map((t) => simulate(design, t.id, simulateOptions));
    const json = simulateJson(design, results[0]?.seed ?? seed ?? 0, results);
    if (flags.has('--json')) {
      writeJson(io.stdout, json);
      return EXIT.ok;
    }
    writeLines(io.stdout, readable(file, json, design.workload ? "the design's workload" : 'no workload in the design: the default hour'));
    return EXIT.ok;
  },
};
