import { describe, expect, it } from 'vitest';
import {
  addAccessPattern,
  addAttribute,
  addEntity,
  addGsi,
  createDesign,
  defaultAutoScalingRange,
  removeEntity,
  renameAttributeReferences,
  setAutoScaling,
  setBilling,
  setKeyBinding,
  updateAccessPattern,
  updateAttribute,
  updateGsi,
  updateTable,
} from './edits.ts';
import type { Design } from './schema.ts';

function shop(): { design: Design; tableId: string; userId: string } {
  let design = createDesign('Shop');
  const tableId = design.tables[0]!.id;
  design = addEntity(design, tableId, 'User');
  design = addGsi(design, tableId);
  const userId = design.tables[0]!.entities[0]!.id;
  design = addAttribute(design, tableId, userId, 'email');
  design = setKeyBinding(design, tableId, userId, 'GSI1PK', { template: 'EMAIL#{email}', when: 'email <> "none"' });
  return { design, tableId, userId };
}

describe('design edits', () => {
  it('never change the design they are given', () => {
    const { design, tableId } = shop();
    const before = JSON.stringify(design);
    addEntity(design, tableId, 'Order');
    updateTable(design, tableId, { name: 'Other' });
    setBilling(design, tableId, { mode: 'PROVISIONED', readCapacityUnits: 5, writeCapacityUnits: 5 });
    expect(JSON.stringify(design)).toBe(before);
  });

  it('adds an entity with an id attribute and templates for the table keys', () => {
    const { design } = shop();
    const user = design.tables[0]!.entities[0]!;
    expect(user.attributes[0]).toMatchObject({ name: 'userId', type: 'S' });
    expect(user.keys).toMatchObject({ PK: { template: 'USER#{userId}' }, SK: { template: 'USER' } });
  });

  it('renaming an attribute renames its placeholders in templates and conditions', () => {
    const { design, tableId, userId } = shop();
    const typed = updateAttribute(design, tableId, userId, 1, { name: 'mail' });
    expect(typed.tables[0]!.entities[0]!.keys.GSI1PK?.template).toBe('EMAIL#{email}');
    const next = renameAttributeReferences(typed, tableId, userId, 'email', 'mail');
    expect(next.tables[0]!.entities[0]!.keys.GSI1PK).toEqual({ template: 'EMAIL#{mail}', when: 'mail <> "none"' });
  });

  it('renaming an attribute renames it in what patterns return and in the values updates set', () => {
    const { design, tableId, userId } = shop();
    const withPatterns = addAccessPattern(addAccessPattern(design, tableId, userId, 'Read'), tableId, userId, 'Write');
    const [read, write] = withPatterns.tables[0]!.accessPatterns.slice(-2);
    let d = updateAccessPattern(withPatterns, tableId, read!.id, { action: 'query', returns: ['userId', 'email'] });
    d = updateAccessPattern(d, tableId, write!.id, { action: 'update', updates: ['email'], sets: { email: 'none' } });
    d = renameAttributeReferences(updateAttribute(d, tableId, userId, 1, { name: 'mail' }), tableId, userId, 'email', 'mail');
    const [r, w] = d.tables[0]!.accessPatterns.slice(-2);
    expect(r!.returns).toEqual(['userId', 'mail']);
    expect(w).toMatchObject({ updates: ['mail'], sets: { mail: 'none' } });
  });

  it('never merges two attributes: a rename onto an existing name, or from an empty one, changes no reference', () => {
    const { design, tableId, userId } = shop();
    // email typed over as "userId" (the other attribute's name), then as "mail".
    const clash = updateAttribute(design, tableId, userId, 1, { name: 'userId' });
    expect(renameAttributeReferences(clash, tableId, userId, 'email', 'userId')).toEqual(clash);
    const emptied = updateAttribute(design, tableId, userId, 1, { name: '' });
    expect(renameAttributeReferences(emptied, tableId, userId, 'email', '')).toEqual(emptied);
    const keys = renameAttributeReferences(updateAttribute(design, tableId, userId, 1, { name: 'mail' }), tableId, userId, 'email', 'mail')
      .tables[0]!.entities[0]!.keys;
    expect(keys.PK?.template).toBe('USER#{userId}');
    expect(keys.GSI1PK?.template).toBe('EMAIL#{mail}');
  });

  it('a new entity on a table with a number partition key gets a number id as its key', () => {
    let design = createDesign('Numbers');
    const tableId = design.tables[0]!.id;
    design = updateTable(design, tableId, { partitionKey: { name: 'PK', type: 'N' }, sortKey: undefined });
    design = addEntity(design, tableId, 'Device');
    const device = design.tables[0]!.entities[0]!;
    expect(device.keys.PK?.template).toBe('{deviceId}');
    expect(device.attributes[0]).toMatchObject({ name: 'deviceId', type: 'N' });
  });

  it('renaming a key attribute carries the entities\' templates to the new name', () => {
    const { design, tableId } = shop();
    const gsiId = design.tables[0]!.globalSecondaryIndexes[0]!.id;
    const next = updateGsi(design, tableId, gsiId, { partitionKey: { name: 'ByEmailPK', type: 'S' } });
    const keys = next.tables[0]!.entities[0]!.keys;
    expect(keys.ByEmailPK?.template).toBe('EMAIL#{email}');
    expect(keys.GSI1PK).toBeUndefined();
  });

  it('keeps a template when its old key name is still used by another index', () => {
    let { design, tableId } = shop();
    design = addGsi(design, tableId);
    const [gsi1, gsi2] = design.tables[0]!.globalSecondaryIndexes;
    design = updateGsi(design, tableId, gsi2!.id, { partitionKey: { name: 'GSI1PK', type: 'S' } });
    design = updateGsi(design, tableId, gsi1!.id, { partitionKey: { name: 'NEWPK', type: 'S' } });
    const keys = design.tables[0]!.entities[0]!.keys;
    expect(keys.GSI1PK?.template).toBe('EMAIL#{email}');
    expect(keys.NEWPK?.template).toBe('EMAIL#{email}');
  });

  it('gives every GSI capacity when billing turns provisioned, and drops it when it turns on-demand', () => {
    const { design, tableId } = shop();
    const provisioned = setBilling(design, tableId, { mode: 'PROVISIONED', readCapacityUnits: 10, writeCapacityUnits: 4 });
    expect(provisioned.tables[0]!.globalSecondaryIndexes[0]!.provisioned).toEqual({ readCapacityUnits: 10, writeCapacityUnits: 4 });
    const onDemand = setBilling(provisioned, tableId, { mode: 'ON_DEMAND' });
    expect(onDemand.tables[0]!.globalSecondaryIndexes[0]!.provisioned).toBeUndefined();
  });

  it('turns auto scaling on and off per direction for the table and a GSI, keeping the fixed capacity', () => {
    const { design, tableId } = shop();
    const provisioned = setBilling(design, tableId, { mode: 'PROVISIONED', readCapacityUnits: 10, writeCapacityUnits: 4 });
    const gsiId = provisioned.tables[0]!.globalSecondaryIndexes[0]!.id;
    const writes = { minCapacity: 5, maxCapacity: 1000, targetUtilizationPercent: 70 };
    const before = JSON.stringify(provisioned);

    const scaled = setAutoScaling(provisioned, { tableId }, 'write', writes);
    expect(JSON.stringify(provisioned)).toBe(before);
    expect(scaled.tables[0]!.billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 10, writeCapacityUnits: 4, autoScaling: { write: writes } });
    expect(scaled.tables[0]!.globalSecondaryIndexes[0]!.provisioned).toEqual({ readCapacityUnits: 10, writeCapacityUnits: 4 });

    const both = setAutoScaling(scaled, { tableId, gsiId }, 'read', { minCapacity: 1, maxCapacity: 20, targetUtilizationPercent: 50 });
    expect(both.tables[0]!.globalSecondaryIndexes[0]!.provisioned?.autoScaling).toEqual({ read: { minCapacity: 1, maxCapacity: 20, targetUtilizationPercent: 50 } });

    // Off again: the autoScaling object goes once neither direction scales.
    const off = setAutoScaling(setAutoScaling(both, { tableId }, 'write', undefined), { tableId, gsiId }, 'read', undefined);
    expect(off).toEqual(provisioned);
    expect('autoScaling' in off.tables[0]!.billing).toBe(false);
  });

  it('auto scaling needs provisioned billing; a new GSI of an auto scaled table scales alike', () => {
    const { design, tableId } = shop();
    const range = defaultAutoScalingRange(5);
    expect(range).toEqual({ minCapacity: 1, maxCapacity: 10, targetUtilizationPercent: 70 });
    expect(defaultAutoScalingRange(400).maxCapacity).toBe(800);
    expect(setAutoScaling(design, { tableId }, 'read', range)).toEqual(design);
    const scaled = setAutoScaling(setBilling(design, tableId, { mode: 'PROVISIONED', readCapacityUnits: 5, writeCapacityUnits: 5 }), { tableId }, 'read', range);
    const withGsi = addGsi(scaled, tableId);
    expect(withGsi.tables[0]!.globalSecondaryIndexes[1]!.provisioned).toEqual({ readCapacityUnits: 5, writeCapacityUnits: 5, autoScaling: { read: range } });
    expect(setBilling(withGsi, tableId, { mode: 'ON_DEMAND' }).tables[0]!.globalSecondaryIndexes.every((g) => g.provisioned === undefined)).toBe(true);
  });

  it('removing an entity keeps its access patterns, with no entity', () => {
    const { design, tableId, userId } = shop();
    const withPattern: Design = {
      ...design,
      tables: [
        {
          ...design.tables[0]!,
          accessPatterns: [
            { id: 'ap-1', name: 'Get user', entityId: userId, action: 'get', known: ['userId'], ratePerSecond: 10, consistency: 'eventual' },
          ],
        },
      ],
    };
    expect(removeEntity(withPattern, tableId, userId).tables[0]!.accessPatterns).toEqual([
      { id: 'ap-1', name: 'Get user', action: 'get', known: ['userId'], ratePerSecond: 10, consistency: 'eventual' },
    ]);
  });

  it('removing the sort key through updateTable deletes the property', () => {
    const { design, tableId } = shop();
    const next = updateTable(design, tableId, { sortKey: undefined });
    expect('sortKey' in next.tables[0]!).toBe(false);
  });
});

