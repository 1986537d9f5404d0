/**
 * `keyplan compare <a> <b> [more…]`: two or more designs side by side (`compareDesigns`, the same
 * report as the app's compare screen), as text, Markdown for a pull request, or JSON; text and
 * Markdown open with the same summary as the screen (each later design against the first). With
 * `--fail-if-costlier PCT` it is a CI guard: exit 1 when a later design costs more on-demand than the
 * first by more than PCT percent, turns a key-based read into a Scan, or adds throttling.
 */
import {
  compareDesigns,
  findRegressions,
  formatComparisonMarkdown,
  formatComparisonText,
  type LabeledDesign,
} from '../../src-shared/compare/index.ts';
import type { Command } from './command.ts';
import { readValidDesign } from './input.ts';
import { errorLine, EXIT, writeJson, writeLines } from './io.ts';

const SEED_OPTION = '--seed';
const FAIL_OPTION = '--fail-if-costlier';

/** A whole number for `--seed`, a non-negative percentage for `--fail-if-costlier`, or a usage error. */
function numberOption(name: string, text: string | undefined, kind: 'integer' | 'percent'): { value?: number; error?: string } {
  if (text === undefined) return {};
  const n = Number(text);
  if (kind === 'integer' && (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n))) {
    return { error: `option "${name}" of "keyplan compare" takes a whole number, got "${text}".` };
  }
  if (kind === 'percent' && (text.trim() === '' || !Number.isFinite(n) || n < 0)) {
    return { error: `option "${name}" of "keyplan compare" takes a percentage of 0 or more (such as 5 or 2.5), got "${text}".` };
  }
  return { value: n };
}

export const compareCommand: Command = {
  name: 'compare',
  synopsis: 'keyplan compare <a> <b> [more…] [--markdown] [--json]',
  summary: 'designs side by side: plans, costs, indexes, partition risk; a CI guard',
  fileName: '<a> <b>',
  fileCount: { min: 2 },
  flags: ['--json', '--markdown', '--no-simulate'],
  options: [FAIL_OPTION, SEED_OPTION],
  help: `Usage: keyplan compare <a> <b> [more…] [--json] [--markdown] [--fail-if-costlier PCT] [--seed N] [--no-simulate]

Compares two or more design files (*.keyplan.json) for the same application, the first (A) as
the baseline; the others are B, C… in the order given. Tables are matched by name (then
position), indexes by name, access patterns by id (then by name); the ones only some designs
have are listed as such. The report opens with a summary of each later design against A:
  what changed      tables, GSIs and LSIs added or removed, their key schema, projection or
                    capacity changed, billing mode or capacity, entities and their key templates,
                    access patterns added or removed
  patterns          how many cost less, more or the same (on-demand dollars per month), each with
                    both costs and its plan on each side where that changed
  net               B − A per month, on-demand and provisioned (storage included)
for example "GSI2 added; 3 patterns cheaper, 1 costlier, 7 unchanged; net −$412.00/month
on-demand, −$120.50/month provisioned". Then, with one column per design, headed A, B…:
  access patterns   each design's plan (operation, index, key condition), RCU or WCU per request
                    and per second, dollars per month on-demand and provisioned
  tables, indexes   key schema, projection, billing, and the reads, writes and storage on each
  totals            reads, writes, storage; storage, on-demand and provisioned dollars per month
  partition risk    the simulator on every side with the first design's workload and one seed:
                    the largest partition's share of the load, throttled time, throttled requests
  warnings          the cost warnings only some designs have
Every row marks the better value with ✓ (✅ in Markdown): lower units, dollars, bytes, partition
share and throttling are better; GetItem and Query (any key-based access) beat a Scan; no
warning beats a warning. Equal values are not marked. Rows with no better side (key schema,
projection, key condition) show only the difference.
Patterns, tables and targets the same in every design are folded into one line.

Every design must be valid: run "keyplan check" to see its problems.

Options:
  --markdown              print the report as Markdown, ready to paste into a pull request
  --json                  print the report as JSON: {"sides": [{"letter", "label", "description",
                          "designName", "designId"}], "summary": {"sides": [{"side", "letter",
                          "changes": [{"kind", "table", "short", "detail", "isHeadline"}],
                          "cheaper", "costlier", "replanned" ([{"key", "name", "before", "after",
                          "delta", "planBefore", "planAfter"}]), "unchanged", "notCosted",
                          "net": {"onDemand", "provisioned"} (figures)}]}, "rules", "patterns":
                          [{"key", "name", "match", "sides", "rows"}], "unmatchedPatterns",
                          "tables": [{"parts": [{"rows"}]}], "totals", "partitionRisk" ({"seed",
                          "workload", "targets", "patterns"}, or null), "warnings", "regressions"};
                          each row is {"key", "label", "format", "rule", "cells": [{"value",
                          "figure"}], "best" (a side's index, "tie" or null), "bestSides",
                          "differs"}; figures carry their derivation
  --fail-if-costlier PCT  exit 1 when a later design costs more than the first by more than PCT
                          percent (the on-demand total per month), turns a GetItem or Query into a
                          Scan, or throttles a pattern the first does not; each reason is one line
                          on stderr (0: any increase fails)
  --seed N                the seed of every side's simulation (default: the workload's seed)
  --no-simulate           skip the partition simulation (faster; no throttling check)
  -h, --help              print this help

Exit codes: 0 compared (and, with --fail-if-costlier, no later design is worse); 1 a file cannot be
read, is not a Keyplan design or has problems, or a later design is worse (--fail-if-costlier);
2 usage error.

Examples:
  keyplan compare main.keyplan.json branch.keyplan.json
  keyplan compare a.keyplan.json b.keyplan.json c.keyplan.json --markdown > comparison.md
  keyplan compare base.keyplan.json design.keyplan.json --fail-if-costlier 5 --no-simulate`,

  async run({ files, flags, options }, io) {
    const seed = numberOption(SEED_OPTION, options.get(SEED_OPTION), 'integer');
    const limit = numberOption(FAIL_OPTION, options.get(FAIL_OPTION), 'percent');
    const usage = seed.error ?? limit.error ?? (flags.has('--json') && flags.has('--markdown') ? 'options "--json" and "--markdown" of "keyplan compare" print different formats; give one of them.' : undefined);
    if (usage) {
      writeLines(io.stderr, [errorLine(usage)]);
      return EXIT.usage;
    }
    const designs: LabeledDesign[] = [];
    const errors: string[] = [];
    for (const file of files) {
      const input = await readValidDesign(file, io.cwd, 'compare the design');
      if (!input.ok) {
        errors.push(...input.errors);
        continue;
      }
      designs.push({ label: file, description: `${file}: design "${input.value.name}"`, design: input.value });
    }
    if (errors.length > 0) {
      writeLines(io.stderr, errors);
      return EXIT.problems;
    }
    const report = compareDesigns(designs, { ...(seed.value === undefined ? {} : { seed: seed.value }), simulate: !flags.has('--no-simulate') });
    const regressions = limit.value === undefined ? [] : findRegressions(report, { maxIncreasePercent: limit.value });
    if (flags.has('--json')) writeJson(io.stdout, { ...report, regressions });
    else if (flags.has('--markdown')) io.stdout.write(formatComparisonMarkdown(report));
    else io.stdout.write(formatComparisonText(report));
    if (regressions.length === 0) return EXIT.ok;
    writeLines(io.stderr, regressions.map((r) => errorLine(r.message)));
    return EXIT.problems;
  },
};
