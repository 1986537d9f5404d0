/**
 * `keyplan solve <design>`: the key-design solver (src-shared/solver) on one table of a design, in
 * process: the best complete key designs for its entities and access patterns, each with its monthly
 * cost, partition risk, the rules it applies and per pattern the request that serves it and why.
 * `--out` writes the best as a Keyplan file. This file only reads options and formats the result.
 */
import { resolve } from 'node:path';
import type { Design, Table } from '../../src-shared/model/index.ts';
import {
  DEFAULT_MAX_GSIS,
  DEFAULT_TIME_BUDGET_MS,
  DEFAULT_TOP,
  inputCost,
  solve,
  type InputCost,
  type Proposal,
  type SolveOptions,
} from '../../src-shared/solver/index.ts';
import type { Command } from './command.ts';
import { problemLine, readDesign } from './input.ts';
import { errorLine, EXIT, writeJson, writeLines } from './io.ts';
import { shownPath, writeAll } from './output.ts';
import { formatUsd, renderTable } from './text.ts';
import { formatFixed, roundTo } from '../../src-shared/numbers/index.ts';

const MAX_TOP = 20;
const MAX_GSIS = 20;

/** What `keyplan solve --json` prints per proposal: everything but the design itself, and its keys in short. */
export interface ProposalJson {
  rank: number;
  monthlyUsd: number;
  /** The proposal's monthly cost ÷ the input design's (absent when the input has no complete key design to price). */
  ratioToInput?: number;
  gsiCount: number;
  feasible: boolean;
  problems: string[];
  partitionRisk?: { throttles: boolean; summary: string };
  rules: { rule: string; text: string }[];
  keys: Record<string, Record<string, string>>;
  indexes: { name: string; kind: 'gsi' | 'lsi'; partitionKey?: string; sortKey?: string; projection: string }[];
  patterns: { id: string; name: string; request: string; target: string; keyCondition?: string; monthlyUsd: number; why: string }[];
}

/** A whole number in [min, max] from an option, or the usage error naming it. */
function wholeNumber(name: string, text: string | undefined, min: number, max: number): { value?: number; error?: string } {
  if (text === undefined) return {};
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) return { error: `option "${name}" of "keyplan solve" takes a whole number from ${min} to ${max}, got "${text}".` };
  return { value: n };
}

/** The table `--table` names (by id or name), or the design's first; else why not. */
function tableOf(design: Design, named: string | undefined): { table?: Table; error?: string } {
  if (named === undefined) return { table: design.tables[0]! };
  const table = design.tables.find((t) => t.id === named || t.name === named);
  if (table) return { table };
  return { error: `option "--table" names no table of the design, got "${named}"; expected one of: ${design.tables.map((t) => `"${t.name}"`).join(', ')}.` };
}

const projectionText = (p: Table['globalSecondaryIndexes'][number]['projection']): string => (p.type === 'INCLUDE' ? `INCLUDE ${p.nonKeyAttributes.join(', ')}` : p.type);
const keyText = (k: unknown): string | undefined => (k === undefined ? undefined : Array.isArray(k) ? k.map((x: { name: string }) => x.name).join(' + ') : (k as { name: string }).name);

function proposalJson(p: Proposal, inputUsd: number | undefined): ProposalJson {
  const table = p.design.tables.find((t) => t.id === p.tableId)!;
  const out: ProposalJson = {
    rank: p.rank,
    monthlyUsd: roundTo(p.monthlyUsd, 6),
    gsiCount: p.gsiCount,
    feasible: p.feasible,
    problems: p.problems,
    rules: p.rules.map((r) => ({ rule: r.rule, text: r.text })),
    keys: Object.fromEntries(table.entities.map((e) => [e.name, Object.fromEntries(Object.entries(e.keys).map(([k, b]) => [k, `${b.template}${b.when ? ` when ${b.when}` : ''}${b.shards ? ` (${b.shards.count} shards, ${b.shards.method})` : ''}`]))])),
    indexes: [
      ...table.globalSecondaryIndexes.map((g) => ({ name: g.name, kind: 'gsi' as const, partitionKey: keyText(g.partitionKey)!, ...(g.sortKey ? { sortKey: keyText(g.sortKey)! } : {}), projection: projectionText(g.projection) })),
      ...table.localSecondaryIndexes.map((l) => ({ name: l.name, kind: 'lsi' as const, sortKey: l.sortKey.name, projection: projectionText(l.projection) })),
    ],
    patterns: p.patterns.map((c) => ({ id: c.patternId, name: c.name, request: c.badge, target: c.target, ...(c.keyCondition ? { keyCondition: c.keyCondition } : {}), monthlyUsd: roundTo(c.monthlyUsd, 6), why: c.why })),
  };
  if (p.partitionRisk) out.partitionRisk = p.partitionRisk;
  if (inputUsd !== undefined && inputUsd > 0) out.ratioToInput = roundTo(p.monthlyUsd / inputUsd, 4);
  return out;
}

