/**
 * Where each part of an imported design came from in the source, so that a problem the design's
 * rules raise (`tables[0].globalSecondaryIndexes[1].name`) is reported where the user can fix it
 * (`Resources.Orders.Properties.GlobalSecondaryIndexes[1].IndexName`). Shared by every importer.
 */

/** Pairs of a design path and the source path it was built from. */
export type PathMap = Array<[designPath: string, sourcePath: string]>;

/**
 * The source path of `path`: the entry whose design path is the longest prefix of it (a whole path
 * segment: `tables[0].name` covers `tables[0].name` but not `tables[0].names`); '' when none does.
 */
export function mapPath(map: PathMap, path: string): string {
  let best: [string, string] | undefined;
  for (const entry of map) {
    const [d] = entry;
    const isPrefix = path === d || (path.startsWith(d) && (path[d.length] === '.' || path[d.length] === '['));
    if (isPrefix && (!best || d.length > best[0].length)) best = entry;
  }
  return best ? best[1] : '';
}

/**
 * `mapPath` over many paths: the map is indexed once, and each path is looked up by its prefixes
 * (longest first), so mapping the problems of a large import costs their paths' length, not the
 * problems times the map (99 aliased tables of 1,000 indexes each made that 99,000 × 300,000).
 * Gives what `mapPath` gives: where design paths repeat, the first entry.
 */
export function pathMapper(map: PathMap): (path: string) => string {
  const index = new Map<string, string>();
  for (const [d, source] of map) if (!index.has(d)) index.set(d, source);
  return (path) => {
    for (let end = path.length; end >= 0; end -= 1) {
      if (end < path.length && path[end] !== '.' && path[end] !== '[') continue;
      const found = index.get(path.slice(0, end));
      if (found !== undefined) return found;
    }
    return '';
  };
}
