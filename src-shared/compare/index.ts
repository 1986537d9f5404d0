/**
 * Comparing alternative designs side by side: the report (`compareDesigns`) with its summary, the
 * short side labels, its text forms for a pull request and a terminal, and what makes a later
 * design worse than the first (a CI guard). Imported only by the hosts and the UI.
 */
export * from './compare.ts';
export * from './rows.ts';
export * from './match.ts';
export * from './labels.ts';
export * from './schema-text.ts';
export * from './summary.ts';
export * from './format.ts';
export * from './regressions.ts';