/** The input's cost line: priced as the proposals are, and what it costs with the capacity it configures where that differs. */
function inputLine(input: InputCost): string {
  if (input.leftOut > 0) return 'The input has no complete key design to compare with.';
  const billing = input.onDemand ? 'on-demand' : 'provisioned at the capacity its load needs, as each proposal is';
  const configured = input.asConfiguredUsd !== undefined ? ` (${formatUsd(input.asConfiguredUsd)}/month with the capacity it configures)` : '';
  return `The input design costs ${formatUsd(input.monthlyUsd)}/month, ${billing}${configured}.`;
}

function readable(file: string, design: Design, table: Table, proposals: ProposalJson[], evaluated: number, elapsedMs: number, stoppedEarly: boolean, input: InputCost): string[] {
  const lines = [
    `Key designs for table ${table.name} of "${design.name}" (${file}): ${proposals.length} best of ${evaluated} priced in ${formatFixed(elapsedMs / 1000, 1)} s${stoppedEarly ? ' (stopped at the time budget)' : ''}`,
    inputLine(input),
  ];
  for (const p of proposals) {
    lines.push(
      '',
      `#${p.rank}  ${formatUsd(p.monthlyUsd)}/month${p.ratioToInput !== undefined ? ` (${formatFixed(p.ratioToInput, 2)}× the input)` : ''}, ${p.gsiCount} GSI${p.gsiCount === 1 ? '' : 's'}, ${p.feasible ? 'feasible' : 'NOT feasible'}`,
    );
    for (const problem of p.problems) lines.push(`  problem: ${problem}`);
    if (p.partitionRisk) lines.push(`  partitions: ${p.partitionRisk.summary}`);
    lines.push('  Keys');
    for (const [entity, keys] of Object.entries(p.keys)) lines.push(`    ${entity}: ${Object.entries(keys).map(([k, t]) => `${k} = ${t}`).join(', ')}`);
    for (const index of p.indexes) lines.push(`    ${index.kind.toUpperCase()} ${index.name}: ${index.partitionKey ? `partition ${index.partitionKey}` : ''}${index.sortKey ? `${index.partitionKey ? ', ' : ''}sort ${index.sortKey}` : ''}, ${index.projection}`);
    lines.push('  Rules');
    for (const r of p.rules) lines.push(`    ${r.text}`);
    lines.push(
      '  Patterns',
      ...renderTable(
        ['Pattern', 'Request', 'On', '$/month', 'Why'],
        p.patterns.map((c) => [c.name, c.request, c.target, formatUsd(c.monthlyUsd), c.why]),
        ['left', 'left', 'left', 'right', 'left'],
        '    ',
      ),
    );
  }
  return lines;
}

