/**
 * The longest value a key template renders, against DynamoDB's key size limits: a partition key 1 to
 * 2,048 bytes, a sort key 1 to 1,024 bytes, counted in UTF-8 (docs/dynamodb-rules.md §7). Byte counts
 * below are worked out by hand: "a" is 1 byte, "é" 2, "€" 3.
 */
import { describe, expect, it } from 'vitest';
import type { Attribute, Design, Entity, KeyBinding } from '../schema.ts';
import { validateDesign } from '../validate.ts';

const SK_PATH = 'tables[0].entities[0].keys.SK.template';
const PK_PATH = 'tables[0].entities[0].keys.PK.template';

function design(keys: Record<string, KeyBinding>, attributes: Attribute[] = [], more: Partial<Entity> = {}): Design {
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Keys',
    tables: [
      {
        id: 't',
        name: 'App',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities: [{ id: 'e', name: 'Item', itemCount: 1000, attributes, keys: { PK: { template: 'P' }, SK: { template: 'S' }, ...keys }, ...more }],
        accessPatterns: [],
      },
    ],
  };
}

/** The key-length problems of a design: path, bytes and whether the size is an estimate. */
function tooLong(d: Design): Array<{ path: string; bytes: number; isEstimate: boolean }> {
  return validateDesign(d)
    .filter((p) => p.code === 'model.keyTooLong')
    .map((p) => {
      const details = p.details as { bytes: number; isEstimate: boolean };
      return { path: p.path, bytes: details.bytes, isEstimate: details.isEstimate };
    });
}

describe('key length: literal text', () => {
  it.each([
    ['a sort key of 1,024 ASCII bytes', 'a'.repeat(1024), []],
    ['a sort key of 1,025 ASCII bytes', 'a'.repeat(1025), [{ path: SK_PATH, bytes: 1025, isEstimate: false }]],
    ['a sort key of 512 × é = 1,024 bytes', 'é'.repeat(512), []],
    ['a sort key of 512 × é and "a" = 1,025 bytes (513 characters)', `${'é'.repeat(512)}a`, [{ path: SK_PATH, bytes: 1025, isEstimate: false }]],
    ['a sort key of 342 × € = 1,026 bytes (342 characters)', '€'.repeat(342), [{ path: SK_PATH, bytes: 1026, isEstimate: false }]],
  ])('%s', (_, template, expected) => {
    expect(tooLong(design({ SK: { template } }))).toEqual(expected);
  });

  it('a partition key of 2,048 bytes is at the limit', () => {
    expect(tooLong(design({ PK: { template: 'a'.repeat(2048) } }))).toEqual([]);
  });

  it('names the template and the byte count, and cites the limit', () => {
    const [problem] = validateDesign(design({ SK: { template: 'a'.repeat(1025) } }));
    expect(problem?.message).toContain('renders up to 1,025 bytes');
    expect(problem?.message).toContain("expected at most 1,024 bytes, DynamoDB's sort key limit");
    expect(problem?.message).toContain('https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html');
    expect(problem).toMatchObject({ found: 'up to 1,025 bytes', expected: 'at most 1,024 bytes' });
  });
});

describe('key length: widths the value model knows', () => {
  it.each<[string, Attribute, string, number | undefined]>([
    // "S#" (2) + the longest enum value.
    ['an enum value of 1,022 bytes', { name: 'v', type: 'S', generator: { kind: 'enum', values: ['A', 'x'.repeat(1022)] } }, 'S#{v}', undefined],
    ['an enum value of 1,023 bytes', { name: 'v', type: 'S', generator: { kind: 'enum', values: ['A', 'x'.repeat(1023)] } }, 'S#{v}', 1025],
    // 341 × € = 1,023 bytes, + 2.
    ['a constant of 341 × €', { name: 'v', type: 'S', generator: { kind: 'constant', value: '€'.repeat(341) } }, 'S#{v}', 1025],
    // Prefix 1,000 bytes + 30 digits = 1,030, + 2.
    ['an id with a long prefix', { name: 'v', type: 'S', generator: { kind: 'id', prefix: 'p'.repeat(1000), width: 30 } }, 'S#{v}', 1032],
    // Text of exactly 1,022 characters (ASCII words), + 2 = 1,024.
    ['text of 1,022 characters', { name: 'v', type: 'S', generator: { kind: 'text', length: 1022 } }, 'S#{v}', undefined],
    ['text of 1,023 characters', { name: 'v', type: 'S', generator: { kind: 'text', length: 1023 } }, 'S#{v}', 1025],
    // A uuid is 36 bytes: 28 of them = 1,008, + 27 "#" = 1,035.
    ['28 uuids', { name: 'v', type: 'S', generator: { kind: 'uuid' } }, Array.from({ length: 28 }, () => '{v}').join('#'), 1035],
    // A BOOL renders "false" at most: 205 × 5 = 1,025.
    ['205 booleans', { name: 'v', type: 'BOOL' }, '{v}'.repeat(205), 1025],
  ])('%s', (_, attribute, template, bytes) => {
    const expected = bytes === undefined ? [] : [{ path: SK_PATH, bytes, isEstimate: false }];
    expect(tooLong(design({ SK: { template } }, [attribute]))).toEqual(expected);
  });

  it('a padded number takes its padded width: 27 × {n:038} = 1,026 bytes', () => {
    expect(tooLong(design({ SK: { template: '{n:038}'.repeat(27) } }, [{ name: 'n', type: 'N' }]))).toEqual([{ path: SK_PATH, bytes: 1026, isEstimate: false }]);
  });

  it("takes the values the design's conditions name: a status compared with a 1,020-byte value", () => {
    const value = 'V'.repeat(1020);
    const d = design({ SK: { template: 'STATUS#{status}' } }, [{ name: 'status', type: 'S' }]);
    d.tables[0]!.accessPatterns.push({ id: 'p', name: 'P', entityId: 'e', action: 'query', known: [], ratePerSecond: 1, consistency: 'eventual', filter: `status = "${value}"` });
    // "STATUS#" (7) + 1,020.
    expect(tooLong(d)).toEqual([{ path: SK_PATH, bytes: 1027, isEstimate: false }]);
  });

  it('adds the write-sharding suffix ".N": 2,043 bytes + ".1000" fits, 2,044 does not', () => {
    const shards = { count: 1000, method: 'random' as const };
    expect(tooLong(design({ PK: { template: 'a'.repeat(2043), shards } }))).toEqual([]);
    expect(tooLong(design({ PK: { template: 'a'.repeat(2044), shards } }))).toEqual([{ path: PK_PATH, bytes: 2049, isEstimate: false }]);
  });

  it('estimates from the average size where the model has no bound, and says so', () => {
    // userId has no generator and is not categorical: its average size decides. "U#" + 1,023 = 1,025.
    const d = design({ SK: { template: 'U#{userId}' } }, [{ name: 'userId', type: 'S', averageSizeBytes: 1023 }]);
    expect(tooLong(d)).toEqual([{ path: SK_PATH, bytes: 1025, isEstimate: true }]);
    expect(validateDesign(d)[0]?.message).toContain('renders about 1,025 bytes');
  });
});
