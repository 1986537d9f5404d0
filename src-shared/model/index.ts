/**
 * The design model's public API: the schema and its types, problems, key templates, conditions,
 * parsing, validation and migrations. Import from here, not from the files.
 */
export * from './schema.ts';
export * from './problems.ts';
export * from './key-template.ts';
export * from './condition.ts';
export * from './validate.ts';
export * from './migrate.ts';
export * from './pattern-kinds.ts';
