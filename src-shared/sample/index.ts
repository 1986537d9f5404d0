/**
 * Seeded sample data: items per entity from attribute generators, and the aggregate views of a
 * table and its indexes over them; the one place attribute values are generated, read by the key
 * previews (`key-preview.ts`) and by rank (`values.ts`). Import from here.
 */
export * from './types.ts';
export * from './random.ts';
export * from './sizes.ts';
export { createColumn, createRankColumn, Column, type ColumnContext, type RefResolver } from './columns.ts';
export * from './store.ts';
export * from './values.ts';
export * from './key-preview.ts';
