import type { Problem } from '../../src-shared/model/index.ts';

/** The problems at `path` or anywhere below it (`tables[0].globalSecondaryIndexes[1]` …). */
export function problemsAt(problems: readonly Problem[], path: string): Problem[] {
  return problems.filter(
    (p) => p.path === path || p.path.startsWith(`${path}.`) || p.path.startsWith(`${path}[`),
  );
}

/** The problems exactly at `path`. */
export function problemsExactly(problems: readonly Problem[], path: string): Problem[] {
  return problems.filter((p) => p.path === path);
}
