/**
 * `keyplan check <design>`: the design's problems (DynamoDB's rules and Keyplan's, each with its
 * path) and which operation serves each access pattern. Fails on any problem or unserved pattern.
 */
import type { Design, Problem } from '../../src-shared/model/index.ts';
import { validateDesign } from '../../src-shared/model/index.ts';
import { costedTable, itemLimitWarnings } from '../../src-shared/costing/index.ts';
import { planTable, type Plan } from '../../src-shared/planner/index.ts';
import type { Command } from './command.ts';
import { errorLine, EXIT, writeJson, writeLines } from './io.ts';
import { problemLine, readDesign } from './input.ts';
import { indexOf, operationText, suggestionJson, suggestionText } from './plan-text.ts';
import { renderTable } from './text.ts';

interface Coverage {
  tableIndex: number;
  table: string;
  pattern: Design['tables'][number]['accessPatterns'][number];
  plan: Plan;
}

function coverageOf(design: Design): Coverage[] {
  return design.tables.flatMap((table, tableIndex) => {
    const plans = planTable(table);
    return table.accessPatterns.map((pattern, i) => ({ tableIndex, table: table.name, pattern, plan: plans[i]! }));
  });
}

/**
 * DynamoDB's hard limits on what is stored, checked on the estimated item sizes (the cost engine's
 * `cost.itemTooLarge`, `cost.itemCollectionTooLarge`): a design over them cannot take its writes.
 */
function limitProblems(design: Design): Problem[] {
  return design.tables.flatMap((table, t) =>
    itemLimitWarnings(costedTable(table)).map((w): Problem => {
      const e = table.entities.findIndex((x) => x.id === w.entityId);
      return { code: w.code === 'cost.itemTooLarge' ? 'model.itemTooLarge' : 'model.itemCollectionTooLarge', path: e >= 0 ? `tables[${t}].entities[${e}]` : `tables[${t}]`, message: w.message };
    }),
  );
}

/** Patterns without keys yet (no entity, or no template for the table's keys): work in progress, not a missing index. */
const needsKeys = (c: Coverage): boolean => c.plan.needsKeyDesign !== undefined;

function checkJson(design: Design | undefined, problems: Problem[], coverage: Coverage[]) {
  const unserved = coverage.filter((c) => !c.plan.isServed && !needsKeys(c)).length;
  const needingKeys = coverage.filter(needsKeys).length;
  return {
    ok: problems.length === 0 && unserved === 0 && needingKeys === 0,
    design: design?.name ?? null,
    problems: problems.map((p) => ({ code: p.code, path: p.path, message: p.message })),
    patterns: coverage.map(({ table, pattern, plan }) => ({
      table,
      id: pattern.id,
      name: pattern.name,
      served: plan.isServed,
      needsKeyDesign: plan.needsKeyDesign ?? null,
      operation: plan.operation,
      badge: plan.badge,
      index: indexOf(plan.target),
      keyCondition: plan.keyCondition ?? null,
      suggestion: plan.isServed ? null : suggestionJson(plan.suggestion),
      warnings: plan.warnings ?? [],
    })),
    summary: { problems: problems.length, patterns: coverage.length, served: coverage.length - unserved - needingKeys, unserved, needKeyDesign: needingKeys },
  };
}

function readable(design: Design | undefined, problems: Problem[], coverage: Coverage[]): string[] {
  const lines = problems.map(problemLine);
  if (design) {
    design.tables.forEach((table, tableIndex) => {
      const rows = coverage.filter((c) => c.tableIndex === tableIndex);
      const served = rows.filter((c) => c.plan.isServed).length;
      if (lines.length > 0) lines.push('');
      lines.push(`Table ${table.name}: ${served} of ${rows.length} access pattern${rows.length === 1 ? '' : 's'} served`);
      if (rows.length === 0) return;
      const cells = rows.map(({ pattern, plan }) =>
        plan.needsKeyDesign !== undefined
          ? ['NEEDS KEYS', pattern.name, 'needs a key design', plan.needsKeyDesign]
          : [
              plan.isServed ? 'ok' : 'UNSERVED',
              pattern.name,
              operationText(plan),
              plan.isServed ? (plan.keyCondition ?? '') : plan.suggestion ? suggestionText(plan.suggestion) : 'no index suggested',
            ],
      );
      const rendered = renderTable(['', 'Access pattern', 'Served by', 'Key condition / suggested index'], cells, ['left', 'left', 'left', 'left'], '  ');
      lines.push(rendered[0]!);
      rows.forEach(({ plan }, i) => {
        lines.push(rendered[i + 1]!);
        for (const w of plan.warnings ?? []) lines.push(`      note: ${w}`);
      });
    });
  }
  const unserved = coverage.filter((c) => !c.plan.isServed && !needsKeys(c)).length;
  const needingKeys = coverage.filter(needsKeys).length;
  const failures = [
    ...(problems.length > 0 ? [`${problems.length} problem${problems.length === 1 ? '' : 's'}`] : []),
    ...(unserved > 0 ? [`${unserved} unserved access pattern${unserved === 1 ? '' : 's'}`] : []),
    ...(needingKeys > 0 ? [`${needingKeys} access pattern${needingKeys === 1 ? ' needs' : 's need'} a key design`] : []),
  ];
  lines.push('', failures.length === 0 ? 'OK: no problems, every access pattern is served.' : `FAILED: ${failures.join(', ')}.`);
  return lines;
}

export const checkCommand: Command = {
  name: 'check',
  synopsis: 'keyplan check <design> [--json]',
  summary: 'validate a design and show which operation serves each access pattern',
  fileName: '<design>',
  flags: ['--json'],
  help: `Usage: keyplan check <design> [--json]

Checks a design file (*.keyplan.json) against DynamoDB's rules and Keyplan's (names, limits, key
schemas, key templates, projections, billing, access patterns; items estimated over 400 KB, an LSI
item collection over 10 GB) and prints every problem as "path: message". Then plans each access pattern and shows the operation that serves it (GetItem,
Query on the table or an index, ...) with its key condition, or UNSERVED with the index to add when
only a Scan would do.

Options:
  --json     print {"ok": bool, "design": name, "problems": [{"code", "path", "message"}],
             "patterns": [{"table", "id", "name", "served", "operation", "badge", "index" (null: the
             table), "keyCondition", "suggestion" (null, or {"kind", "indexName", "partitionKey",
             "sortKey", "projection", "reason"}), "warnings"}],
             "summary": {"problems", "patterns", "served", "unserved"}}
  -h, --help print this help

Exit codes: 0 no problems and every pattern served; 1 problems or unserved patterns, or the file
cannot be read or is not a Keyplan design; 2 usage error.

Example:
  keyplan check examples/ecommerce.keyplan.json`,

  async run({ file, flags }, io) {
    const input = await readDesign(file, io.cwd);
    if (input.kind === 'unreadable') {
      writeLines(io.stderr, [errorLine(input.message)]);
      return EXIT.problems;
    }
    const design = input.kind === 'design' ? input.design : undefined;
    // DynamoDB's item-size limits once the design's own rules hold (sizes are estimated from a valid design).
    const ruleProblems = input.kind === 'design' ? validateDesign(input.design) : input.problems;
    const problems = input.kind === 'design' && ruleProblems.length === 0 ? limitProblems(input.design) : ruleProblems;
    const coverage = design ? coverageOf(design) : [];
    const report = checkJson(design, problems, coverage);
    if (flags.has('--json')) writeJson(io.stdout, report);
    else writeLines(io.stdout, readable(design, problems, coverage));
    return report.ok ? EXIT.ok : EXIT.problems;
  },
};
