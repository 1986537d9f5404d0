import { describe, expect, it } from 'vitest';
import type { Design } from '../model/index.ts';
import { parseDesign, validateDesign } from '../model/index.ts';
import { keptMaximumsOf, proposeFromLoad, proposeProvisionedCapacity, switchToOnDemand, switchToProvisioned } from './capacity-proposal.ts';

/** 1,615 B orders with a GSI1 (ALL) entry each: a put is 2 WCU on the table and 2 on GSI1, a GetItem 0.5 RCU. */
function orders(gets: number, puts: number): Design {
  const design: Design = {
    formatVersion: 1,
    id: 'design-proposal',
    name: 'Proposal',
    tables: [
      {
        id: 'tbl-orders',
        name: 'Orders',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        onDemandThroughput: { maxReadRequestUnits: 5000 },
        globalSecondaryIndexes: [
          { id: 'gsi-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' }, onDemandThroughput: { maxWriteRequestUnits: 900 } },
        ],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'ent-order',
            name: 'Order',
            itemCount: 10_000,
            attributes: [
              { name: 'orderId', type: 'S', averageSizeBytes: 10 },
              { name: 'status', type: 'S', averageSizeBytes: 7, generator: { kind: 'enum', values: ['OPEN', 'SHIPPED', 'DONE', 'CANCELLED'], weights: [1, 1, 1, 1] } },
              { name: 'body', type: 'S', averageSizeBytes: 1500 },
            ],
            keys: { PK: { template: 'ORDER#{orderId}' }, SK: { template: 'ORDER' }, GSI1PK: { template: 'STATUS#{status}' }, GSI1SK: { template: '{orderId}' } },
          },
        ],
        accessPatterns: [
          { id: 'ap-get', name: 'Get order', entityId: 'ent-order', action: 'get', known: ['orderId'], ratePerSecond: gets, consistency: 'eventual' },
          { id: 'ap-put', name: 'Place order', entityId: 'ent-order', action: 'put', known: ['orderId'], ratePerSecond: puts, consistency: 'eventual' },
        ],
      },
    ],
  };
  const parsed = parseDesign(design);
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  return parsed.value;
}

const units = (d: Design) => proposeProvisionedCapacity(d.tables[0]!).targets.map((t) => [t.name, t.readCapacityUnits.value, t.writeCapacityUnits.value]);

describe('provisioned capacity proposed from the load', () => {
  it('per table and GSI, ceil(peak ÷ 70 %), at least 1', () => {
    // Table: 300 gets × 0.5 = 150 RCU/s → ceil(214.3) = 215; 10 puts × 2 = 20 WCU/s → ceil(28.6) = 29.
    // GSI1: no reads → 1; 20 WCU/s → 29.
    expect(units(orders(300, 10))).toEqual([
      ['table', 215, 29],
      ['GSI1', 1, 29],
    ]);
  });

  it('a table with no patterns gets 1 RCU and 1 WCU, not 5', () => {
    expect(units(orders(0, 0))).toEqual([
      ['table', 1, 1],
      ['GSI1', 1, 1],
    ]);
  });

  it("uses the auto scaling target when reads auto scale: 150 RCU/s at 50 % is 300", () => {
    const d = orders(300, 10);
    const proposal = proposeProvisionedCapacity(d.tables[0]!, undefined, { table: { read: { minCapacity: 1, maxCapacity: 1000, targetUtilizationPercent: 50 } } });
    expect(proposal.targets[0]!.readCapacityUnits.value).toBe(300);
    expect(proposal.targets[0]!.readCapacityUnits.steps[1]!.label).toBe('Target utilization: the read auto scaling target');
  });

  it('says where each number comes from', () => {
    const rcu = proposeProvisionedCapacity(orders(300, 10).tables[0]!).targets[0]!.readCapacityUnits;
    expect(rcu.steps.map((s) => [s.expression, s.value])).toEqual([
      ['150 RCU/s', 150],
      ['70 %', 0.7],
      ['max(1, ceil(150 ÷ 70 %))', 215],
    ]);
    expect(rcu.steps[0]!.label).toBe('Peak read units per second on table Orders: the sum of the access patterns that use it');
  });

  it('switching applies it as one valid design, drops the on-demand maximums, and switching back restores them', () => {
    const design = orders(300, 10);
    const kept = keptMaximumsOf(design.tables[0]!);
    const provisioned = switchToProvisioned(design, proposeProvisionedCapacity(design.tables[0]!));
    const table = provisioned.tables[0]!;
    expect(table.billing).toEqual({ mode: 'PROVISIONED', readCapacityUnits: 215, writeCapacityUnits: 29 });
    expect(table.globalSecondaryIndexes[0]!.provisioned).toEqual({ readCapacityUnits: 1, writeCapacityUnits: 29 });
    expect(table.onDemandThroughput).toBeUndefined();
    expect(table.globalSecondaryIndexes[0]!.onDemandThroughput).toBeUndefined();
    expect(validateDesign(provisioned)).toEqual([]);

    const back = switchToOnDemand(provisioned, 'tbl-orders', kept).tables[0]!;
    expect(back.billing).toEqual({ mode: 'ON_DEMAND' });
    expect(back.onDemandThroughput).toEqual({ maxReadRequestUnits: 5000 });
    expect(back.globalSecondaryIndexes[0]).toMatchObject({ onDemandThroughput: { maxWriteRequestUnits: 900 } });
    expect(back.globalSecondaryIndexes[0]!.provisioned).toBeUndefined();
  });
});

describe('a proposal without a known load', () => {
  it('proposes the minimum for every target and says why', () => {
    const design = orders(300, 10);
    const proposal = proposeFromLoad(design.tables[0]!, []);
    expect(proposal.targets.map((t) => [t.name, t.readCapacityUnits.value, t.writeCapacityUnits.value])).toEqual([
      ['table', 1, 1],
      ['GSI1', 1, 1],
    ]);
    expect(proposal.targets[0]!.readCapacityUnits.steps[0]!.label).toBe('Peak read units per second on table Orders: none known, the costs cannot be computed yet');
  });
});
