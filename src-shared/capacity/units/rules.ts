/**
 * The AWS rules every read and write unit rests on: unit sizes, the 1 MB page, consistency and
 * transaction factors, the assumption texts, and the bare `*ForBytes` arithmetic (docs/dynamodb-rules.md §2.1, §3.1).
 * Also the formatting helpers the read and write derivations share.
 */
import type { Consistency } from '../../model/index.ts';
import { formatNumber } from '../figure.ts';
import { AWS_DOCS } from '../sources.ts';

/**
 * A read unit covers up to 4 KB: 1 strongly consistent read, 2 eventually consistent reads, or half a
 * transactional read. https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ProvisionedThroughput.html
 */
export const READ_UNIT_BYTES = 4096;

/** A write unit covers up to 1 KB; transactional writes take 2. Same page as READ_UNIT_BYTES. */
export const WRITE_UNIT_BYTES = 1024;

/**
 * A Query or Scan response page stops at 1 MB of data read, before any filter or projection.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html
 */
export const PAGE_BYTES = 1_048_576;

/**
 * Read units per 4 KB block by consistency: eventual 0.5, strong 1, transactional 2.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadWriteCapacityMode.html
 */
export const READ_UNITS_PER_BLOCK: Readonly<Record<Consistency, number>> = { eventual: 0.5, strong: 1, transactional: 2 };

/**
 * Transactional writes cost twice: one write to prepare, one to commit.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html
 */
export const TRANSACTIONAL_WRITE_FACTOR = 2;

/** Source of the transaction rules, cited by transactional reads and writes alike. */
export const TRANSACTION_SOURCE = AWS_DOCS.transactions;

/** Assumption texts (docs/dynamodb-rules.md §10), shown beside the figures that rest on them. */
export const ASSUMPTIONS = {
  pageBoundary:
    'A page stops once the plain bytes read reach 1 MB and includes the item that crosses the limit; DynamoDB counts an internal size that is not public (a Keyplan assumption).',
  minimumPerRequest: 'A Query or Scan that reads nothing still costs the minimum of one 4 KB read per request (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.html).',
  lsiFetchPaging: 'With LSI fetches, each item counts its entry plus its fetched item, rounded up to 4 KB, toward the 1 MB page (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/LSI.html).',
  missingDelete: 'A DeleteItem of a key that does not exist costs the 1-unit minimum, as dynalite charges it (a Keyplan assumption: AWS does not document it).',
  twoSizedMove: 'An index key change costs a delete of the old entry plus a put of the new one, each rounded up to 1 KB on its own size (a Keyplan assumption: AWS says only "two writes").',
  rewriteInIndex: 'An item rewritten in place in an index is charged on the larger of its old and new entry, as the table charges the larger item (a Keyplan assumption).',
  transactionIndexes: 'In a transaction the table write costs 2×, while index writes cost 1× like any index update (a Keyplan assumption: AWS does not say how transactions charge indexes).',
  indexEntrySize: 'An index entry is sized as the projected attributes (base keys + index keys + projected attributes), without the 100-byte storage overhead, which AWS states for storage only (a Keyplan assumption).',
  queryTransactional: 'Query and Scan have no transactional mode; a transactional pattern is counted as a strongly consistent read.',
  gsiEventual: 'A GSI is read with eventual consistency only: a strong read is not possible there (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html).',
  averageSize: 'All items are taken to be of the average size; real pages vary with the actual sizes.',
} as const;

// ---------------------------------------------------------------------------------------------
// Bare arithmetic

/**
 * `ceil(bytes / unit)`, tolerant of floating-point noise in sizes computed from averages (3 × 1,365.33
 * must not round up past 4,096 B).
 */
function ceilUnits(bytes: number, unitBytes: number): number {
  const q = bytes / unitBytes;
  return Math.ceil(q - Math.max(1e-9, Math.abs(q) * 1e-12));
}

/** 4 KB blocks a read of `bytes` is charged for: `ceil(bytes / 4,096)`, at least 1 (a missing item or an empty result still costs one). */
export function readBlocksForBytes(bytes: number): number {
  return Math.max(1, ceilUnits(bytes, READ_UNIT_BYTES));
}

/** Read units for one read of `bytes`: 4 KB blocks (at least 1) × 0.5 eventual, 1 strong, 2 transactional (docs/dynamodb-rules.md §2.1). */
export function readUnitsForBytes(bytes: number, consistency: Consistency): number {
  return readBlocksForBytes(bytes) * READ_UNITS_PER_BLOCK[consistency];
}

/** 1 KB blocks a write of `bytes` is charged for: `ceil(bytes / 1,024)`, at least 1. */
export function writeBlocksForBytes(bytes: number): number {
  return Math.max(1, ceilUnits(bytes, WRITE_UNIT_BYTES));
}

/** Write units for one write of `bytes`: 1 KB blocks (at least 1), × 2 when transactional (docs/dynamodb-rules.md §3.1). */
export function writeUnitsForBytes(bytes: number, transactional = false): number {
  return writeBlocksForBytes(bytes) * (transactional ? TRANSACTIONAL_WRITE_FACTOR : 1);
}

// ---------------------------------------------------------------------------------------------
// Formatting

/** A byte count for a derivation: `1,024 B`. */
export const bytesText = (n: number): string => `${formatNumber(n)} B`;
/** A count with its noun, singular for 1: `1 item`, `3 items`. */
export const count = (n: number, one: string, many = `${one}s`): string => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** Groups equal sizes so a batch of 100 same-size items is one step, in order of first appearance. */
export function groupSizes(sizes: ReadonlyArray<number | undefined>): Array<{ bytes: number | undefined; items: number }> {
  const groups: Array<{ bytes: number | undefined; items: number }> = [];
  for (const bytes of sizes) {
    const group = groups.find((g) => g.bytes === bytes);
    if (group) group.items += 1;
    else groups.push({ bytes, items: 1 });
  }
  return groups;
}
