/**
 * The capacity module's public API: item sizes, read and write units, model-aware size estimates,
 * and prices. Every user-facing number is a `Figure` carrying its derivation. Import from here.
 */
export * from './figure.ts';
export * from './item-size.ts';
export * from './units.ts';
export * from './size-estimate.ts';
export * from './index-fraction.ts';
export * from './pricing.ts';
export * from './warm-throughput.ts';
export { AWS_DOCS } from './sources.ts';
export type { DocSource } from './sources.ts';
