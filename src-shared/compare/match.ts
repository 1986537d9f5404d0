/**
 * Matching the parts of several designs: tables by name, then by position; indexes by name;
 * access patterns by id, then by name. Each match is a group holding at most one item per design.
 */

/** How a group's items were matched: all by the same key, or some by the fallback; `unmatched`: one design only. */
export type MatchKind = 'id' | 'name' | 'position' | 'unmatched';

/** Items of several designs that stand for the same thing; `items[side]` is undefined where a design has none. */
export interface MatchGroup<T> {
  items: (T | undefined)[];
  match: MatchKind;
}

/** One way to pair an item with a group: a key per item; `undefined` keys never match. */
export interface MatchPass<T> {
  kind: Exclude<MatchKind, 'unmatched'>;
  keyOf: (item: T, indexInSide: number) => string | undefined;
}

/**
 * Groups the items of every side. Sides are taken in order; for each, every pass runs over the
 * items not yet placed (so an id match always wins over a name match), joining the first group
 * that has no item of this side and whose items share the key. `prefer` picks among several such
 * groups (the pattern in the same matched table). Groups keep the order of first appearance.
 */
export function matchItems<T>(
  sides: readonly (readonly T[])[],
  passes: readonly MatchPass<T>[],
  prefer?: (group: MatchGroup<T>, item: T) => boolean,
): MatchGroup<T>[] {
  const groups: MatchGroup<T>[] = [];
  // The keys of a group's items under each pass, with each item's position in its side.
  const keysOf = new Map<MatchGroup<T>, Map<string, Set<string>>>();
  const addKeys = (group: MatchGroup<T>, item: T, index: number) => {
    let byPass = keysOf.get(group);
    if (!byPass) keysOf.set(group, (byPass = new Map()));
    for (const pass of passes) {
      const key = pass.keyOf(item, index);
      if (key === undefined) continue;
      const set = byPass.get(pass.kind) ?? new Set<string>();
      set.add(key);
      byPass.set(pass.kind, set);
    }
  };
  sides.forEach((items, side) => {
    const placed = new Set<number>();
    const startCount = groups.length;
    for (const pass of passes) {
      items.forEach((item, index) => {
        if (placed.has(index)) return;
        const key = pass.keyOf(item, index);
        if (key === undefined) return;
        const candidates = groups
          .slice(0, startCount)
          .filter((g) => g.items[side] === undefined && keysOf.get(g)?.get(pass.kind)?.has(key));
        const group = (prefer && candidates.find((g) => prefer(g, item))) ?? candidates[0];
        if (!group) return;
        group.items[side] = item;
        if (group.match === 'id' || group.match === 'unmatched') group.match = pass.kind;
        else if (pass.kind !== 'id' && group.match !== pass.kind) group.match = pass.kind;
        addKeys(group, item, index);
        placed.add(index);
      });
    }
    items.forEach((item, index) => {
      if (placed.has(index)) return;
      const group: MatchGroup<T> = { items: sides.map(() => undefined), match: 'unmatched' };
      group.items[side] = item;
      addKeys(group, item, index);
      groups.push(group);
    });
  });
  for (const g of groups) if (g.items.filter((i) => i !== undefined).length < 2) g.match = 'unmatched';
  return groups;
}

/** Names compare without case and surrounding spaces: "Get order" matches "get order ". */
export const nameKey = (name: string): string => name.trim().toLowerCase();
