/**
 * `keyplan run <design>`: the design's table created on a real DynamoDB-compatible engine (dynalite
 * embedded by default, an endpoint such as DynamoDB Local, or an AWS account), sample items loaded,
 * every access pattern's planned request sent, and what the engine measured set beside Keyplan's
 * prediction (`runDesign`, the same run as the app's Run screen). A CI guard: exit 1 when a figure is
 * off beyond what a known engine difference explains. This file parses options and formats the report.
 */
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { formatCount, formatNumber } from '../../src-shared/numbers/index.ts';
import { MAX_RUN_ITEMS_PER_ENTITY, MAX_RUN_REPEAT } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import type { Agreement, EngineChoice, PatternReport, RunReport } from '../../src-shared/run/index.ts';
import { ensurePrivateFolder, resolveDataDir } from '../files/data-folder.ts';
import type { JournalRecord, RunJournal } from '../run/journal.ts';
import type { Command } from './command.ts';
import { readValidDesign } from './input.ts';
import { errorLine, EXIT, writeJson, writeLines, type CliIo } from './io.ts';
import { renderTable } from './text.ts';

const TABLE_OPTION = '--table';
const ENDPOINT_OPTION = '--endpoint';
const REGION_OPTION = '--region';
const PROFILE_OPTION = '--profile';
const ITEMS_OPTION = '--items';
const REPEAT_OPTION = '--repeat';
const SEED_OPTION = '--seed';
const DATA_DIR_OPTION = '--data-dir';
const CLEANUP_FLAG = '--cleanup';

/** The signals that cancel a run (the runner then removes its table), and their numbers for the exit code 128 + n. */
const CANCEL_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type CancelSignal = keyof typeof CANCEL_SIGNALS;

// The same patterns the app's contract accepts (contract-schemas.ts: EngineChoice).
const ENDPOINT_PATTERN = /^https?:\/\/\S+$/;
const REGION_PATTERN = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** How each agreement reads in the text report. */
const MARKS: Record<Agreement, string> = {
  agrees: '✓ agrees',
  explained: '≈ explained',
  unexplained: '✗ unexplained',
  notRun: '– not run',
  failed: '✗ failed',
};

interface RunSettings {
  engine: EngineChoice;
  tableId?: string;
  itemsPerEntity?: number;
  repeat?: number;
  seed?: number;
}

/** A whole number option within bounds, or a usage error naming them. */
function integerOption(options: ReadonlyMap<string, string>, name: string, min: number, max: number): { value?: number; error?: string } {
  const text = options.get(name);
  if (text === undefined) return {};
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? (min === Number.MIN_SAFE_INTEGER ? 'a whole number' : `a whole number of at least ${min}`) : `a whole number from ${min} to ${formatCount(max)}`;
    return { error: `option "${name}" of "keyplan run" takes ${range}, got "${text}".` };
  }
  return { value: n };
}

