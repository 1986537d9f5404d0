/**
 * A run: the design's table created in a real DynamoDB-compatible engine, sample items loaded, every
 * access pattern's planned request sent, and what the engine measured set beside what Keyplan
 * predicted. The pure parts live here (`prepare.ts` builds the requests from the plans,
 * `agreement.ts` judges the measurements, `code.ts` renders a request as code); the host sends the
 * requests (`src-main/run`). Requests and items are DynamoDB JSON (binary values base64), exactly
 * as the low-level API takes them.
 */
import type { Item } from '../capacity/index.ts';

/** Codes of a run's own failures (the host raises them in `src-main/run`). */
export type RunErrorCode = 'run.engine' | 'run.tableExists' | 'run.notConfirmed' | 'run.failed';

/** Where a run happens. */
export type EngineChoice =
  /** dynalite started by the host on 127.0.0.1, in memory: no setup. */
  | { kind: 'embedded' }
  /** An endpoint the user runs: DynamoDB Local (`http://localhost:8000`) or another compatible engine. */
  | { kind: 'local'; endpoint: string }
  /**
   * An AWS account: a region and a named profile of the user's AWS config, through the AWS SDK's
   * default credential chain (the chain's own default profile when absent). The host never stores,
   * shows or sends the credentials anywhere.
   */
  | { kind: 'aws'; region: string; profile?: string };

/** What an engine can run; a pattern that needs more is marked with what it needs, not sent. */
export interface EngineCapabilities {
  /** TransactWriteItems / TransactGetItems. */
  transactions: boolean;
  /** GSIs whose partition or sort key has several attributes. */
  multiAttributeKeys: boolean;
  /** Whether ConsumedCapacity names GSI/LSI write units (dynalite reports the table's only). */
  indexCapacity: boolean;
  /** The engine is dynalite: its documented departures from DynamoDB explain differences. */
  isDynalite: boolean;
}

/** What an engine that is not the embedded one needs to run what dynalite cannot. */
export const NEEDS_FULL_ENGINE = 'needs DynamoDB Local 3.3 or later, or AWS';

export const EMBEDDED_CAPABILITIES: EngineCapabilities = { transactions: false, multiAttributeKeys: false, indexCapacity: false, isDynalite: true };
export const FULL_CAPABILITIES: EngineCapabilities = { transactions: true, multiAttributeKeys: true, indexCapacity: true, isDynalite: false };

/** A DynamoDB low-level operation a run sends. */
export type RunOperation =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'TransactWriteItems';

/**
 * One request as sent: the operation and its input in DynamoDB JSON, with the run's table name and
 * `ReturnConsumedCapacity: INDEXES`. Query and Scan are paged: the host repeats them with
 * `ExclusiveStartKey` until `LastEvaluatedKey` is absent (or the planned item count is reached),
 * and every page counts.
 */
export interface RunRequest {
  operation: RunOperation;
  input: Record<string, unknown>;
  /**
   * Query/Scan: stop paging once this many items were returned (the caller's resultSize with a
   * filter: it pages until enough pass). Absent: page to the end.
   */
  stopAfterItems?: number;
  /**
   * Reads: the same request without FilterExpression, ProjectionExpression and Select, sent once
   * (not measured) so that the items the measured request read, and their sizes, are known.
   */
  witness?: Record<string, unknown>;
}

/** One call of a pattern: the requests it sends, in order (a fan-out sends one Query per shard). */
export interface RunCall {
  requests: RunRequest[];
  /** The sample item whose values filled the request's placeholders, by primary key (for display). */
  keyFrom?: string;
}

/** Keyplan's prediction for one call of a pattern, on the loaded sample (see `prepare.ts`). */
export interface Prediction {
  /** Units per call on each target: `table` or a GSI's name (LSI reads and writes count on the table). */
  units: Record<string, number>;
  /** Total units per call. */
  total: number;
  /** `read` capacity units or `write`. */
  unit: 'read' | 'write';
  /** Items read (evaluated) and returned per call. */
  itemsRead: number;
  itemsReturned: number;
  /** Requests per call. */
  requests: number;
  /** Average bytes of an item read on the queried target (what the units were computed from). */
  averageItemBytes: number;
  /** How the figure was derived, one line per step (shown on demand). */
  derivation: string[];
}

/** A pattern prepared for a run. */
export interface PatternRun {
  patternId: string;
  name: string;
  kind: 'read' | 'write';
  /** The operation the plan chose (`TransactWriteItems` for a transactional write). */
  operation: RunOperation;
  /** The queried target: `table`, or the index's name. */
  target: string;
  /** The consistency the plan uses (a GSI read is eventual; `transactional` doubles the units). */
  consistency: 'eventual' | 'strong' | 'transactional';
  /** `repeat` calls, each with its own sample item's values. Empty when the pattern is not run. */
  calls: RunCall[];
  prediction?: Prediction;
  /**
   * Why the pattern is not sent to this engine: `NEEDS_FULL_ENGINE` plus the reason (transactions,
   * a multi-attribute GSI key), or a pattern with no plan ("needs a key design").
   */
  skipped?: string;
  /** What the run must know about the pattern to explain differences (set by `prepare.ts`). */
  notes: string[];
}

/** One index of the created table, as the rule for index reads and writes needs it. */
export interface RunIndex {
  name: string;
  kind: 'gsi' | 'lsi';
  /** The index's key attributes (a multi-attribute GSI has several per part); an item lacking one is not in the index. */
  keyAttributes: string[];
  projection: { type: 'KEYS_ONLY' | 'ALL' | 'INCLUDE'; nonKeyAttributes?: string[] };
}

