/**
 * The sample store: seeded, reproducible items for every entity of a table, and the aggregate views
 * over them (the table and each GSI and LSI: items grouped by partition key, sorted by sort key).
 *
 * Memory: items are never objects. Each attribute is a column (typed arrays of codes, numbers or
 * day numbers, or nothing when the value follows from the row number; see `columns.ts`); each view
 * holds its members (item numbers), their entry sizes, the distinct partition-key strings and a
 * group number per member; the distinct partition-key strings are rendered when first needed. For
 * 1,000,000 items of the e-commerce example that is about 55–80 MB, about 90 MB once every view is
 * sorted. Values, sort keys and rows are rendered on demand, a page at a time.
 *
 * Where it lives: generation in `generate.ts` (item counts, columns, keys, one pass over the items)
 * with `grouping.ts` (items into item collections as they come), the store's data in
 * `store-data.ts`, the views' order and placement in `views.ts`, and reading in `reading.ts`.
 *
 * Time: generation is one pass over the items in chunks: sizes column by column, then each view's
 * members, grouped by partition key without rendering it where the key's structure allows (see
 * `grouping.ts`; a key whose identity is a code per row groups in a loop of its own), into typed
 * arrays presized for the members and their item collections. Placing a view on partitions
 * (`placement`) hashes each partition key from its structure, the FNV state of its literal prefix
 * plus its digits (`key-hash.ts`), without rendering it. About 0.25–0.4 s for 1,000,000 e-commerce
 * items, 0.1–0.25 s to generate and place the 1,000,000 items of `npm run bench`, on a 2-core
 * machine (bench/sample.ts). A view is sorted the first time it is paged or searched (about 0.9 s
 * for the 1,000,000-item table): its distinct partition keys are sorted, the members placed by
 * counting sort, then each item collection sorted by sort key. Afterwards `page` is
 * O(log n + limit) and `find` O(log n).
 *
 * Ordering follows DynamoDB: S by UTF-8 bytes (code point order; JavaScript's `<` compares UTF-16
 * units, which differs only when a string holds characters above U+D7FF, checked per view), N
 * numerically (as doubles: numbers beyond 15–17 significant digits may tie), B by bytes.
 *
 * A GSI with a multi-attribute key (docs/dynamodb-rules.md §11) holds the items that carry every one
 * of its key attributes; its item collections are the tuples of the partition-key attributes' values
 * (grouped by tuple, rendered joined by " + " as the partition simulator renders them), each sorted
 * by the sort-key attributes left to right, each in its own type's order. A GSI key attribute an
 * entity carries under the key's name, with no template, is that attribute (a natural key).
 */
import type { Item } from '../capacity/item-size.ts';
import { withValueModel } from '../model/value-model.ts';
import type { Design } from '../model/schema.ts';
import { sampleContext } from './column.ts';
import { DEFAULT_MAX_ITEMS, generateSample } from './generate.ts';
import { findKey, readItem, readItems, readPage } from './reading.ts';
import type { ViewData } from './store-data.ts';
import type { SampleCollection, SamplePage, SamplePlacement, SampleSummary, SampleViewKeys } from './types.ts';
import { groupHashes, placeView, viewCollections, viewKeys } from './views.ts';

export { DEFAULT_SAMPLE_TODAY, sampleContext } from './column.ts';
export { columnBuilder, DEFAULT_MAX_ITEMS, PROGRESS_EVERY_ITEMS, sampleCounts } from './generate.ts';
export { MAX_PAGE_ROWS } from './reading.ts';
export { compareCodePoints } from './views.ts';

/** How a store generates its items. */
export interface SampleStoreOptions {
  /** Seed of every random choice; default 1. The same design, table, seed and options give the same items. */
  seed?: number;
  /** Echoed in the summary. */
  runId?: string;
  /** At most this many items in all (default `DEFAULT_MAX_ITEMS`, 2,000,000); larger item counts are scaled down proportionally. */
  maxItems?: number;
  /** The newest day of generated dates, `yyyy-mm-dd` (default `DEFAULT_SAMPLE_TODAY`). */
  today?: string;
  /** Called every ~50,000 items and at the end with items generated and the total. Throw to abort. */
  onProgress?: (done: number, total: number) => void;
}

