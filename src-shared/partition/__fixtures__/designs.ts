/** Small designs for the simulator's tests: one table, one entity, the knobs a test turns. */
import type { AccessPattern, Billing, Design, Distribution, Entity, GlobalSecondaryIndex, KeyBinding, Workload } from '../../model/schema.ts';

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
