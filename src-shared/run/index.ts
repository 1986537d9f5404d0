/**
 * A run against a real engine, its pure parts: the requests built from the plans, the measurements
 * set beside the model, a request rendered as code. The host sends the requests (`src-main/run`).
 */
export type * from './types.ts';
export { EMBEDDED_CAPABILITIES, FULL_CAPABILITIES } from './types.ts';
export * from './prepare.ts';
export * from './agreement.ts';
export * from './code.ts';