/** One table the run creates. */
export interface RunTable {
  /** The design's table id. */
  tableId: string;
  /** The name in the engine: `keyplan-run-<short id>-<design table name>`. */
  name: string;
  /** The CreateTable input (DynamoDB JSON), with the run's name. */
  createInput: Record<string, unknown>;
  /** The table's key attribute names (partition, then sort). */
  keyAttributes: string[];
  /** The indexes created (omitted ones are not here). */
  indexes: RunIndex[];
  /** GSIs left out of the created table because the engine cannot create them, with why. */
  omittedIndexes: Array<{ name: string; reason: string }>;
}

/** Everything a run sends, built from the design before anything is sent. */
export interface RunPlan {
  runId: string;
  table: RunTable;
  /** Items to load with BatchWriteItem (25 per request), in load order. */
  items: Item[];
  /** Items loaded per entity, by entity id. */
  itemsPerEntity: Record<string, number>;
  patterns: PatternRun[];
  repeat: number;
  seed: number;
}

/** One page of a Query or Scan, or the single response of any other operation, as measured. */
export interface MeasuredPage {
  /** ConsumedCapacity.CapacityUnits (the whole request). */
  capacityUnits: number;
  /** Per target: `table`, or an index name, from ConsumedCapacity.Table / GlobalSecondaryIndexes / LocalSecondaryIndexes. */
  byTarget: Record<string, number>;
  /** Query/Scan: Count and ScannedCount; GetItem: 1 or 0 items; BatchGetItem: items in Responses. */
  count: number;
  scannedCount: number;
  latencyMs: number;
  /**
   * The items this page read, as the witness request returned them (whole entries of the queried
   * target, before filter and projection): what DynamoDB charges on.
   */
  itemsRead?: Item[];
}

/** What one request of a call measured: its pages (one for every operation but Query/Scan). */
export interface MeasuredRequest {
  operation: RunOperation;
  pages: MeasuredPage[];
  /** The engine's error, as it said it (`ValidationException: …`), when the request failed. */
  error?: string;
  /**
   * Writes: the item before and after the write, as the host read it back (a GetItem not measured),
   * for the size the write is charged on.
   */
  before?: Item | null;
  after?: Item | null;
}

export interface MeasuredCall {
  requests: MeasuredRequest[];
}

/** A pattern's measurements: one entry per call, in order. */
export interface PatternMeasurement {
  patternId: string;
  calls: MeasuredCall[];
}

/** How a measured figure stands against the prediction. */
export type Agreement =
  /** Measured equals the prediction (to a hundredth of a unit). */
  | 'agrees'
  /** They differ, and every difference has a known cause (listed). */
  | 'explained'
  /** They differ beyond what a known cause explains. */
  | 'unexplained'
  /** Not run on this engine (see `skipped`), or every request failed. */
  | 'notRun'
  | 'failed';

/** One known reason for a difference, with the share of the difference it explains. */
export interface Cause {
  /** A stable code: `dynalite.emptyQuery`, `dynalite.utf16`, `dynalite.scanConsistency`, `dynalite.pageCut`, `dynalite.indexWrites`, `sample.itemSizes`, `sample.itemCount`. */
  code: string;
  /** One sentence a user reads. */
  text: string;
}

/** Percentiles of one pattern's request latencies, in milliseconds. */
export interface Latency {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Measured against predicted for one pattern. */
export interface PatternReport {
  patternId: string;
  name: string;
  kind: 'read' | 'write';
  operation: RunOperation;
  target: string;
  agreement: Agreement;
  predicted?: Prediction;
  /** Measured means per call, over the calls that succeeded. */
  measured?: {
    units: Record<string, number>;
    total: number;
    itemsRead: number;
    itemsReturned: number;
    pages: number;
    requests: number;
    latency: Latency;
    calls: number;
  };
  /**
   * DynamoDB's own rule applied to the items the engine actually read or wrote (per call, mean):
   * what a real DynamoDB would charge for exactly these requests. Equal to `measured` where the
   * engine models DynamoDB; the bridge between the model's averages and the engine's figure.
   */
  byRule?: { units: Record<string, number>; total: number };
  causes: Cause[];
  /** What the run knew about the pattern before sending it (a fetch not sent, a sample with no item in a sparse index). */
  notes: string[];
  /** Why it is `notRun`, or the engine's error when `failed`. */
  message?: string;
  /** The first call's requests, for "copy as code". */
  requests: RunRequest[];
}

/** A whole run's result. */
export interface RunReport {
  runId: string;
  engine: { kind: EngineChoice['kind']; label: string };
  table: { tableId: string; name: string; omittedIndexes: Array<{ name: string; reason: string }> };
  itemsLoaded: number;
  repeat: number;
  patterns: PatternReport[];
  /** Counts by agreement. */
  summary: Record<Agreement, number>;
  /** Tables the run created and removed; `leftover` lists any it could not remove. */
  cleanup: { removed: string[]; leftover: string[] };
  startedAt: string;
  durationMs: number;
}

/** What the comparison needs beyond the pattern: what the engine is and the table's keys and indexes. */
export interface AgreementOptions {
  capabilities: EngineCapabilities;
  table: Pick<RunTable, 'keyAttributes' | 'indexes'>;
}
