/**
 * Item and index-entry sizes for one costing: every pattern of an entity reads the same sizes, so a
 * costing estimates each once (`createSizeEstimates`); the size rules are `capacity`'s.
 */
import { estimateIndexEntryBytes, estimateItemBytes, type IndexRef } from '../capacity/index.ts';
import type { Figure } from '../capacity/index.ts';
import type { Entity, Table } from '../model/index.ts';

/**
 * Item and index-entry sizes (`estimateItemBytes`, `estimateIndexEntryBytes`), estimated once per
 * table object, entity and index within one costing: every pattern of an entity reads the same sizes.
 */
export interface SizeEstimates {
  item(table: Table, entity: Entity): Figure;
  entry(table: Table, entity: Entity, index: IndexRef): Figure;
}

/** Sizes estimated on every call (the default where no costing shares its sizes). */
export const ESTIMATED_SIZES: SizeEstimates = { item: estimateItemBytes, entry: estimateIndexEntryBytes };

/** Sizes remembered for the life of this object (one costing: the tables it sees do not change meanwhile). */
export function createSizeEstimates(): SizeEstimates {
  const items = new Map<Table, Map<Entity, Figure>>();
  const entries = new Map<Table, Map<Entity, Map<string, Figure>>>();
  const inner = <K, V>(outer: Map<Table, Map<K, V>>, table: Table): Map<K, V> => {
    let map = outer.get(table);
    if (!map) outer.set(table, (map = new Map()));
    return map;
  };
  return {
    item(table, entity) {
      const byEntity = inner(items, table);
      let size = byEntity.get(entity);
      if (!size) byEntity.set(entity, (size = estimateItemBytes(table, entity)));
      return size;
    },
    entry(table, entity, index) {
      const byEntity = inner(entries, table);
      let byIndex = byEntity.get(entity);
      if (!byIndex) byEntity.set(entity, (byIndex = new Map()));
      const key = `${index.kind}:${index.name}`;
      let size = byIndex.get(key);
      if (!size) byIndex.set(key, (size = estimateIndexEntryBytes(table, entity, index)));
      return size;
    },
  };
}

/** The entity of `table` with this id, if any. */
export function entityOf(table: Table, id: string): Entity | undefined {
  return table.entities.find((e) => e.id === id);
}
