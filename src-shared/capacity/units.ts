/**
 * Read and write units: how DynamoDB turns bytes into RCU/WCU (provisioned) or RRU/WRU (on-demand;
 * the same arithmetic). docs/dynamodb-rules.md §2 (reads) and docs/dynamodb-rules.md §3 (writes); test vectors docs/dynamodb-rules.md §9.2.
 *
 * Every function is pure. The `*ForBytes` functions return bare numbers for composing; the others
 * return a `Figure` whose steps show the derivation.
 *
 * The rules and bare arithmetic are in `units/rules.ts`, reads in `units/reads.ts`, writes in
 * `units/writes.ts`; this file re-exports their public API.
 */
export {
  ASSUMPTIONS,
  PAGE_BYTES,
  READ_UNIT_BYTES,
  READ_UNITS_PER_BLOCK,
  TRANSACTIONAL_WRITE_FACTOR,
  WRITE_UNIT_BYTES,
  readBlocksForBytes,
  readUnitsForBytes,
  writeBlocksForBytes,
  writeUnitsForBytes,
} from './units/rules.ts';
export {
  batchGetReadUnits,
  getItemReadUnits,
  maxReadBytesPerSecond,
  queryReadUnits,
  scanReadUnits,
  transactGetReadUnits,
  type QueryReadInput,
  type ReadTarget,
  type ScanReadInput,
  type ScanSegment,
} from './units/reads.ts';
export {
  batchWriteUnits,
  maxWriteBytesPerSecond,
  transactWriteUnits,
  writeUnits,
  type IndexRef,
  type IndexWriteEffect,
  type IndexWriteInput,
  type WriteInput,
  type WriteUnits,
} from './units/writes.ts';
