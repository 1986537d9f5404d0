/** Helpers the pure edits share: ids, deep copies, and replacing one table or entity of a design. */
import type { Design, Entity, Table } from './schema.ts';

/** A short random id with a readable prefix (`ent-k3x9q2`). Not for security. */
export function newId(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
}

export function structuredCloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function mapTable(design: Design, tableId: string, fn: (table: Table) => Table): Design {
  return { ...design, tables: design.tables.map((t) => (t.id === tableId ? fn(t) : t)) };
}

export function mapEntity(design: Design, tableId: string, entityId: string, fn: (e: Entity) => Entity): Design {
  return mapTable(design, tableId, (table) => ({
    ...table,
    entities: table.entities.map((e) => (e.id === entityId ? fn(e) : e)),
  }));
}
