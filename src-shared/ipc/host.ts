/**
 * The host's side of the contract: the dispatcher every transport runs requests through, the input
 * and output checks compiled from the schemas, and the in-memory transport of the tests. Never for
 * the renderer: compiled checks need `eval`, which its content security policy forbids.
 */
export * from './dispatch.ts';
export * from './validate.ts';
export * from './memory.ts';
