/**
 * The contract and what the renderer may load of it: the channel types and lists, the envelope, the
 * typed client and every error code. The host's side (input checks compiled from the schemas, which
 * need the `eval` the renderer's content security policy forbids, the dispatcher, the in-memory
 * transport) is `host.ts`. The sandboxed preload imports `contract.ts` alone: it can require no package.
 */
export * from './contract.ts';
export * from './wire.ts';
export * from './client.ts';
export * from './error-codes.ts';
export * from './json-safe.ts';
export { MAX_RUN_ITEMS_PER_ENTITY, MAX_RUN_REPEAT } from './contract-schemas.ts';
/** The TypeBox schemas the contract's types derive from, for hosts that check stored data with them. */
export * as schemas from './contract-schemas.ts';
export { createChunkAssembler, createFrameReader, framesOf, requestFrames } from './chunks.ts';