export const solveCommand: Command = {
  name: 'solve',
  synopsis: 'keyplan solve <design> [--top K] [--max-gsis N] [--no-scan] [--seed S] [--budget USD] [--billing B] [--headroom H] [--keep-table-key] [--table NAME] [--out FILE] [--json]',
  summary: 'propose complete key designs for the entities and access patterns',
  fileName: '<design>',
  flags: ['--no-scan', '--keep-table-key', '--json'],
  options: ['--top', '--max-gsis', '--seed', '--out', '--table', '--budget', '--billing', '--headroom'],
  help: `Usage: keyplan solve <design> [--top K] [--max-gsis N] [--no-scan] [--seed S] [--budget USD]
                     [--billing B] [--headroom H] [--keep-table-key] [--table NAME] [--out FILE] [--json]

Proposes complete single-table key designs for a table's entities and access patterns: where each
entity's items live (its own partition, or the item collection of a parent a pattern lists it by),
the GSIs the other patterns need (overloaded, inverted, sparse, projected, or keyed on the items' own
attributes), and write sharding where the simulated workload puts a key past a partition's limit.
Every candidate is priced by the same cost engine as "keyplan cost"; the best are checked by the
partition simulator. The rules and their AWS sources: docs/dynamodb-rules.md §13.

The design needs entities (attributes, item counts, references between entities) and access patterns
(what the caller knows, range, order, rate); key templates and indexes may be absent. Any the design
has are replaced, unless --keep-table-key.

Options:
  --top K           proposals to print (default ${DEFAULT_TOP}, up to ${MAX_TOP})
  --max-gsis N      GSIs a proposal may use (default ${DEFAULT_MAX_GSIS}; DynamoDB allows up to ${MAX_GSIS})
  --no-scan         a pattern served by a Scan makes a proposal infeasible
  --seed S          seed of the search order (default 1): the same design and seed give the same proposals
  --budget USD      proposals costing more per month are infeasible (0 or more)
  --billing B       as-is (the table's own, default), on-demand, or provisioned (capacity sized
                    to each proposal's load)
  --headroom H      a key's peak times H must stay under one partition's limit, else it is
                    sharded (1 to 10, default 1.25)
  --keep-table-key  keep the entities' table key templates; propose only indexes
  --table NAME      the table to design (by name or id; default the first)
  --out FILE        write the best proposal as a Keyplan design file (only when it is feasible)
  --json            print the ranked proposals as JSON: [{"rank", "monthlyUsd", "ratioToInput",
                    "gsiCount", "feasible", "problems", "partitionRisk": {"throttles", "summary"},
                    "rules": [{"rule", "text"}], "keys": {entity: {attribute: template}}, "indexes":
                    [{"name", "kind", "partitionKey", "sortKey", "projection"}], "patterns": [{"id",
                    "name", "request", "target", "keyCondition", "monthlyUsd", "why"}]}]
  -h, --help        print this help

The search stops after ${DEFAULT_TIME_BUDGET_MS / 1000} s with the best designs found so far; the finalists'
simulations stop at 1.2 times that. A finalist with a key over a partition's limit (after sharding)
is not feasible; throttling with no such key (capacity at the workload's peaks, which every key
design meets alike) is said in its partition risk and does not make it infeasible.

Exit codes: 0 the best proposal is feasible; 1 the file cannot be read or is not a design, no
proposal is feasible, or the output cannot be written; 2 usage error.

Examples:
  keyplan solve shop.keyplan.json --no-scan
  keyplan solve shop.keyplan.json --max-gsis 2 --out shop-proposed.keyplan.json
  keyplan solve shop.keyplan.json --json | jq '.[0].keys'`,

  async run({ file, flags, options }, io) {
    const top = wholeNumber('--top', options.get('--top'), 1, MAX_TOP);
    const gsis = wholeNumber('--max-gsis', options.get('--max-gsis'), 0, MAX_GSIS);
    const seed = wholeNumber('--seed', options.get('--seed'), -2_147_483_648, 4_294_967_295);
    const budgetText = options.get('--budget');
    const budget = budgetText === undefined ? undefined : Number(budgetText);
    const budgetError = budgetText !== undefined && !(budget !== undefined && Number.isFinite(budget) && budget >= 0 && budgetText.trim() !== '') ? `option "--budget" of "keyplan solve" takes a monthly amount in USD (0 or more), got "${budgetText}".` : undefined;
    const billingText = options.get('--billing');
    const BILLINGS = { 'as-is': 'asIs', 'on-demand': 'onDemand', provisioned: 'provisioned' } as const;
    const billing = billingText === undefined ? undefined : BILLINGS[billingText as keyof typeof BILLINGS];
    const billingError = billingText !== undefined && billing === undefined ? `option "--billing" of "keyplan solve" takes as-is, on-demand or provisioned, got "${billingText}".` : undefined;
    const headroomText = options.get('--headroom');
    const headroom = headroomText === undefined ? undefined : Number(headroomText);
    const headroomError = headroomText !== undefined && !(headroom !== undefined && Number.isFinite(headroom) && headroom >= 1 && headroom <= 10 && headroomText.trim() !== '') ? `option "--headroom" of "keyplan solve" takes a number from 1 to 10, got "${headroomText}".` : undefined;
    const error = top.error ?? gsis.error ?? seed.error ?? budgetError ?? billingError ?? headroomError;
    if (error) {
      writeLines(io.stderr, [errorLine(error)]);
      return EXIT.usage;
    }
    const input = await readDesign(file, io.cwd);
    if (input.kind === 'unreadable') {
      writeLines(io.stderr, [errorLine(input.message)]);
      return EXIT.problems;
    }
    if (input.kind === 'invalid') {
      writeLines(io.stderr, [...input.problems.map((p) => errorLine(`${file}: ${problemLine(p)}`)), errorLine(`"${file}" cannot be opened: fix its shape first (see "keyplan check ${file}").`)]);
      return EXIT.problems;
    }
    const design = input.design;
    const { table, error: tableError } = tableOf(design, options.get('--table'));
    if (!table) {
      writeLines(io.stderr, [errorLine(tableError!)]);
      return EXIT.problems;
    }
    if (table.entities.length === 0 || table.accessPatterns.length === 0) {
      writeLines(io.stderr, [errorLine(`table ${table.name} of "${file}" has ${table.entities.length === 0 ? 'no entities' : 'no access patterns'}; the solver designs keys for entities and their access patterns.`)]);
      return EXIT.problems;
    }
    const solveOptions: SolveOptions = {
      ...(top.value !== undefined ? { top: top.value } : {}),
      ...(gsis.value !== undefined ? { maxGsis: gsis.value } : {}),
      ...(seed.value !== undefined ? { seed: seed.value } : {}),
      ...(budget !== undefined ? { monthlyBudgetUsd: budget } : {}),
      ...(billing !== undefined ? { billing } : {}),
      ...(headroom !== undefined ? { headroom } : {}),
      ...(flags.has('--no-scan') ? { noScan: true } : {}),
      ...(flags.has('--keep-table-key') ? { keepTableKey: true } : {}),
    };
    const result = solve(design, table.id, solveOptions);
    // The input's cost priced as the proposals are (their billing, capacity sized to the load), when every pattern of the table has a key design to price.
    const inputPrice = inputCost(design, table, solveOptions);
    const inputUsd = inputPrice.leftOut === 0 ? inputPrice.monthlyUsd : undefined;
    const proposals = result.proposals.map((p) => proposalJson(p, inputUsd));
    if (flags.has('--json')) writeJson(io.stdout, proposals);
    else writeLines(io.stdout, readable(file, design, table, proposals, result.evaluated, result.elapsedMs, result.stoppedEarly, inputPrice));
    const best = result.proposals[0];
    if (!best || !best.feasible) {
      writeLines(io.stderr, [errorLine(`no proposal for table ${table.name} is feasible${best ? `: ${best.problems[0] ?? ''}` : ''}${options.has('--out') ? '; nothing written' : ''}.`)]);
      return EXIT.problems;
    }
    const out = options.get('--out');
    if (out !== undefined) {
      const written = await writeAll([{ path: resolve(io.cwd, out), content: `${JSON.stringify(best.design, null, 2)}\n` }], (p) => shownPath(io.cwd, p));
      if (!written.ok) {
        writeLines(io.stderr, written.errors.map(errorLine));
        return EXIT.problems;
      }
      if (!flags.has('--json')) writeLines(io.stdout, ['', `Wrote the best proposal to ${out}`]);
    }
    return EXIT.ok;
  },
};
