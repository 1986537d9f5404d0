/**
 * The benchmark's workload: one provisioned table laid out on 1,000 partitions (600,000 WCU +
 * 1,200,000 RCU by the §4.2 formula) with 20 access patterns over five entities, one hour at
 * one-second steps, with a spike and a ramp. One pattern has a hot key, one follows Zipf's law.
 */
import type { AccessPattern, Design, Entity } from '../src-shared/model/index.ts';

const ENTITIES = ['Account', 'Device', 'Event', 'Invoice', 'Session'];

function entity(name: string, i: number): Entity {
  const id = `${name.toLowerCase()}Id`;
  return {
    id: `e-${i}`,
    name,
    itemCount: 2_000_000,
    attributes: [
      { name: id, type: 'S', generator: { kind: 'id' } },
      { name: 'ownerId', type: 'S', generator: { kind: 'id' }, cardinality: 200_000 },
      { name: 'createdAt', type: 'S', generator: { kind: 'timestamp' } },
      { name: 'payload', type: 'S', averageSizeBytes: 600 },
    ],
    keys: { PK: { template: `${name.toUpperCase()}#{ownerId}` }, SK: { template: `${name.toUpperCase()}#{${id}}` } },
  };
}

function patterns(): AccessPattern[] {
  const out: AccessPattern[] = [];
  ENTITIES.forEach((name, i) => {
    const entityId = `e-${i}`;
    const id = `${name.toLowerCase()}Id`;
    out.push(
      { id: `get-${i}`, name: `Get ${name}`, entityId, action: 'get', known: ['ownerId', id], ratePerSecond: 150, consistency: 'eventual', ...(i === 0 ? { traffic: { kind: 'zipf', exponent: 1.1 } } : {}) },
      { id: `list-${i}`, name: `List ${name}s of an owner`, entityId, action: 'query', known: ['ownerId'], resultSize: 20, ratePerSecond: 100, consistency: 'eventual' },
      { id: `put-${i}`, name: `Put ${name}`, entityId, action: 'put', known: ['ownerId', id], ratePerSecond: 100, consistency: 'eventual', ...(i === 1 ? { traffic: { kind: 'hotKey', share: 0.5 } } : {}) },
      { id: `update-${i}`, name: `Update ${name}`, entityId, action: 'update', known: ['ownerId', id], updates: ['payload'], ratePerSecond: 50, consistency: 'eventual' },
    );
  });
  return out;
}

/** The benchmark design: 1,000 partitions, 20 patterns (2,000 requests/s at the base rate). */
export function benchDesign(): Design {
  return {
    formatVersion: 1,
    id: 'bench',
    name: 'Benchmark',
    tables: [
      {
        id: 't-bench',
        name: 'Bench',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'PROVISIONED', readCapacityUnits: 1_200_000, writeCapacityUnits: 600_000 },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities: ENTITIES.map(entity),
        accessPatterns: patterns(),
      },
    ],
    workload: {
      durationSeconds: 3600,
      stepSeconds: 1,
      seed: 42,
      events: [
        { kind: 'spike', startSecond: 900, durationSeconds: 300, multiplier: 5 },
        { kind: 'ramp', startSecond: 1800, durationSeconds: 1200, multiplier: 3, patternIds: ['put-1', 'get-0'] },
      ],
    },
  };
}
