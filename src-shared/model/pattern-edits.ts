/** Pure edits of access patterns: add, change, reorder, duplicate, remove. */
import type { AccessPattern, Design } from './schema.ts';
import { mapTable, newId, structuredCloneJson } from './edit-helpers.ts';

function mapPatterns(design: Design, tableId: string, fn: (patterns: AccessPattern[]) => AccessPattern[]): Design {
  return mapTable(design, tableId, (table) => ({ ...table, accessPatterns: fn(table.accessPatterns) }));
}

/**
 * Adds a read pattern at 10 requests/s: on `entityId`, knowing the entity's first attribute; or,
 * with `entityId` undefined, on no entity yet, knowing nothing yet (patterns come first).
 */
export function addAccessPattern(design: Design, tableId: string, entityId: string | undefined, name: string): Design {
  const entity = entityId === undefined ? undefined : design.tables.find((t) => t.id === tableId)?.entities.find((e) => e.id === entityId);
  const first = entity?.attributes[0]?.name;
  const pattern: AccessPattern = {
    id: newId('ap'),
    name,
    ...(entityId !== undefined ? { entityId } : {}),
    action: 'get',
    known: first ? [first] : [],
    ratePerSecond: 10,
    consistency: 'eventual',
  };
  return mapPatterns(design, tableId, (patterns) => [...patterns, pattern]);
}

type PatternPatch = Partial<Omit<AccessPattern, 'id'>>;

/** Changes a pattern; a patch value of `undefined` removes that optional field. */
export function updateAccessPattern(design: Design, tableId: string, patternId: string, patch: PatternPatch): Design {
  return mapPatterns(design, tableId, (patterns) =>
    patterns.map((p) => {
      if (p.id !== patternId) return p;
      const next: AccessPattern = { ...p, ...patch };
      for (const key of Object.keys(patch) as (keyof PatternPatch)[]) {
        if (patch[key] === undefined) delete next[key];
      }
      return next;
    }),
  );
}

export function removeAccessPattern(design: Design, tableId: string, patternId: string): Design {
  return mapPatterns(design, tableId, (patterns) => patterns.filter((p) => p.id !== patternId));
}

/** Moves a pattern to position `to` (clamped), keeping the others in order. */
export function moveAccessPattern(design: Design, tableId: string, patternId: string, to: number): Design {
  return mapPatterns(design, tableId, (patterns) => {
    const from = patterns.findIndex((p) => p.id === patternId);
    if (from < 0) return patterns;
    const next = [...patterns];
    const [moved] = next.splice(from, 1);
    next.splice(Math.max(0, Math.min(to, next.length)), 0, moved!);
    return next;
  });
}

/** A copy of a pattern right after it, named "<name> (copy)". */
export function duplicateAccessPattern(design: Design, tableId: string, patternId: string): Design {
  return mapPatterns(design, tableId, (patterns) => {
    const i = patterns.findIndex((p) => p.id === patternId);
    if (i < 0) return patterns;
    const copy: AccessPattern = { ...structuredCloneJson(patterns[i]!), id: newId('ap'), name: `${patterns[i]!.name} (copy)` };
    return [...patterns.slice(0, i + 1), copy, ...patterns.slice(i + 1)];
  });
}
