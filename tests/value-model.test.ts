/**
 * One value model behind every number: for several designs, the share of items in each sparse index,
 * the distinct partition keys and the hottest key agree between the planner/cost engine, the sample
 * store (the Data screen, exports) and the partition simulator's key space, within sampling error.
 */
import { partitionKeysOf, withValueModel, parseKeyTemplate, templateAttributes } from '../src-shared/model/index.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexFraction } from '../src-shared/capacity/index.ts';
import type { Design, Entity, Table } from '../src-shared/model/index.ts';
import { keySpaceOf } from '../src-shared/partition/index.ts';
import { costDesign } from '../src-shared/costing/index.ts';
import { createSampleStore } from '../src-shared/sample/index.ts';
import { distinctCombinationsOf, viewTable } from '../src-shared/planner/index.ts';

const ticketDesign = (status: Entity['attributes'][number]): Design => ({
  formatVersion: 1,
  id: 'tickets',
  name: 'Tickets',
  tables: [
    {
      id: 't',
      name: 'Support',
      partitionKey: { name: 'PK', type: 'S' },
      sortKey: { name: 'SK', type: 'S' },
      billing: { mode: 'ON_DEMAND' },
      tableClass: 'STANDARD',
      globalSecondaryIndexes: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      localSecondaryIndexes: [],
      entities: [
        {
          id: 'ticket',
          name: 'Ticket',
          itemCount: 20_000,
          attributes: [
            { name: 'ticketId', type: 'S' },
            { name: 'customerId', type: 'S', cardinality: 200 },
            status,
          ],
          keys: { PK: { template: 'T#{ticketId}' }, SK: { template: 'T' }, GSI1PK: { template: 'OPEN#{customerId}', when: 'status = "OPEN"' } },
        },
      ],
      accessPatterns: [{ id: 'open', name: 'Open tickets of a customer', entityId: 'ticket', action: 'query', known: ['customerId'], ratePerSecond: 1, consistency: 'eventual' }],
    },
  ],
});

const countryDesign = (): Design => ({
  formatVersion: 1,
  id: 'countries',
  name: 'Countries',
  tables: [
    {
      id: 't',
      name: 'Users',
      partitionKey: { name: 'PK', type: 'S' },
      billing: { mode: 'ON_DEMAND' },
      tableClass: 'STANDARD',
      globalSecondaryIndexes: [{ id: 'g1', name: 'ByCountry', partitionKey: { name: 'GSI1PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
      localSecondaryIndexes: [],
      entities: [
        {
          id: 'user',
          name: 'User',
          itemCount: 20_000,
          attributes: [
            { name: 'userId', type: 'S' },
            { name: 'country', type: 'S', generator: { kind: 'enum', values: ['PT', 'US', 'DE', 'JP'], distribution: { kind: 'hotKey', share: 0.7 } } },
          ],
          keys: { PK: { template: 'USER#{userId}' }, GSI1PK: { template: 'COUNTRY#{country}' } },
        },
      ],
      accessPatterns: [],
    },
  ],
});

/** Tickets, 30 % of them assigned: GSI2 keyed on the optional assigneeId holds only those. */
const assignedDesign = (): Design => {
  const d = ticketDesign({ name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'CLOSED'], weights: [1, 1] } });
  const t = d.tables[0]!;
  t.globalSecondaryIndexes.push({ id: 'g2', name: 'ByAssignee', partitionKey: { name: 'GSI2PK', type: 'S' }, projection: { type: 'ALL' } });
  const e = t.entities[0]!;
  e.attributes.push({ name: 'assigneeId', type: 'S', cardinality: 50, presence: 0.3 });
  e.keys.GSI2PK = { template: 'ASSIGNEE#{assigneeId}' };
  return d;
};

const example = (): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '../examples/ecommerce.keyplan.json'), 'utf8')) as Design;

/** Four standard errors of a share p measured on n items, plus a little for rounding. */
const tolerance = (p: number, n: number): number => 4 * Math.sqrt((p * (1 - p)) / n) + 1e-3;

interface Observed {
  share: number;
  items: number;
  keys: number;
  hottest: string;
}

