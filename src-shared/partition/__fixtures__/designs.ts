/** Small designs for the simulator's tests: one table, one entity, the knobs a test turns. */
import type {
  AccessPattern,
  Billing,
  Design,
  Distribution,
  Entity,
  GlobalSecondaryIndex,
  KeyBinding,
  Workload,
} from '../../model/index.ts';

export interface OneTableOptions {
  billing?: Billing;
  entity?: Partial<Entity>;
  keys?: Record<string, KeyBinding>;
  patterns?: AccessPattern[];
  gsis?: GlobalSecondaryIndex[];
  workload?: Workload;
}

/** A design of one table `PK`/`SK` with one entity `Event` (1,000,000 items of ~1 KB or less). */
export function oneTableDesign(options: OneTableOptions = {}): Design {
  return {
    formatVersion: 1,
    id: 'd-test',
    name: 'Test',
    tables: [
      {
        id: 't-test',
        name: 'Events',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: options.billing ?? { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: options.gsis ?? [],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'e-event',
            name: 'Event',
            itemCount: 1_000_000,
            attributes: [
              { name: 'eventId', type: 'S', generator: { kind: 'id' } },
              { name: 'deviceId', type: 'S', generator: { kind: 'id' }, cardinality: 100_000 },
              { name: 'country', type: 'S', generator: { kind: 'enum', values: ['US', 'DE', 'PT', 'JP', 'BR'] } },
              { name: 'status', type: 'S', generator: { kind: 'enum', values: ['PENDING', 'DONE'], weights: [1, 9] } },
              { name: 'createdAt', type: 'S', generator: { kind: 'timestamp' } },
              { name: 'day', type: 'S', generator: { kind: 'date' }, cardinality: 365 },
              { name: 'payload', type: 'S', averageSizeBytes: 700 },
            ],
            keys: options.keys ?? { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'EVENT#{eventId}' } },
            ...options.entity,
          },
        ],
        accessPatterns: options.patterns ?? [],
      },
    ],
    ...(options.workload ? { workload: options.workload } : {}),
  };
}

/** A put of `Event` at `rate` per second, with a traffic distribution. */
export function putEvents(rate: number, traffic?: Distribution, id = 'ap-put'): AccessPattern {
  return { id, name: 'Record an event', entityId: 'e-event', action: 'put', known: ['deviceId', 'eventId'], ratePerSecond: rate, consistency: 'eventual', ...(traffic ? { traffic } : {}) };
}

/** A get of one `Event` at `rate` per second. */
export function getEvent(rate: number, traffic?: Distribution, id = 'ap-get'): AccessPattern {
  return { id, name: 'Get an event', entityId: 'e-event', action: 'get', known: ['deviceId', 'eventId'], ratePerSecond: rate, consistency: 'eventual', ...(traffic ? { traffic } : {}) };
}

/** Ten minutes at one-second steps, no events. */
export const TEN_MINUTES: Workload = { durationSeconds: 600, stepSeconds: 1, seed: 1, events: [] };
/** One hour at one-second steps, no events. */
export const ONE_HOUR: Workload = { durationSeconds: 3600, stepSeconds: 1, seed: 1, events: [] };

export interface BenchShapeOptions {
  /** Multiplies every pattern's base rate (1: 2,000 requests/s in all). */
  rateScale?: number;
  billing?: Billing;
  /** Adds GSI1 on `OWNER#{ownerId}` / `{createdAt}` (keys only) to every entity. */
  withGsi?: boolean;
  workload?: Workload;
}

const BENCH_ENTITIES = ['Account', 'Device', 'Event', 'Invoice', 'Session'];

/**
 * The shape of the benchmark's design at a size a test can run: five entities of 2,000,000 items,
 * four patterns each (get, list, put, update; one Zipf get, one hot-key put), an hour with a spike
 * and a ramp. Provisioned at 30,000 RCU / 10,000 WCU it has 20 partitions.
 */
export function benchShapedDesign(options: BenchShapeOptions = {}): Design {
  const scale = options.rateScale ?? 1;
  const entities: Entity[] = BENCH_ENTITIES.map((name, i) => {
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
      keys: {
        PK: { template: `${name.toUpperCase()}#{ownerId}` },
        SK: { template: `${name.toUpperCase()}#{${id}}` },
        ...(options.withGsi ? { GSI1PK: { template: 'OWNER#{ownerId}' }, GSI1SK: { template: '{createdAt}' } } : {}),
      },
    };
  });
  const patterns: AccessPattern[] = BENCH_ENTITIES.flatMap((name, i): AccessPattern[] => {
    const entityId = `e-${i}`;
    const id = `${name.toLowerCase()}Id`;
    return [
      { id: `get-${i}`, name: `Get ${name}`, entityId, action: 'get', known: ['ownerId', id], ratePerSecond: 150 * scale, consistency: 'eventual', ...(i === 0 ? { traffic: { kind: 'zipf' as const, exponent: 1.1 } } : {}) },
      { id: `list-${i}`, name: `List ${name}s of an owner`, entityId, action: 'query', known: ['ownerId'], resultSize: 20, ratePerSecond: 100 * scale, consistency: 'eventual' },
      { id: `put-${i}`, name: `Put ${name}`, entityId, action: 'put', known: ['ownerId', id], ratePerSecond: 100 * scale, consistency: 'eventual', ...(i === 1 ? { traffic: { kind: 'hotKey' as const, share: 0.5 } } : {}) },
      { id: `update-${i}`, name: `Update ${name}`, entityId, action: 'update', known: ['ownerId', id], updates: ['payload'], ratePerSecond: 50 * scale, consistency: 'eventual' },
    ];
  });
  return {
    formatVersion: 1,
    id: 'd-bench-shape',
    name: 'Bench shape',
    tables: [
      {
        id: 't-bench',
        name: 'Bench',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: options.billing ?? { mode: 'PROVISIONED', readCapacityUnits: 30_000, writeCapacityUnits: 10_000 },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: options.withGsi ? [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }] : [],
        localSecondaryIndexes: [],
        entities,
        accessPatterns: patterns,
      },
    ],
    workload: options.workload ?? {
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
