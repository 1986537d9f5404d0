/**
 * A table's tags as an ordered list of rows over the design's `tags` record (key → value, in the
 * order they were added): adding, removing, renaming and revaluing a tag keeps every other tag where
 * it was. Plain data in, plain data out; the Tags editor hands the result on as one edit.
 */

/** The tags as `[key, value]` rows, in their order. */
export function tagRows(tags: Record<string, string> | undefined): [string, string][] {
  return Object.entries(tags ?? {});
}

/** Rows back to a record; undefined when there are none (a table without tags has no `tags`). */
function fromRows(rows: readonly (readonly [string, string])[]): Record<string, string> | undefined {
  return rows.length === 0 ? undefined : Object.fromEntries(rows);
}

/** A key no tag has yet: `key`, `key2`, `key3` … */
export function freeTagKey(tags: Record<string, string> | undefined): string {
  const used = new Set(Object.keys(tags ?? {}));
  if (!used.has('key')) return 'key';
  let n = 2;
  while (used.has(`key${n}`)) n++;
  return `key${n}`;
}

/** The tags with a new one (a free key, an empty value) at the end. */
export function addTag(tags: Record<string, string> | undefined): Record<string, string> {
  return { ...tags, [freeTagKey(tags)]: '' };
}

/** The tags without the one at `index`. */
export function removeTag(tags: Record<string, string> | undefined, index: number): Record<string, string> | undefined {
  return fromRows(tagRows(tags).filter((_, i) => i !== index));
}

/** The tags with the value of the one at `index` replaced. */
export function setTagValue(tags: Record<string, string> | undefined, index: number, value: string): Record<string, string> | undefined {
  return fromRows(tagRows(tags).map(([k, v], i) => [k, i === index ? value : v] as [string, string]));
}

/**
 * The tags with the key at `index` renamed to `key`, in place; or why not: another tag already has
 * that key (a record cannot hold it twice, so the rename would lose a tag).
 */
export function renameTag(tags: Record<string, string> | undefined, index: number, key: string): { tags: Record<string, string> | undefined } | { error: string } {
  const rows = tagRows(tags);
  if (rows.some(([k], i) => i !== index && k === key)) return { error: `Another tag has the key "${key}"; keys are unique.` };
  return { tags: fromRows(rows.map(([k, v], i) => [i === index ? key : k, v] as [string, string])) };
}
