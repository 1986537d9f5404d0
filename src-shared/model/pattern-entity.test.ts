import { describe, expect, it } from 'vitest';
import { addAccessPattern, addEntity, createDesign, removeEntity, updateAccessPattern } from './edits.ts';
import { addPatternAttributesToEntity, attributesMissingFrom, createEntityForPattern, patternAttributeNames, setPatternEntity } from './pattern-entity.ts';
import type { AccessPattern, Design } from './schema.ts';
import { parseDesign, validateDesign } from './validate.ts';

/** A new design with one pattern written before any entity: "List a customer's tickets". */
function patternFirst(patch: Partial<AccessPattern> = {}): { design: Design; tableId: string; patternId: string } {
  let design = createDesign('Tickets');
  const tableId = design.tables[0]!.id;
  design = addAccessPattern(design, tableId, undefined, 'List tickets of a customer');
  const patternId = design.tables[0]!.accessPatterns[0]!.id;
  design = updateAccessPattern(design, tableId, patternId, { action: 'query', known: ['customerId'], ...patch });
  return { design, tableId, patternId };
}

describe('patterns written before their entity', () => {
  it('adds a pattern with no entity, knowing nothing yet', () => {
    let design = createDesign('Tickets');
    design = addAccessPattern(design, design.tables[0]!.id, undefined, 'Get ticket');
    const pattern = design.tables[0]!.accessPatterns[0]!;
    expect('entityId' in pattern).toBe(false);
    expect(pattern.known).toEqual([]);
  });

  it('is a valid design, also when read from a file', () => {
    const { design } = patternFirst({ range: { attribute: 'createdAt', operator: 'between' }, returns: ['title'], filter: 'status = "OPEN"' });
    expect(validateDesign(design)).toEqual([]);
    const parsed = parseDesign(JSON.parse(JSON.stringify(design)));
    expect(parsed.ok).toBe(true);
  });

  it('still reports what is wrong without an entity: filter syntax, returns on a write, updates on a read', () => {
    const { design: broken } = patternFirst({ filter: 'status = ', updates: ['status'] });
    expect(validateDesign(broken).map((p) => [p.code, p.path])).toEqual([
      ['model.invalidUpdates', 'tables[0].accessPatterns[0].updates'],
      ['condition.syntax', 'tables[0].accessPatterns[0].filter'],
    ]);
    const { design, tableId, patternId } = patternFirst();
    const write = updateAccessPattern(design, tableId, patternId, { action: 'put', returns: ['title'] });
    expect(validateDesign(write).map((p) => [p.code, p.path])).toEqual([['model.returnsOnNonRead', 'tables[0].accessPatterns[0].returns']]);
  });

  it('still reports an entity id that names no entity', () => {
    const { design, tableId, patternId } = patternFirst();
    const dangling = setPatternEntity(design, tableId, patternId, 'ent-gone');
    expect(validateDesign(dangling).map((p) => [p.code, p.path])).toEqual([['model.unknownEntity', 'tables[0].accessPatterns[0].entityId']]);
  });

  it('lists the names a pattern uses, filter attributes included, each once', () => {
    const { design } = patternFirst({
      known: ['customerId', 'customerId'],
      range: { attribute: 'createdAt', operator: '>=' },
      returns: ['title', 'customerId'],
      filter: 'priority > 2 AND status = "OPEN"',
    });
    expect(patternAttributeNames(design.tables[0]!.accessPatterns[0]!)).toEqual(['customerId', 'createdAt', 'title', 'priority', 'status']);
  });

  it('creates its entity inline: key templates from the id, an attribute per name it uses, typed from the filter', () => {
    const { design, tableId, patternId } = patternFirst({ filter: 'priority > 2 AND open = true', returns: ['title'] });
    const next = createEntityForPattern(design, tableId, patternId, 'Ticket');
    const table = next.tables[0]!;
    const entity = table.entities[0]!;
    expect(entity.name).toBe('Ticket');
    expect(table.accessPatterns[0]!.entityId).toBe(entity.id);
    expect(entity.keys).toEqual({ PK: { template: 'TICKET#{ticketId}' }, SK: { template: 'TICKET' } });
    expect(entity.attributes.map((a) => [a.name, a.type])).toEqual([
      ['ticketId', 'S'],
      ['customerId', 'S'],
      ['title', 'S'],
      ['priority', 'N'],
      ['open', 'BOOL'],
    ]);
    expect(validateDesign(next)).toEqual([]);
  });

  it('picks an existing entity keeping the names as written, then adds the ones it lacks on request', () => {
    const { design: first, tableId, patternId } = patternFirst({ returns: ['title'] });
    const design = addEntity(first, tableId, 'Ticket');
    const ticket = design.tables[0]!.entities[0]!;
    const picked = setPatternEntity(design, tableId, patternId, ticket.id);
    const pattern = picked.tables[0]!.accessPatterns[0]!;
    expect(pattern.known).toEqual(['customerId']);
    expect(attributesMissingFrom(ticket, pattern)).toEqual(['customerId', 'title']);
    expect(validateDesign(picked).map((p) => [p.code, p.path])).toEqual([
      ['model.unknownAttribute', 'tables[0].accessPatterns[0].known[0]'],
      ['model.unknownAttribute', 'tables[0].accessPatterns[0].returns[0]'],
    ]);
    const completed = addPatternAttributesToEntity(picked, tableId, patternId);
    expect(completed.tables[0]!.entities[0]!.attributes.map((a) => a.name)).toEqual(['ticketId', 'customerId', 'title']);
    expect(validateDesign(completed)).toEqual([]);
  });

  it('clears the entity, and deleting an entity leaves its patterns with none', () => {
    const { design, tableId, patternId } = patternFirst();
    const created = createEntityForPattern(design, tableId, patternId, 'Ticket');
    expect('entityId' in setPatternEntity(created, tableId, patternId, undefined).tables[0]!.accessPatterns[0]!).toBe(false);
    const removed = removeEntity(created, tableId, created.tables[0]!.entities[0]!.id);
    expect(removed.tables[0]!.entities).toEqual([]);
    expect(removed.tables[0]!.accessPatterns.map((p) => [p.name, 'entityId' in p])).toEqual([['List tickets of a customer', false]]);
    expect(validateDesign(removed)).toEqual([]);
  });

  it('leaves the design alone for a pattern that is not there', () => {
    const { design, tableId } = patternFirst();
    expect(createEntityForPattern(design, tableId, 'ap-none', 'Ticket')).toBe(design);
  });
});