/** The engine and numbers the options ask for, or the usage errors (one sentence each). */
function settingsOf(options: ReadonlyMap<string, string>): { settings?: RunSettings; errors: string[] } {
  const errors: string[] = [];
  const endpoint = options.get(ENDPOINT_OPTION);
  const region = options.get(REGION_OPTION);
  const profile = options.get(PROFILE_OPTION);
  let engine: EngineChoice = { kind: 'embedded' };
  if (endpoint !== undefined && region !== undefined) {
    errors.push('options "--endpoint" and "--region" of "keyplan run" name two engines; give one of them (--endpoint for DynamoDB Local, --region for AWS).');
  } else if (endpoint !== undefined) {
    if (!ENDPOINT_PATTERN.test(endpoint)) errors.push(`option "--endpoint" of "keyplan run" takes an http:// or https:// URL such as http://localhost:8000, got "${endpoint}".`);
    else engine = { kind: 'local', endpoint };
  } else if (region !== undefined) {
    if (!REGION_PATTERN.test(region)) errors.push(`option "--region" of "keyplan run" takes an AWS region such as us-east-1, got "${region}".`);
    else engine = { kind: 'aws', region, ...(profile === undefined ? {} : { profile }) };
  }
  if (profile !== undefined && region === undefined) errors.push('option "--profile" of "keyplan run" names the AWS profile of a run on AWS; give --region as well.');
  const items = integerOption(options, ITEMS_OPTION, 1, MAX_RUN_ITEMS_PER_ENTITY);
  const repeat = integerOption(options, REPEAT_OPTION, 1, MAX_RUN_REPEAT);
  const seed = integerOption(options, SEED_OPTION, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  for (const e of [items.error, repeat.error, seed.error]) if (e) errors.push(e);
  if (errors.length > 0) return { errors };
  const tableId = options.get(TABLE_OPTION);
  return {
    errors,
    settings: {
      engine,
      ...(tableId === undefined ? {} : { tableId }),
      ...(items.value === undefined ? {} : { itemsPerEntity: items.value }),
      ...(repeat.value === undefined ? {} : { repeat: repeat.value }),
      ...(seed.value === undefined ? {} : { seed: seed.value }),
    },
  };
}

/** The design table `--table` names (by id or name), or its only table; else why not. */
function pickTable(design: Design, wanted: string | undefined): { tableId?: string; error?: string } {
  const list = design.tables.map((t) => `"${t.id}" (${t.name})`).join(', ');
  if (wanted === undefined) {
    if (design.tables.length === 1) return { tableId: design.tables[0]!.id };
    return { error: `the design has ${design.tables.length} tables; choose one with --table: ${list}.` };
  }
  const table = design.tables.find((t) => t.id === wanted) ?? design.tables.find((t) => t.name === wanted);
  return table ? { tableId: table.id } : { error: `option "--table" of "keyplan run" names no table of the design, got "${wanted}"; expected ${list}.` };
}

/**
 * Asks on the terminal before a run that costs money; false when stdin is not a terminal (a script
 * must say --yes: nothing answers there).
 */
async function confirmOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(`${question} [y/N] `)).trim());
  } finally {
    terminal.close();
  }
}

const units = (n: number, unit: 'read' | 'write') => `${formatNumber(n, 2)} ${unit === 'read' ? 'RCU' : 'WCU'}`;
const ms = (n: number) => `${formatNumber(n, n < 10 ? 1 : 0)} ms`;

/** One row per pattern: predicted and measured units per call, items, p50 latency and the agreement. */
function patternRow(p: PatternReport): string[] {
  const unit = p.predicted?.unit ?? (p.kind === 'read' ? 'read' : 'write');
  const m = p.measured;
  return [
    p.name,
    `${p.operation} ${p.target}`,
    p.predicted ? units(p.predicted.total, unit) : '-',
    m ? units(m.total, unit) : '-',
    m ? `${formatNumber(m.itemsRead, 1)} / ${formatNumber(m.itemsReturned, 1)}` : '-',
    m ? ms(m.latency.p50) : '-',
    MARKS[p.agreement],
  ];
}

function readable(file: string, report: RunReport): string[] {
  const lines = [
    `Run of ${file} on ${report.engine.label}: table ${report.table.name}, ${formatCount(report.itemsLoaded)} items loaded, ${report.repeat} call${report.repeat === 1 ? '' : 's'} per pattern`,
    ...report.table.omittedIndexes.map((i) => `  GSI ${i.name} not created: ${i.reason}`),
    '',
  ];
  const header = ['Access pattern', 'Operation', 'Predicted', 'Measured', 'Items read / returned', 'p50', 'Agreement'];
  const rows = renderTable(header, report.patterns.map(patternRow), ['left', 'left', 'right', 'right', 'right', 'right', 'left'], '  ');
  lines.push(rows[0]!);
  report.patterns.forEach((p, i) => {
    lines.push(rows[i + 1]!);
    if (p.message) lines.push(`      ${p.message}`);
    for (const c of p.causes) lines.push(`      ${c.text}`);
    for (const note of p.notes) lines.push(`      Note: ${note}`);
  });
  const s = report.summary;
  lines.push(
    '',
    `Summary: ${s.agrees} agree, ${s.explained} explained, ${s.unexplained} unexplained, ${s.notRun} not run, ${s.failed} failed; units per call, means over the calls.`,
    report.cleanup.leftover.length === 0
      ? `Tables removed: ${report.cleanup.removed.join(', ') || 'none'}.`
      : `Tables that could not be removed (delete them, or run "keyplan run --cleanup" later): ${report.cleanup.leftover.join(', ')}.`,
  );
  return lines;
}

