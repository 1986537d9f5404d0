/** Types for scripts/lint-rules.mjs, so the tests that read its ladder are type-checked. */

/** src-shared's modules, floor by floor from the ground up (`errors.ts` a file, the others folders). */
export const LADDER: readonly (readonly string[])[];

declare const plugin: { meta: { name: string }; rules: Record<string, unknown> };
export default plugin;
