/**
 * The two limits a design breaks before any request throttles: 400 KB an item (with its LSI
 * entries) and 10 GB an item collection on a table with an LSI. Sizes are worked out by hand from
 * the item-size rule (docs/dynamodb-rules.md §1.1): each attribute's name bytes plus its value bytes.
 */
import { describe, expect, it } from 'vitest';
import type { Design, Entity, LocalSecondaryIndex, Table } from '../model/index.ts';
import { createTable } from '../model/index.ts';
import { costDesign } from './design-cost.ts';

/**
 * One entity: docId (5 + 10 B), body (4 + `bodyBytes` B), PK = DOC#{docId} (2 + 4 + 10 B) and
 * SK = DOC (2 + 3 B): 40 + bodyBytes bytes. Keyed on ALL instead: PK 2 + 3 B, 29 + bodyBytes.
 */
function design(bodyBytes: number, options: { itemCount?: number; oneKey?: boolean; lsi?: LocalSecondaryIndex } = {}): Design {
  const entity: Entity = {
    id: 'e-doc',
    name: 'Doc',
    itemCount: options.itemCount ?? 1000,
    attributes: [
      { name: 'docId', type: 'S', averageSizeBytes: 10 },
      { name: 'body', type: 'S', averageSizeBytes: bodyBytes },
    ],
    keys: { PK: { template: options.oneKey ? 'ALL' : 'DOC#{docId}' }, SK: { template: 'DOC' }, ...(options.lsi ? { LSI1SK: { template: 'X' } } : {}) },
  };
  const table: Table = {
    ...createTable('Docs'),
    localSecondaryIndexes: options.lsi ? [options.lsi] : [],
    entities: [entity],
    accessPatterns: [{ id: 'p', name: 'Get a doc', entityId: 'e-doc', action: 'get', known: ['docId'], ratePerSecond: 1, consistency: 'eventual' }],
  };
  return { formatVersion: 1, id: 'd', name: 'Limits', tables: [table] };
}

const codes = (d: Design, code: string) => costDesign(d).warnings.filter((w) => w.code === code);
const lsi = (projection: LocalSecondaryIndex['projection']): LocalSecondaryIndex => ({ id: 'l', name: 'ByX', sortKey: { name: 'LSI1SK', type: 'S' }, projection });

describe('the 400 KB item limit', () => {
  it('accepts an item of exactly 409,600 bytes and flags one byte more, naming its size', () => {
    expect(codes(design(409_560), 'cost.itemTooLarge')).toEqual([]);
    const [warning] = codes(design(409_561), 'cost.itemTooLarge');
    // 409,601 B = 400.0009… KB.
    expect(warning?.severity).toBe('error');
    expect(warning?.message).toContain("Doc items are estimated at 400 KB: over DynamoDB's 400 KB item limit (409,600 bytes");
    expect(warning?.message).toContain('ValidationException');
  });

  it('counts the LSI entries with the item: a 300,000-byte body projected ALL is 600,094 bytes together', () => {
    // Item: 40 + 300,000 + LSI1SK (6 + 1) = 300,047 B; the ALL entry is the whole item again: 600,094 B.
    expect(codes(design(300_000), 'cost.itemTooLarge')).toEqual([]);
    const [warning] = codes(design(300_000, { lsi: lsi({ type: 'ALL' }) }), 'cost.itemTooLarge');
    expect(warning?.message).toContain('Doc items are estimated at 293 KB with 293 KB of LSI entries, 586 KB together (the limit counts both)');
  });
});

describe('the 10 GB item collection limit of a table with an LSI', () => {
  // Keyed on ALL with an LSI (KEYS_ONLY): item 29 + 500 + LSI1SK 7 = 536 B; entry PK 5 + SK 5 + LSI1SK 7 = 17 B; 553 B stored per item.
  const keysOnly = lsi({ type: 'KEYS_ONLY' });

  it('flags 20,000,000 items under one partition-key value: 20,000,000 × 553 B = 11,060,000,000 B = 10.3 GB', () => {
    const [warning] = codes(design(500, { itemCount: 20_000_000, oneKey: true, lsi: keysOnly }), 'cost.itemCollectionTooLarge');
    expect(warning?.severity).toBe('error');
    expect(warning?.message).toContain('Doc alone puts about 10.3 GB under the busiest PK = ALL value (Doc 20,000,000 items × 553 B, LSI entries included)');
    expect(warning?.message).toContain('ItemCollectionSizeLimitExceededException');
  });

  it('leaves 19,000,000 such items (10,507,000,000 B = 9.8 GB), the same items spread over their ids, and a table without an LSI alone', () => {
    expect(codes(design(500, { itemCount: 19_000_000, oneKey: true, lsi: keysOnly }), 'cost.itemCollectionTooLarge')).toEqual([]);
    expect(codes(design(500, { itemCount: 20_000_000, lsi: keysOnly }), 'cost.itemCollectionTooLarge')).toEqual([]);
    expect(codes(design(500, { itemCount: 20_000_000, oneKey: true }), 'cost.itemCollectionTooLarge')).toEqual([]);
  });

  it('adds up the entities keyed on the same template, a referenced key counted by the referenced entity: 10 devices, 200,000,000 readings', () => {
    // Reading: deviceId 8 + 10, readingId 9 + 10, body 4 + 500, PK DEVICE#{deviceId} 2 + 7 + 10, SK READING#{readingId} 2 + 8 + 10,
    // LSI1SK 6 + 1 = 587 B; its KEYS_ONLY entry PK 19 + SK 20 + LSI1SK 7 = 46 B: 633 B. Device: 18 + PK 19 + SK DEVICE 8 + 7 = 52 B
    // and a 34 B entry: 86 B. Under one device: 1 × 86 + 20,000,000 × 633 = 12,660,000,086 B = 11.8 GB.
    const d = design(500, { lsi: keysOnly });
    const table = d.tables[0]!;
    table.entities = [
      { id: 'e-dev', name: 'Device', itemCount: 10, attributes: [{ name: 'deviceId', type: 'S', averageSizeBytes: 10 }], keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'DEVICE' }, LSI1SK: { template: 'X' } } },
      {
        id: 'e-r',
        name: 'Reading',
        itemCount: 200_000_000,
        attributes: [
          { name: 'deviceId', type: 'S', averageSizeBytes: 10, generator: { kind: 'ref', entity: 'e-dev' } },
          { name: 'readingId', type: 'S', averageSizeBytes: 10 },
          { name: 'body', type: 'S', averageSizeBytes: 500 },
        ],
        keys: { PK: { template: 'DEVICE#{deviceId}' }, SK: { template: 'READING#{readingId}' }, LSI1SK: { template: 'X' } },
      },
    ];
    table.accessPatterns = [{ id: 'p', name: 'Get a reading', entityId: 'e-r', action: 'get', known: ['deviceId', 'readingId'], ratePerSecond: 1, consistency: 'eventual' }];
    const [warning] = codes(d, 'cost.itemCollectionTooLarge');
    expect(warning?.message).toContain('Device and Reading together put about 11.8 GB under the busiest PK = DEVICE#{deviceId} value (Device 1 item × 86 B + Reading 20,000,000 items × 633 B, LSI entries included)');
  });
});
