/**
 * Seeded sample data: items per entity from attribute generators, and the aggregate views of a
 * table and its indexes over them. Import from here.
 */
export * from './types.ts';
export * from './random.ts';
export * from './sizes.ts';
export { createColumn, Column, type ColumnContext, type RefResolver } from './columns.ts';
export * from './store.ts';
