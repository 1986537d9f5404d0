/**
 * The partition simulator (docs/dynamodb-rules.md §4, §5, §10): how a design's items and traffic spread over
 * partitions, where and why requests throttle, and what write sharding changes. Pure and
 * deterministic for a seed; hosts run it off the UI thread (`step` for progress and cancel).
 */
export type * from './types.ts';
export { simulate, startSimulation, findTable, type SimulateOptions } from './simulate.ts';
export { step, advance, isFinished, runToEnd, multiplierAt, DEFAULT_WORKLOAD, MAX_HEAT_BUCKETS, type SimulationState, type StepAccount, type SplitEvent, type SplitRefusal, type ScaleOutEvent } from './engine.ts';
export { finishSimulation } from './result.ts';
export { ENGINE_ASSUMPTIONS, formatSecond, formatPartitionsNeeded, describePartitionOrigins } from './findings.ts';
export { formatShare } from '../numbers/index.ts';
export { buildSimulationModel, MODEL_ASSUMPTIONS, type SimulationModel, type TargetModel, type LoadSource, type ModelKey, type ModelOptions } from './model.ts';
export { createSimulation } from './engine.ts';
export { hashFraction, placeKeys, placeKeyColumns, partitionAt, equalRangeStarts, HASH_DESCRIPTION, type KeyColumns, type PlacedKey, type Placement } from './hash.ts';
export { recommendShards, shardAdvice, DEFAULT_SHARD_HEADROOM, type ShardRecommendation } from './shards.ts';
export * from './limits.ts';
export { createRandom, type Random } from './random.ts';
export { whatIfFocus, keyRedesignFor, hotKeysOf, meanKeyShare, HOT_KEY_FACTOR, type WhatIfFocus, type KeyRedesign } from './advice.ts';
export { KEY_PART_SEPARATOR, keySpaceOf } from './key-space.ts';
export { impliedHottestKeyShare, type HottestKeyShare } from './hot-key-share.ts';
