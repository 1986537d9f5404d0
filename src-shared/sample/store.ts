/**
 * The sample store: seeded, reproducible items for every entity of a table, and the aggregate views
 * over them (the table and each GSI and LSI: items grouped by partition key, sorted by sort key).
 *
 * More on its rules: docs/modules.md, "src-shared/sample/store.ts".
 */
import type { Item } from '../capacity/index.ts';
import { withValueModel } from '../model/index.ts';
import type { Design } from '../model/index.ts';
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
