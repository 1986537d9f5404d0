/**
 * A design with its key design removed: every entity without key templates, every table without
 * indexes. What the solver starts from when asked to design the keys from scratch (and what the
 * tests compare its proposals against the hand-made design with).
 */
import type { Design } from '../model/index.ts';

export function stripKeyDesign(design: Design): Design {
  return {
    ...design,
    tables: design.tables.map((t) => ({ ...t, globalSecondaryIndexes: [], localSecondaryIndexes: [], entities: t.entities.map((e) => ({ ...e, keys: {} })) })),
  };
}
