/**
 * Two independent roads to the same numbers: workload-stats states by formula the share of an
 * entity's items a sparse GSI holds, the distinct values of its partition key, the mean items per
 * key and (under a hot value) the largest; the sample generator draws 100,000 items of the same
 * design. Over 12 designs (inherited references, sparse conditions on weighted enums, an optional
 * key attribute, Zipf and hot projects) every stated figure lies within 4σ of the counts.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { withValueModel, type Attribute, type Distribution, type Table } from '../model/index.ts';
import { viewTable } from '../planner/index.ts';
import { indexFraction } from '../capacity/index.ts';
import { createSampleStore } from '../sample/index.ts';
import { entityCountsOf, itemsPerKeyOf, membershipShareOf } from './index.ts';
import { parseCondition } from '../model/index.ts';

const ITEMS = 100_000;
const STATUSES = ['OPEN', 'CLOSED', 'OTHER'];

interface Shape {
  organizations: number;
  projects: number;
  weights: number[];
  allowed: string[];
  presence: number;
  keyHasLabel: boolean;
  spread: Distribution;
}

const shapes: fc.Arbitrary<Shape> = fc.record({
  organizations: fc.integer({ min: 2, max: 8 }),
  projects: fc.integer({ min: 10, max: 40 }),
  weights: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 3, maxLength: 3 }),
  allowed: fc.subarray(STATUSES, { minLength: 1, maxLength: 2 }),
  presence: fc.double({ min: 0.5, max: 1, noNaN: true }),
  keyHasLabel: fc.boolean(),
  spread: fc.oneof(
    fc.constant<Distribution>({ kind: 'uniform' }),
    fc.double({ min: 0.3, max: 1.2, noNaN: true }).map((exponent): Distribution => ({ kind: 'zipf', exponent })),
    fc.double({ min: 0.05, max: 0.5, noNaN: true }).map((share): Distribution => ({ kind: 'hotKey', share })),
  ),
});

function designOf(s: Shape): Table {
  const label: Attribute = { name: 'label', type: 'S', generator: { kind: 'enum', values: ['A', 'B'] }, ...(s.presence < 1 ? { presence: s.presence } : {}) };
  const when = s.allowed.length === 1 ? `status = "${s.allowed[0]}"` : `status IN (${s.allowed.map((v) => `"${v}"`).join(', ')})`;
  return {
    id: 't',
    name: 'T',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [
      { id: 'g', name: 'GSI1', partitionKey: { name: 'GPK', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
      { id: 'g2', name: 'GSI2', partitionKey: { name: 'G2PK', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
    ],
    localSecondaryIndexes: [],
    entities: [
      { id: 'e-org', name: 'Organization', itemCount: s.organizations, attributes: [{ name: 'organizationId', type: 'S', generator: { kind: 'id' } }], keys: { PK: { template: 'O#{organizationId}' }, SK: { template: 'O' } } },
      {
        id: 'e-project',
        name: 'Project',
        itemCount: s.projects,
        attributes: [
          { name: 'projectId', type: 'S', generator: { kind: 'id' } },
          { name: 'organizationId', type: 'S' },
        ],
        keys: { PK: { template: 'P#{projectId}' }, SK: { template: 'P' } },
      },
      {
        id: 'e-issue',
        name: 'Issue',
        itemCount: ITEMS,
        attributes: [
          { name: 'issueId', type: 'S', generator: { kind: 'id' } },
          { name: 'projectId', type: 'S', generator: { kind: 'ref', entity: 'e-project', distribution: s.spread } },
          { name: 'organizationId', type: 'S' },
          { name: 'status', type: 'S', generator: { kind: 'enum', values: STATUSES, weights: s.weights } },
          label,
        ],
        keys: {
          PK: { template: 'I#{issueId}' },
          SK: { template: 'I' },
          GPK: { template: s.keyHasLabel ? 'O#{organizationId}#P#{projectId}#{label}' : 'O#{organizationId}#P#{projectId}', when },
          // Only the items that carry the optional label: the share that carries an attribute.
          G2PK: { template: 'L#{label}' },
        },
      },
    ],
    accessPatterns: [],
  };
}

test('the stated share, distinct keys, mean and largest items per key agree with 100,000 generated items within 4σ', () => {
  fc.assert(
    fc.property(shapes, (s) => {
      const table = designOf(s);
      const modeled = withValueModel(table);
      const issue = modeled.entities[2]!;
      const refs = entityCountsOf(modeled);
      const keyAttributes = s.keyHasLabel ? ['organizationId', 'projectId', 'label'] : ['organizationId', 'projectId'];
      const when = parseCondition(table.entities[2]!.keys['GPK']!.when!);
      if (!when.ok) throw new Error('condition');
      const stated = membershipShareOf(issue, [when.value], keyAttributes, refs).fraction;
      // Every screen states that share: the planner's membership (Entities & keys, the plans) and Costs' index fraction.
      expect(viewTable(modeled).byId.get('e-issue')!.membership[1]!.fraction).toBeCloseTo(stated, 12);
      expect(indexFraction(table, table.entities[2]!, 'GSI1').value).toBeCloseTo(stated, 12);
      const perKey = itemsPerKeyOf(issue, keyAttributes, ITEMS * stated, new Map(), refs);

      const store = createSampleStore({ formatVersion: 1, id: 'd', name: 'd', tables: [table] }, 't', { maxItems: ITEMS + s.projects + s.organizations, seed: 7 });
      const counts = [...store.collections('GSI1')].map((c) => c.items);
      const inIndex = counts.reduce((a, b) => a + b, 0);
      const sigma = (p: number) => Math.sqrt(ITEMS * p * (1 - p));
      expect(Math.abs(inIndex - ITEMS * stated)).toBeLessThanOrEqual(4 * sigma(stated) + 1e-9);
      // Every key holds dozens of items at least, so the sample shows each of the stated keys.
      expect(counts.length).toBe(perKey.distinct);
      expect(Math.abs(inIndex / counts.length - perKey.mean)).toBeLessThanOrEqual((4 * sigma(stated)) / perKey.distinct + 1e-9);
      // The hot project's count is the largest only when it stands out (a hot share well above 1 ÷ n).
      if (s.spread.kind === 'hotKey' && s.spread.share >= 2 / s.projects && !s.keyHasLabel) {
        const hot = stated * perKey.hottestShare;
        expect(Math.abs(Math.max(...counts) - perKey.largest)).toBeLessThanOrEqual(4 * sigma(hot) + 1e-9);
      }

      const carried = membershipShareOf(issue, [], ['label'], refs).fraction;
      expect(carried).toBeCloseTo(s.presence < 1 ? s.presence : 1, 12);
      const labels = [...store.collections('GSI2')].map((c) => c.items);
      const withLabel = labels.reduce((a, b) => a + b, 0);
      expect(Math.abs(withLabel - ITEMS * carried)).toBeLessThanOrEqual(4 * sigma(carried) + 1e-9);
      const perLabel = itemsPerKeyOf(issue, ['label'], ITEMS * carried, new Map(), refs);
      expect(labels.length).toBe(perLabel.distinct);
      expect(Math.abs(withLabel / labels.length - perLabel.mean)).toBeLessThanOrEqual((4 * sigma(carried)) / perLabel.distinct + 1e-9);
    }),
    { numRuns: 12, seed: 20261204 },
  );
});