/** Generated items of one table and their views. View names: `table`, or the index's name. */
export interface SampleStore {
  summary(): SampleSummary;
  /**
   * Lines `offset` … `offset + limit − 1` of the aggregate view: each item collection is a header
   * line (`collection` set: the partition key, its item count and bytes) followed by its items in
   * sort-key order. `total` counts all lines (items + collections). Rows hold the attributes the
   * view holds (the projection, for an index) other than the view's own partition and sort key.
   */
  page(view: string, offset: number, limit: number): SamplePage;
  /** Like `page`, without header lines: items `offset` … in view order. */
  items(view: string, offset: number, limit: number): SamplePage;
  /**
   * The line (as `page` counts) of the header of the first item collection whose partition key
   * starts with `keyPrefix` (code point order); for an N key, whose number equals it. Null when none.
   */
  find(view: string, keyPrefix: string): number | null;
  /** Item `offset` of the view (as `items` counts) in DynamoDB JSON: the whole item, or the index entry. */
  itemAt(view: string, offset: number): Item;
  /** Partition keys and sizes of a view's items, for the partition simulator. */
  keysOf(view: string): SampleViewKeys;
  /**
   * Where each partition key of the view (`keysOf(view).keys[k]`) falls in the simulator's hash
   * space: `hashFraction` of the key, in [0, 1). Keys of a literal and an id (`USER#{userId}`) are
   * hashed from their structure, without being rendered. The array is the store's own.
   */
  keyHashes(view: string): Float64Array;
  /**
   * The view's items placed on `partitionCount` equal ranges of the hash space: what
   * `placeKeyColumns(keysOf(view), partitionCount)` gives, from `keyHashes` (no key rendered).
   */
  placement(view: string, partitionCount: number): SamplePlacement;
  /** The view's item collections, unsorted (first generated first): what the partition simulator places. */
  collections(view: string): Iterable<SampleCollection>;
}

/**
 * Generates the items of table `tableId` of `design` and returns the store over them. Throws when
 * the design has no such table (a caller's mistake: the UI offers only its tables).
 */
export function createSampleStore(design: Design, tableId: string, options: SampleStoreOptions = {}): SampleStore {
  const found = design.tables.find((t) => t.id === tableId);
  if (!found) throw new Error(`createSampleStore: design ${JSON.stringify(design.name)} has no table with id ${JSON.stringify(tableId)}.`);
  // The same value model as the planner and the simulator (categorical attributes made explicit).
  const table = withValueModel(found);
  const seedGiven = options.seed ?? 1;
  const maxItems = Math.max(0, Math.floor(options.maxItems ?? DEFAULT_MAX_ITEMS));
  const { entities, views, notes, capped } = generateSample(table, sampleContext(seedGiven, options.today), maxItems, options.onProgress);
  const summary: SampleSummary = {
    runId: options.runId ?? '',
    seed: seedGiven,
    itemCount: entities.reduce((s, e) => s + e.stored, 0),
    itemsPerEntity: Object.fromEntries(entities.map((e) => [e.entity.id, e.stored])),
    views: views.map((v) => v.info),
    entities: entities.map((e) => ({ id: e.entity.id, name: e.entity.name, itemCount: e.stored, requested: e.requested })),
    ...(capped ? { capped } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
  const viewOf = (name: string): ViewData => {
    const v = views.find((x) => x.info.name === name);
    if (!v) throw new Error(`Sample view ${JSON.stringify(name)} does not exist; expected one of ${views.map((x) => JSON.stringify(x.info.name)).join(', ')}.`);
    return v;
  };
  return {
    summary: () => summary,
    page: (view, offset, limit) => readPage(entities, viewOf(view), offset, limit),
    items: (view, offset, limit) => readItems(entities, viewOf(view), offset, limit),
    find: (view, keyPrefix) => findKey(entities, viewOf(view), keyPrefix),
    itemAt: (view, offset): Item => readItem(entities, viewOf(view), offset),
    keysOf: (view): SampleViewKeys => viewKeys(entities, viewOf(view)),
    keyHashes: (view) => groupHashes(entities, viewOf(view)),
    placement: (view, partitionCount): SamplePlacement => placeView(entities, viewOf(view), partitionCount),
    *collections(view): Iterable<SampleCollection> {
      yield* viewCollections(entities, viewOf(view));
    },
  };
}