describe('access pattern edits', () => {
  it('adds, updates, reorders, duplicates and removes patterns', async () => {
    const { addAccessPattern, updateAccessPattern, moveAccessPattern, duplicateAccessPattern, removeAccessPattern } = await import('./edits.ts');
    let { design, tableId, userId } = shop();
    design = addAccessPattern(design, tableId, userId, 'Get user');
    design = addAccessPattern(design, tableId, userId, 'Find by email');
    const [a, b] = design.tables[0]!.accessPatterns;
    expect(a).toMatchObject({ name: 'Get user', entityId: userId, action: 'get', known: ['userId'], ratePerSecond: 10 });

    design = updateAccessPattern(design, tableId, b!.id, { known: ['email'], action: 'query', order: 'desc' });
    design = updateAccessPattern(design, tableId, b!.id, { order: undefined });
    expect(design.tables[0]!.accessPatterns[1]).toEqual({ ...b, known: ['email'], action: 'query' });

    design = moveAccessPattern(design, tableId, b!.id, 0);
    expect(design.tables[0]!.accessPatterns.map((p) => p.name)).toEqual(['Find by email', 'Get user']);

    design = duplicateAccessPattern(design, tableId, a!.id);
    expect(design.tables[0]!.accessPatterns.map((p) => p.name)).toEqual(['Find by email', 'Get user', 'Get user (copy)']);

    design = removeAccessPattern(design, tableId, a!.id);
    expect(design.tables[0]!.accessPatterns.map((p) => p.name)).toEqual(['Find by email', 'Get user (copy)']);
  });
});

