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