/** A progress line on an interactive stderr only, so logs and pipes stay clean. */
function progressWriter(io: CliIo): ((p: { done: number; total: number; label: string }) => void) | undefined {
  if (!(io.stderr as { isTTY?: boolean }).isTTY) return undefined;
  return (p) => io.stderr.write(`\r\x1b[K${p.done}/${p.total} ${p.label}`);
}

/**
 * The run, with Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`, CI cancel) and SIGHUP (the terminal
 * closed) turned into a cancel: the runner then removes the table it created before this returns.
 * A second signal ends the process at once (the listeners are gone); the journal remembers the
 * table for `keyplan run --cleanup`.
 */
async function runCanceledOnSignal<T>(start: (signal: AbortSignal) => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; signal?: CancelSignal }> {
  const controller = new AbortController();
  let received: CancelSignal | undefined;
  const listeners = (Object.keys(CANCEL_SIGNALS) as CancelSignal[]).map((name) => {
    const listener = () => {
      received ??= name;
      controller.abort();
    };
    process.once(name, listener);
    return [name, listener] as const;
  });
  try {
    const [outcome] = await Promise.allSettled([start(controller.signal)]);
    return { outcome: outcome!, ...(received === undefined ? {} : { signal: received }) };
  } finally {
    for (const [name, listener] of listeners) process.removeListener(name, listener);
  }
}

/** The CLI's run journal in the user's data folder (`<data>/cli/run-journal`; see run/journal.ts). */
async function cliJournal(options: ReadonlyMap<string, string>): Promise<RunJournal> {
  const root = resolveDataDir(options.get(DATA_DIR_OPTION));
  const folder = await ensurePrivateFolder(root, join(root, 'cli'));
  const { createRunJournal } = await import('../run/journal.ts');
  return createRunJournal(join(folder, 'run-journal'), { keyPath: join(folder, '..', 'run-journal.key'), scope: 'cli' });
}