/** What the sample store generated for one entity in one index (the entity is the view's only one). */
function observe(design: Design, table: Table, entity: Entity, index: string): Observed {
  const store = createSampleStore(design, table.id, { seed: 7, maxItems: 200_000 });
  const keys = store.keysOf(index);
  let hottest = 0;
  for (let k = 1; k < keys.itemsPerKey.length; k += 1) if ((keys.itemsPerKey[k] ?? 0) > (keys.itemsPerKey[hottest] ?? 0)) hottest = k;
  const generated = store.summary().itemsPerEntity[entity.id] ?? 0;
  return { share: keys.keyOfItem.length / generated, items: generated, keys: keys.keys.length, hottest: keys.keys[hottest] ?? '' };
}

describe('one value model: planner, sample data and simulator agree', () => {
  it.each([
    ['a status with no generator: the value the condition names and one other', ticketDesign({ name: 'status', type: 'S' }), 'Ticket', 'GSI1'],
    ['a status with weights OPEN 1 : CLOSED 9', ticketDesign({ name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'CLOSED'], weights: [1, 9] } }), 'Ticket', 'GSI1'],
    ['a status with a hot value OPEN at 30 %', ticketDesign({ name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'CLOSED', 'PENDING'], distribution: { kind: 'hotKey', share: 0.3 } } }), 'Ticket', 'GSI1'],
    ['the example: open orders in the sparse GSI2', example(), 'Order', 'GSI2'],
    ['users by country, one country hot at 70 %', countryDesign(), 'User', 'ByCountry'],
    ['an optional assignee on 30 % of tickets keys a sparse index', assignedDesign(), 'Ticket', 'ByAssignee'],
  ])('%s', (_, design, entityName, index) => {
    const table = design.tables[0]!;
    const entity = table.entities.find((e) => e.name === entityName)!;
    const planned = indexFraction(table, entity, index).value;
    // The planner's view of the same index holds the same share.
    const view = viewTable(withValueModel(table));
    const target = view.targets.find((t) => t.label === index)!;
    expect(view.byId.get(entity.id)!.membership[target.order]!.fraction).toBeCloseTo(planned, 12);
    const seen = observe(design, table, entity, index);
    expect(Math.abs(seen.share - planned)).toBeLessThanOrEqual(tolerance(planned, seen.items));

    // The simulator's key space for the same index: its keys and its hottest key.
    const modeled = withValueModel(table).entities.find((e) => e.id === entity.id)!;
    const pk = partitionKeysOf(table.globalSecondaryIndexes.find((g) => g.name === index)!)[0]!.name;
    const space = keySpaceOf(modeled, pk, entity.itemCount * planned, new Map())!;
    // Distinct keys: the planner's count of the key's attributes (within what the index allows) against what the sample holds.
    const parsed = parseKeyTemplate(entity.keys[pk]!.template);
    const names = parsed.ok ? templateAttributes(parsed.value) : [];
    const limits = new Map<string, number>();
    for (const c of space.combos) for (const name of Object.keys(c.values)) limits.set(name, new Set(space.combos.map((x) => String(x.values[name]))).size);
    const plannedKeys = Math.round(distinctCombinationsOf(modeled, names, limits).count);
    expect(space.logicalKeys).toBe(plannedKeys);
    expect(Math.abs(seen.keys - plannedKeys)).toBeLessThanOrEqual(Math.max(1, plannedKeys * 0.02));
    // The hottest key is the same value everywhere when one value is heavier than the rest.
    const top = space.combos[0]!;
    const second = space.combos[1];
    if (second && top.weight > second.weight * 1.5 && space.membersPerCombo === 1) {
      expect(seen.hottest).toBe(space.render(0, 0, 0));
    }
  });

  it('the costs of a design read the same share the sample data holds', () => {
    const design = ticketDesign({ name: 'status', type: 'S' });
    const cost = costDesign(design);
    const gsi = cost.tables[0]!.targets.find((t) => t.name === 'GSI1')!;
    // KEYS_ONLY entries of the open half: 10,000 × (entry + 100 B).
    const seen = observe(design, design.tables[0]!, design.tables[0]!.entities[0]!, 'GSI1');
    expect(seen.share).toBeCloseTo(0.5, 1);
    expect(gsi.storageBytes.steps.at(-2)?.expression).toContain('× 0.5 in the index');
  });
});