describe('multi-attribute GSI key edits', () => {
  /** A GSI keyed on [a, b], an entity with a template for `a`. */
  function twoPart() {
    const { design, tableId, userId } = shop();
    const gsiId = design.tables[0]!.globalSecondaryIndexes[0]!.id;
    let next = updateGsi(design, tableId, gsiId, { partitionKey: [{ name: 'a', type: 'S' }, { name: 'b', type: 'S' }] });
    next = setKeyBinding(next, tableId, userId, 'a', { template: 'A#{email}' });
    return { design: next, tableId, userId, gsiId };
  }
  const keysOf = (d: Design) => d.tables[0]!.entities[0]!.keys;

  it('renaming one attribute of a part carries the entities\' template to the new name', () => {
    const { design, tableId, gsiId } = twoPart();
    const next = updateGsi(design, tableId, gsiId, { partitionKey: [{ name: 'c', type: 'S' }, { name: 'b', type: 'S' }] });
    expect(keysOf(next).c).toEqual({ template: 'A#{email}' });
    expect(keysOf(next).a).toBeUndefined();
  });

  it('reordering a part renames nothing: no template is copied', () => {
    const { design, tableId, gsiId } = twoPart();
    const next = updateGsi(design, tableId, gsiId, { partitionKey: [{ name: 'b', type: 'S' }, { name: 'a', type: 'S' }] });
    expect(keysOf(next).a).toEqual({ template: 'A#{email}' });
    expect(keysOf(next).b).toBeUndefined();
  });
});
