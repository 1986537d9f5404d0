/** A design's inherited attributes, checked: each `via` names a reference whose entity carries the attribute. */
import { relationsOf, type Relation } from '../relations.ts';
import type { Entity, Table } from '../schema.ts';
import type { Collector } from './collector.ts';
import { joinPath, listOf, quote } from './wording.ts';

/**
 * A `via` (an attribute inherited through a reference) names another attribute of the entity that
 * references an entity carrying an attribute of the inheriting one's name (relations.ts).
 */
export function checkInheritance(table: Table, entity: Entity, ep: string, label: string, c: Collector): void {
  // Only an entity that states a `via` is checked (the graph spans the table's entities).
  if (!entity.attributes.some((a) => a.generator?.kind === 'ref' && a.generator.via !== undefined)) return;
  const graph = relationsOf(table.entities);
  entity.attributes.forEach((a, k) => {
    const via = a.generator?.kind === 'ref' ? a.generator.via : undefined;
    if (via === undefined) return;
    const path = joinPath(joinPath(joinPath(joinPath(ep, 'attributes'), k), 'generator'), 'via');
    const reference = via !== a.name ? graph.get(entity.id)?.get(via) : undefined;
    const parent = reference && reference.via === undefined ? table.entities.find((e) => e.id === reference.entityId) : undefined;
    const references = [...(graph.get(entity.id) ?? new Map<string, Relation>())].filter(([name, r]) => name !== a.name && r.via === undefined).map(([name]) => name);
    if (!parent) {
      c.add(
        'model.unknownAttribute',
        path,
        `${label}: ${quote(a.name)} is inherited through ${quote(via)}, which is not a reference of ${quote(entity.name)}; expected ${references.length > 0 ? `one of: ${listOf(references)}` : 'an attribute that references another entity (a "reference" generator)'}.`,
        quote(via),
        references.length > 0 ? `one of: ${listOf(references)}` : 'a reference attribute',
      );
    } else if (!parent.attributes.some((x) => x.name === a.name)) {
      c.add(
        'model.unknownAttribute',
        path,
        `${label}: ${quote(a.name)} is inherited through ${quote(via)}, but ${quote(parent.name)} has no attribute ${quote(a.name)} to inherit; expected ${quote(parent.name)} to carry it.`,
        quote(via),
        `a reference to an entity that carries ${a.name}`,
      );
    }
  });
}