/** Whether process `pid` is running (a signal 0 reaches it); a `keyplan run` still going keeps its table. */
function isRunning(pid: number | undefined): boolean {
  if (pid === undefined || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The journal's tables no running `keyplan run` holds, embedded ones aside (they died with their process). */
async function abandonedTables(journal: RunJournal): Promise<JournalRecord[]> {
  return (await journal.list()).filter((r) => !isRunning(r.pid));
}

/** `keyplan run --cleanup`: removes the tables killed runs left (checked as run/journal.ts says). */
async function cleanUp(journal: RunJournal, json: boolean, io: CliIo): Promise<number> {
  const { cleanupLeftovers } = await import('../run/journal.ts');
  const records = await abandonedTables(journal);
  const result = await cleanupLeftovers(journal, [...new Set(records.map((r) => r.name))]);
  // Embedded-engine tables went with the process that ran them: forgotten, not reported.
  const embedded = new Set(records.filter((r) => r.engine.kind === 'embedded').map((r) => r.name));
  const removed = result.removed.filter((n) => !embedded.has(n));
  if (json) writeJson(io.stdout, { removed, failed: result.failed });
  else writeLines(io.stdout, [removed.length === 0 && result.failed.length === 0 ? 'No tables left by earlier runs.' : `Tables removed: ${removed.join(', ') || 'none'}.`]);
  writeLines(io.stderr, result.failed.map((f) => errorLine(`${f.name}: ${f.message}`)));
  return result.failed.length === 0 ? EXIT.ok : EXIT.problems;
}

// AppError messages (run.engine, run.tableExists, run.notConfirmed, run.failed, task.canceled) say what and where.
const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const runCommand: Command = {
  name: 'run',
  synopsis: 'keyplan run <design> [--endpoint URL | --region R [--profile P] --yes] [--items N] [--repeat K] [--json] | --cleanup',
  summary: 'every access pattern on a real DynamoDB engine: measured units against predicted',
  fileName: '<design>',
  fileCount: { min: 0, max: 1 },
  flags: ['--json', '--yes', CLEANUP_FLAG],
  options: [TABLE_OPTION, ENDPOINT_OPTION, REGION_OPTION, PROFILE_OPTION, ITEMS_OPTION, REPEAT_OPTION, SEED_OPTION, DATA_DIR_OPTION],
  help: `Usage: keyplan run <design> [--table ID] [--endpoint URL | --region R [--profile P] [--yes]]
                  [--items N] [--repeat K] [--seed S] [--data-dir DIR] [--json]
       keyplan run --cleanup [--data-dir DIR] [--json]

Runs a design file (*.keyplan.json) on a real DynamoDB-compatible engine: creates the design's table
as "keyplan-run-<short id>-<name>" (it refuses to touch a table that exists), waits for it, loads N
seeded sample items per entity with BatchWriteItem, sends every access pattern's planned request K
times with ReturnConsumedCapacity INDEXES (Query and Scan paged to the end), measures capacity units,
items read and returned, pages and latency, then deletes the table (also on error, on Ctrl-C and
on SIGTERM or SIGHUP, after which it exits 128 + the signal's number: 130, 143, 129).

The table carries the tags keyplan:run-id and keyplan:run-token, and is recorded in a run journal
in your data folder before it is created, so a run killed outright (SIGKILL, power loss) leaves a
record: the next "keyplan run" names what was left, and "keyplan run --cleanup" removes it. A
table is removed only when its record's signature verifies, its name is the run's, its tags are
read back unchanged and, on AWS, the credentials still belong to the account it was created in.

Per pattern it prints Keyplan's predicted units per call beside the measured ones, the items read
and returned, the median latency and how they agree:
  ✓ agrees        measured equals predicted (to a hundredth of a unit)
  ≈ explained     they differ, and each difference has a known cause, listed below the row
                  (dynalite's documented departures from DynamoDB, or sample items whose sizes
                  differ from the design's averages)
  ✗ unexplained   they differ beyond what a known cause explains
  – not run       the engine cannot run it (the embedded engine has no transactions or
                  multi-attribute GSI keys: such patterns need DynamoDB Local 3.3 or later, or AWS)
  ✗ failed        the engine refused the request; its error is shown

Engines:
  (default)          the embedded engine: dynalite, started in this process on 127.0.0.1, in memory
  --endpoint URL     an engine you run, such as DynamoDB Local (http://localhost:8000)
  --region R         an AWS account, through the AWS SDK's default credential chain (environment,
  --profile P        ~/.aws/config and credentials; P: a named profile). Keyplan never stores or
                     prints credentials. A run on AWS creates a real table, which costs money: it
                     asks on a terminal, and elsewhere refuses unless --yes confirms it.

Options:
  --table ID   the design table to run, by id or name (default: the design's only table)
  --items N    sample items per entity, 1 to ${formatCount(MAX_RUN_ITEMS_PER_ENTITY)} (default 20)
  --repeat K   calls per access pattern, 1 to ${MAX_RUN_REPEAT}, each with another sample item's values (default 5)
  --seed S     the seed of the sample items; the same design and seed load the same items
  --yes        confirm a run on AWS without asking (ignored by the other engines)
  --cleanup    remove the tables earlier runs were killed before removing (no <design>); exit 1
               when one cannot be removed, with why. --json prints {"removed", "failed"}
  --data-dir DIR  the data folder holding the run journal (default $KEYPLAN_DATA_DIR, else
               ~/.local/share/keyplan, ~/Library/Application Support/Keyplan or %APPDATA%\\Keyplan)
  --json       print the run's report as JSON: {"runId", "engine": {"kind", "label"}, "table":
               {"tableId", "name", "omittedIndexes"}, "itemsLoaded", "repeat", "patterns":
               [{"patternId", "name", "kind", "operation", "target", "agreement", "predicted",
               "measured", "byRule", "causes": [{"code", "text"}], "message", "requests"}],
               "summary", "cleanup": {"removed", "leftover"}, "startedAt", "durationMs"}
  -h, --help   print this help

Exit codes: 0 every pattern agrees, is explained or was not run; 1 a pattern is unexplained or
failed, the design cannot be read or has problems, or the engine cannot be reached or the run
fails (one line on stderr); 2 usage error (also: --region on a non-terminal without --yes).

Examples:
  keyplan run examples/ecommerce.keyplan.json
  keyplan run design.keyplan.json --endpoint http://localhost:8000 --items 50 --json
  keyplan run design.keyplan.json --region eu-west-1 --profile sandbox --yes
  keyplan run --cleanup`,

  async run({ file, flags, options }, io) {
    if (flags.has(CLEANUP_FLAG)) {
      if (file !== '') {
        writeLines(io.stderr, [errorLine(`"keyplan run --cleanup" takes no design file, got "${file}"; it removes what earlier runs left.`)]);
        return EXIT.usage;
      }
      try {
        return await cleanUp(await cliJournal(options), flags.has('--json'), io);
      } catch (error) {
        writeLines(io.stderr, [errorLine(errorMessage(error))]);
        return EXIT.problems;
      }
    }
    if (file === '') {
      writeLines(io.stderr, [errorLine('"keyplan run" needs <design> (or --cleanup); usage: keyplan run <design> [options], see "keyplan run --help".')]);
      return EXIT.usage;
    }
    const { settings, errors } = settingsOf(options);
    if (!settings) {
      writeLines(io.stderr, errors.map(errorLine));
      return EXIT.usage;
    }
    const isAws = settings.engine.kind === 'aws';
    if (isAws && !flags.has('--yes') && !process.stdin.isTTY) {
      writeLines(io.stderr, [errorLine('a run on AWS creates a real table in your account, which costs money; add --yes to confirm it (no terminal to ask on).')]);
      return EXIT.usage;
    }
    const input = await readValidDesign(file, io.cwd, 'run the design');
    if (!input.ok) {
      writeLines(io.stderr, input.errors);
      return EXIT.problems;
    }
    const design = input.value;
    const table = pickTable(design, settings.tableId);
    if (table.tableId === undefined) {
      writeLines(io.stderr, [errorLine(table.error ?? 'no table to run.')]);
      return EXIT.usage;
    }
    try {
      // Loaded on use: the engine and the AWS SDK stay out of every other command's start-up.
      const { identifyEngine, runDesign } = await import('../run/runner.ts');
      let confirmAccount: string | undefined;
      if (isAws) {
        const identity = await identifyEngine(settings.engine);
        confirmAccount = identity.account;
        const where = `${identity.label}${identity.arn ? ` as ${identity.arn}` : ''}`;
        if (!flags.has('--yes') && !(await confirmOnTerminal(`Create, load and delete a table "keyplan-run-…" in ${where}? This costs money.`))) {
          writeLines(io.stderr, [errorLine(`run on ${identity.label} not confirmed; nothing was created.`)]);
          return EXIT.problems;
        }
      }
      const journal = await cliJournal(options);
      const left = (await abandonedTables(journal)).filter((r) => r.engine.kind !== 'embedded');
      if (left.length > 0) {
        const names = [...new Set(left.map((r) => `${r.name} (${r.engineLabel})`))].join(', ');
        writeLines(io.stderr, [`keyplan: earlier runs were stopped before removing ${left.length === 1 ? 'a table' : `${left.length} tables`}: ${names}; "keyplan run --cleanup" removes them.`]);
      }
      const onProgress = progressWriter(io);
      const { outcome, signal } = await runCanceledOnSignal((abort) =>
        runDesign({
          design,
          tableId: table.tableId!,
          engine: settings.engine,
          signal: abort,
          journal,
          ...(settings.itemsPerEntity === undefined ? {} : { itemsPerEntity: settings.itemsPerEntity }),
          ...(settings.repeat === undefined ? {} : { repeat: settings.repeat }),
          ...(settings.seed === undefined ? {} : { seed: settings.seed }),
          ...(confirmAccount === undefined ? {} : { confirmAccount }),
          ...(onProgress ? { onProgress } : {}),
        }),
      );
      if (signal !== undefined) {
        if (onProgress) io.stderr.write('\r\x1b[K');
        const said = outcome.status === 'rejected' ? errorMessage(outcome.reason) : 'The run had finished.';
        writeLines(io.stderr, [errorLine(`stopped by ${signal}. ${said}`)]);
        return 128 + CANCEL_SIGNALS[signal];
      }
      if (outcome.status === 'rejected') throw outcome.reason;
      const report = outcome.value;
      if (onProgress) io.stderr.write('\r\x1b[K');
      if (flags.has('--json')) writeJson(io.stdout, report);
      else writeLines(io.stdout, readable(file, report));
      const failing = report.patterns.filter((p) => p.agreement === 'unexplained' || p.agreement === 'failed');
      if (failing.length === 0) return EXIT.ok;
      writeLines(io.stderr, failing.map((p) => errorLine(`pattern "${p.name}" ${p.agreement === 'failed' ? `failed: ${p.message ?? 'the engine refused the request'}` : 'measured off the prediction beyond what a known cause explains'}.`)));
      return EXIT.problems;
    } catch (error) {
      writeLines(io.stderr, [errorLine(errorMessage(error))]);
      return EXIT.problems;
    }
  },
};
