import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { joinPath, parseDesign, parseDesignStructure, validateDesign, describeValue } from './validate.ts';
import type { AccessPattern, Design, GlobalSecondaryIndex, KeyAttribute } from './schema.ts';
import type { Problem } from './problems.ts';

/** A small valid design: one table, a GSI and an LSI, two entities, two access patterns. */
function baseDesign(): Design {
  return {
    formatVersion: 1,
    id: 'd-1',
    name: 'Test',
    tables: [
      {
        id: 't-1',
        name: 'App',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [
          { id: 'g-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } },
        ],
        localSecondaryIndexes: [{ id: 'l-1', name: 'LSI1', sortKey: { name: 'LSI1SK', type: 'S' }, projection: { type: 'KEYS_ONLY' } }],
        entities: [
          {
            id: 'e-user',
            name: 'User',
            itemCount: 100,
            attributes: [
              { name: 'userId', type: 'S' },
              { name: 'email', type: 'S' },
            ],
            keys: { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' } },
          },
          {
            id: 'e-order',
            name: 'Order',
            itemCount: 1000,
            attributes: [
              { name: 'userId', type: 'S' },
              { name: 'orderId', type: 'S' },
              { name: 'status', type: 'S' },
              { name: 'total', type: 'N' },
              { name: 'lines', type: 'L' },
            ],
            keys: {
              PK: { template: 'USER#{userId}' },
              SK: { template: 'ORDER#{orderId}' },
              GSI1PK: { template: 'STATUS#{status}', when: 'status = "PENDING"' },
              GSI1SK: { template: '{orderId}' },
            },
          },
        ],
        accessPatterns: [
          { id: 'ap-1', name: 'Get user', entityId: 'e-user', action: 'get', known: ['userId'], ratePerSecond: 10, consistency: 'eventual' },
          {
            id: 'ap-2',
            name: 'Pending orders',
            entityId: 'e-order',
            action: 'query',
            known: ['status'],
            range: { attribute: 'orderId', operator: '>' },
            resultSize: 10,
            ratePerSecond: 1,
            consistency: 'eventual',
          },
        ],
      },
    ],
  };
}

const t0 = (d: Design) => d.tables[0]!;
const entity = (d: Design, i: number) => t0(d).entities[i]!;
const gsi = (name: string, pk = `${name}PK`, sk?: string): GlobalSecondaryIndex => ({
  id: `g-${name}`,
  name,
  partitionKey: { name: pk, type: 'S' },
  ...(sk ? { sortKey: { name: sk, type: 'S' as const } } : {}),
  projection: { type: 'KEYS_ONLY' },
});
const updatePattern = (updates: string[]): AccessPattern => ({
  id: 'ap-3',
  name: 'Update order',
  entityId: 'e-order',
  action: 'update',
  known: ['userId', 'orderId'],
  updates,
  ratePerSecond: 1,
  consistency: 'eventual',
});
const codesAndPaths = (problems: Problem[]) => problems.map(({ code, path }) => ({ code, path }));

describe('validateDesign', () => {
  it('accepts the base design', () => {
    expect(validateDesign(baseDesign())).toEqual([]);
  });

  const E1 = 'tables[0].entities[1]';
  it.each<[string, (d: Design) => void, Array<{ code: string; path: string }>]>([
    // Names.
    ['a table name that is too short', (d) => (t0(d).name = 'ab'), [{ code: 'model.invalidName', path: 'tables[0].name' }]],
    ['a table name with a space', (d) => (t0(d).name = 'my table'), [{ code: 'model.invalidName', path: 'tables[0].name' }]],
    ['a table name of 256 characters', (d) => (t0(d).name = 'a'.repeat(256)), [{ code: 'model.invalidName', path: 'tables[0].name' }]],
    [
      'two tables with one name',
      (d) => d.tables.push({ ...structuredClone(t0(d)), id: 't-2', globalSecondaryIndexes: [], localSecondaryIndexes: [], entities: [], accessPatterns: [] }),
      [{ code: 'model.duplicateName', path: 'tables[1].name' }],
    ],
    ['a bad index name', (d) => (t0(d).globalSecondaryIndexes[0]!.name = 'G!'), [{ code: 'model.invalidName', path: 'tables[0].globalSecondaryIndexes[0].name' }]],
    ['a GSI and an LSI with one name', (d) => (t0(d).localSecondaryIndexes[0]!.name = 'GSI1'), [{ code: 'model.duplicateName', path: 'tables[0].localSecondaryIndexes[0].name' }]],
    // Limits.
    [
      '21 GSIs',
      (d) => t0(d).globalSecondaryIndexes.push(...Array.from({ length: 20 }, (_, i) => gsi(`IDX${i}`, 'GSI1PK', 'GSI1SK'))),
      [{ code: 'model.tooManyIndexes', path: 'tables[0].globalSecondaryIndexes' }],
    ],
    [
      '6 LSIs',
      (d) =>
        t0(d).localSecondaryIndexes.push(
          ...Array.from({ length: 5 }, (_, i) => ({ id: `l-x${i}`, name: `LSIX${i}`, sortKey: { name: 'LSI1SK', type: 'S' as const }, projection: { type: 'ALL' as const } })),
        ),
      [{ code: 'model.tooManyIndexes', path: 'tables[0].localSecondaryIndexes' }],
    ],
    // Key schemas.
    [
      'an LSI on a table without a sort key',
      (d) => {
        delete t0(d).sortKey;
        for (const e of t0(d).entities) delete e.keys.SK;
      },
      [{ code: 'model.lsiNeedsSortKey', path: 'tables[0].localSecondaryIndexes[0]' }],
    ],
    [
      "an LSI on the table's sort key",
      (d) => (t0(d).localSecondaryIndexes[0]!.sortKey.name = 'SK'),
      [{ code: 'model.lsiSortKeyNotDistinct', path: 'tables[0].localSecondaryIndexes[0].sortKey.name' }],
    ],
    [
      "an LSI on the table's partition key",
      (d) => (t0(d).localSecondaryIndexes[0]!.sortKey.name = 'PK'),
      [{ code: 'model.duplicateKeyAttribute', path: 'tables[0].localSecondaryIndexes[0].sortKey.name' }],
    ],
    [
      'a GSI whose sort key is its partition key',
      (d) => ((t0(d).globalSecondaryIndexes[0]!.sortKey as KeyAttribute).name = 'GSI1PK'),
      [
        { code: 'model.duplicateKeyAttribute', path: 'tables[0].globalSecondaryIndexes[0].sortKey.name' },
        { code: 'model.unknownAttribute', path: `${E1}.keys.GSI1SK` },
      ],
    ],
    [
      'a key attribute used as S and as N',
      (d) => t0(d).globalSecondaryIndexes.push({ ...gsi('GSI2', 'GSI1SK'), partitionKey: { name: 'GSI1SK', type: 'N' } }),
      [{ code: 'model.keyAttributeConflict', path: 'tables[0].globalSecondaryIndexes[1].partitionKey.type' }],
    ],
    ['an empty key attribute name', (d) => ((t0(d).globalSecondaryIndexes[0]!.partitionKey as KeyAttribute).name = ''), [{ code: 'model.invalidName', path: 'tables[0].globalSecondaryIndexes[0].partitionKey.name' }, { code: 'model.unknownAttribute', path: `${E1}.keys.GSI1PK` }]],
    ['a key attribute name over 255 bytes', (d) => (t0(d).localSecondaryIndexes[0]!.sortKey.name = 'é'.repeat(128)), [{ code: 'model.invalidName', path: 'tables[0].localSecondaryIndexes[0].sortKey.name' }]],
    // Projections.
    [
      'INCLUDE without attributes',
      (d) => (t0(d).globalSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: [] }),
      [{ code: 'model.projection', path: 'tables[0].globalSecondaryIndexes[0].projection.nonKeyAttributes' }],
    ],
    [
      'INCLUDE naming an attribute twice',
      (d) => (t0(d).globalSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: ['a', 'b', 'a'] }),
      [{ code: 'model.projection', path: 'tables[0].globalSecondaryIndexes[0].projection.nonKeyAttributes[2]' }],
    ],
    [
      '101 projected attributes across indexes (repeats count)',
      (d) => {
        const names = Array.from({ length: 60 }, (_, i) => `a${i}`);
        t0(d).globalSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: names };
        t0(d).localSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: names.slice(0, 41) };
      },
      [{ code: 'model.tooManyProjectedAttributes', path: 'tables[0]' }],
    ],
    [
      'exactly 100 projected attributes',
      (d) => {
        const names = Array.from({ length: 50 }, (_, i) => `a${i}`);
        t0(d).globalSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: names };
        t0(d).localSecondaryIndexes[0]!.projection = { type: 'INCLUDE', nonKeyAttributes: names };
      },
      [],
    ],
    // Billing.
    [
      'a provisioned table with a GSI without throughput',
      (d) => (t0(d).billing = { mode: 'PROVISIONED', readCapacityUnits: 5, writeCapacityUnits: 5 }),
      [{ code: 'model.billing', path: 'tables[0].globalSecondaryIndexes[0].provisioned' }],
    ],
    [
      'an on-demand table with a provisioned GSI',
      (d) => (t0(d).globalSecondaryIndexes[0]!.provisioned = { readCapacityUnits: 1, writeCapacityUnits: 1 }),
      [{ code: 'model.billing', path: 'tables[0].globalSecondaryIndexes[0].provisioned' }],
    ],
    [
      'a provisioned table with zero read capacity',
      (d) => {
        t0(d).billing = { mode: 'PROVISIONED', readCapacityUnits: 0, writeCapacityUnits: 5 };
        t0(d).globalSecondaryIndexes[0]!.provisioned = { readCapacityUnits: 1, writeCapacityUnits: 1.5 };
      },
      [
        { code: 'model.invalidNumber', path: 'tables[0].billing.readCapacityUnits' },
        { code: 'model.invalidNumber', path: 'tables[0].globalSecondaryIndexes[0].provisioned.writeCapacityUnits' },
      ],
    ],
    ['an empty TTL attribute', (d) => (t0(d).ttlAttribute = ' '), [{ code: 'model.invalidName', path: 'tables[0].ttlAttribute' }]],
    ['a TTL attribute no entity declares', (d) => (t0(d).ttlAttribute = 'expiresAt'), []],
    ['a TTL attribute name of 255 bytes', (d) => (t0(d).ttlAttribute = 'e'.repeat(255)), []],
    ['a TTL attribute name over 255 bytes', (d) => (t0(d).ttlAttribute = 'é'.repeat(128)), [{ code: 'model.invalidName', path: 'tables[0].ttlAttribute' }]],
    ['a TTL attribute that is an S key attribute', (d) => (t0(d).ttlAttribute = 'GSI1SK'), [{ code: 'model.ttlAttributeType', path: 'tables[0].ttlAttribute' }]],
    [
      'a TTL attribute that is an N key attribute',
      (d) => {
        t0(d).localSecondaryIndexes[0]!.sortKey.type = 'N';
        t0(d).ttlAttribute = 'LSI1SK';
      },
      [],
    ],
    ['a TTL attribute an entity declares as N', (d) => (t0(d).ttlAttribute = 'total'), []],
    ['a TTL attribute an entity declares as S', (d) => (t0(d).ttlAttribute = 'status'), [{ code: 'model.ttlAttributeType', path: 'tables[0].ttlAttribute' }]],
    [
      // One field, one kind of problem: the second entity's is counted in the first's ("… and 1 more like it").
      'a TTL attribute two entities declare, as S and as BOOL',
      (d) => {
        t0(d).ttlAttribute = 'email';
        entity(d, 1).attributes.push({ name: 'email', type: 'BOOL' });
      },
      [{ code: 'model.ttlAttributeType', path: 'tables[0].ttlAttribute' }],
    ],
    // The design.
    ['an empty design name', (d) => (d.name = ''), [{ code: 'model.invalidName', path: 'name' }]],
    ['a design name of only spaces', (d) => (d.name = '  '), [{ code: 'model.invalidName', path: 'name' }]],
    // Ids.
    ['two entities with one id', (d) => (entity(d, 1).id = 'e-user'), [{ code: 'model.duplicateId', path: `${E1}.id` }, { code: 'model.unknownEntity', path: 'tables[0].accessPatterns[1].entityId' }]],
    ['an index and a pattern with one id', (d) => (t0(d).accessPatterns[0]!.id = 'g-1'), [{ code: 'model.duplicateId', path: 'tables[0].accessPatterns[0].id' }]],
    ['an empty id', (d) => (t0(d).localSecondaryIndexes[0]!.id = ''), [{ code: 'model.invalidId', path: 'tables[0].localSecondaryIndexes[0].id' }]],
    // Entities.
    ['two entities with one name', (d) => (entity(d, 1).name = 'User'), [{ code: 'model.duplicateName', path: `${E1}.name` }]],
    ['an entity without a name', (d) => (entity(d, 1).name = ''), [{ code: 'model.invalidName', path: `${E1}.name` }]],
    ['a negative item count', (d) => (entity(d, 1).itemCount = -1), [{ code: 'model.invalidNumber', path: `${E1}.itemCount` }]],
    ['a fractional item count', (d) => (entity(d, 1).itemCount = 1.5), [{ code: 'model.invalidNumber', path: `${E1}.itemCount` }]],
    ['an attribute without a name', (d) => entity(d, 0).attributes.push({ name: '', type: 'S' }), [{ code: 'model.invalidName', path: 'tables[0].entities[0].attributes[2].name' }]],
    ['two attributes with one name', (d) => entity(d, 0).attributes.push({ name: 'email', type: 'N' }), [{ code: 'model.duplicateName', path: 'tables[0].entities[0].attributes[2].name' }]],
    ['a negative average size', (d) => (entity(d, 0).attributes[1]!.averageSizeBytes = -2), [{ code: 'model.invalidNumber', path: 'tables[0].entities[0].attributes[1].averageSizeBytes' }]],
    // Keys.
    ['no partition key template', (d) => delete entity(d, 0).keys.PK, [{ code: 'model.missingKeyTemplate', path: 'tables[0].entities[0].keys.PK' }]],
    ['no sort key template', (d) => delete entity(d, 0).keys.SK, [{ code: 'model.missingKeyTemplate', path: 'tables[0].entities[0].keys.SK' }]],
    ['a template for an attribute no key uses', (d) => (entity(d, 0).keys.GSI9PK = { template: 'X' }), [{ code: 'model.unknownAttribute', path: 'tables[0].entities[0].keys.GSI9PK' }]],
    ['a template for a key name with a space', (d) => (entity(d, 0).keys['GSI 9'] = { template: 'X' }), [{ code: 'model.unknownAttribute', path: 'tables[0].entities[0].keys["GSI 9"]' }]],
    ['a template that does not parse', (d) => (entity(d, 1).keys.SK = { template: 'ORDER#{orderId' }), [{ code: 'keyTemplate.unclosedBrace', path: `${E1}.keys.SK.template` }]],
    ['an empty template', (d) => (entity(d, 1).keys.SK = { template: '' }), [{ code: 'keyTemplate.empty', path: `${E1}.keys.SK.template` }]],
    ['a placeholder for an attribute the entity lacks', (d) => (entity(d, 1).keys.GSI1PK = { template: 'STATUS#{state}' }), [{ code: 'keyTemplate.unknownAttribute', path: `${E1}.keys.GSI1PK.template` }]],
    ['a placeholder for a list attribute', (d) => (entity(d, 1).keys.SK = { template: 'ORDER#{lines}' }), [{ code: 'keyTemplate.attributeType', path: `${E1}.keys.SK.template` }]],
    ['a number in a string key', (d) => (entity(d, 1).keys.SK = { template: 'TOTAL#{total:08}' }), []],
    ['padding on an S attribute', (d) => (entity(d, 0).keys.PK = { template: 'USER#{userId:08}' }), [{ code: 'keyTemplate.paddingType', path: 'tables[0].entities[0].keys.PK.template' }]],
    [
      'padding on a BOOL attribute',
      (d) => {
        entity(d, 1).attributes.push({ name: 'paid', type: 'BOOL' });
        entity(d, 1).keys.GSI1SK = { template: '{paid:01}#{orderId}' };
      },
      [{ code: 'keyTemplate.paddingType', path: `${E1}.keys.GSI1SK.template` }],
    ],
    [
      'an N key with literal text',
      (d) => {
        t0(d).localSecondaryIndexes[0]!.sortKey.type = 'N';
        entity(d, 1).keys.LSI1SK = { template: 'T#{total}' };
      },
      [{ code: 'keyTemplate.keyType', path: `${E1}.keys.LSI1SK.template` }],
    ],
    [
      'an N key from an S attribute',
      (d) => {
        t0(d).localSecondaryIndexes[0]!.sortKey.type = 'N';
        entity(d, 1).keys.LSI1SK = { template: '{orderId}' };
      },
      [{ code: 'keyTemplate.keyType', path: `${E1}.keys.LSI1SK.template` }],
    ],
    [
      'an N key from an N attribute, and a numeric constant',
      (d) => {
        t0(d).localSecondaryIndexes[0]!.sortKey.type = 'N';
        entity(d, 1).keys.LSI1SK = { template: '{total}' };
        entity(d, 0).keys.LSI1SK = { template: '0' };
      },
      [],
    ],
    [
      'a partition key over 2,048 bytes',
      (d) => (entity(d, 0).attributes[0]!.averageSizeBytes = 2044),
      [{ code: 'model.keyTooLong', path: 'tables[0].entities[0].keys.PK.template' }],
    ],
    ['a partition key of exactly 2,048 bytes', (d) => (entity(d, 0).attributes[0]!.averageSizeBytes = 2043), []],
    [
      'a sort key over 1,024 bytes',
      (d) => (entity(d, 1).attributes[1]!.averageSizeBytes = 1019),
      [{ code: 'model.keyTooLong', path: `${E1}.keys.SK.template` }],
    ],
    [
      'a GSI partition key that is also a sort key elsewhere gets the sort key limit',
      (d) => {
        t0(d).globalSecondaryIndexes.push(gsi('GSI2', 'GSI2PK', 'GSI1PK'));
        // status's values are text of 1,020 characters: STATUS#{status} renders 7 + 1,020 = 1,027 bytes.
        // (An average size alone would not do: the value model gives a status the values its conditions name.)
        entity(d, 1).attributes[2]!.generator = { kind: 'text', length: 1020 };
      },
      [{ code: 'model.keyTooLong', path: `${E1}.keys.GSI1PK.template` }],
    ],
    // Index membership.
    [
      'a GSI partition key template without the sort key one',
      (d) => delete entity(d, 1).keys.GSI1SK,
      [{ code: 'model.incompleteIndexKey', path: `${E1}.keys.GSI1SK` }],
    ],
    [
      'a partial key that is fully used by another index',
      (d) => {
        t0(d).globalSecondaryIndexes.push(gsi('GSI2', 'GSI1SK', 'GSI2SK'));
      },
      [],
    ],
    // Conditions.
    ['a condition that does not parse', (d) => (entity(d, 1).keys.GSI1PK!.when = 'status = PENDING'), [{ code: 'condition.syntax', path: `${E1}.keys.GSI1PK.when` }]],
    ['a blank condition means none', (d) => (entity(d, 1).keys.GSI1PK!.when = '  '), []],
    ['a condition on an unknown attribute', (d) => (entity(d, 1).keys.GSI1PK!.when = 'state = "X"'), [{ code: 'condition.unknownAttribute', path: `${E1}.keys.GSI1PK.when` }]],
    ['a condition comparing an S attribute with a number', (d) => (entity(d, 1).keys.GSI1PK!.when = 'status IN ("A", 1)'), [{ code: 'condition.typeMismatch', path: `${E1}.keys.GSI1PK.when` }]],
    ['a condition comparing an N attribute with a number', (d) => (entity(d, 1).keys.GSI1PK!.when = 'total > 100 AND attribute_exists(lines)'), []],
    ['a condition on a table key', (d) => (entity(d, 1).keys.PK!.when = 'status = "A"'), [{ code: 'condition.onTableKey', path: `${E1}.keys.PK.when` }]],
    // Access patterns.
    ['two patterns with one name', (d) => (t0(d).accessPatterns[1]!.name = 'Get user'), [{ code: 'model.duplicateName', path: 'tables[0].accessPatterns[1].name' }]],
    ['a pattern without a name', (d) => (t0(d).accessPatterns[1]!.name = ''), [{ code: 'model.invalidName', path: 'tables[0].accessPatterns[1].name' }]],
    ['a pattern for an unknown entity', (d) => (t0(d).accessPatterns[0]!.entityId = 'e-nope'), [{ code: 'model.unknownEntity', path: 'tables[0].accessPatterns[0].entityId' }]],
    ['a known attribute the entity lacks', (d) => t0(d).accessPatterns[0]!.known.push('status'), [{ code: 'model.unknownAttribute', path: 'tables[0].accessPatterns[0].known[1]' }]],
    ['a range attribute the entity lacks', (d) => (t0(d).accessPatterns[1]!.range!.attribute = 'createdAt'), [{ code: 'model.unknownAttribute', path: 'tables[0].accessPatterns[1].range.attribute' }]],
    ['a negative rate', (d) => (t0(d).accessPatterns[1]!.ratePerSecond = -1), [{ code: 'model.invalidNumber', path: 'tables[0].accessPatterns[1].ratePerSecond' }]],
    ['a fractional result size', (d) => (t0(d).accessPatterns[1]!.resultSize = 2.5), [{ code: 'model.invalidNumber', path: 'tables[0].accessPatterns[1].resultSize' }]],
    // Write sharding.
    ['random shards on a GSI partition key', (d) => (entity(d, 1).keys.GSI1PK!.shards = { count: 10, method: 'random' }), []],
    ['random shards on the table partition key', (d) => (entity(d, 1).keys.PK!.shards = { count: 4, method: 'random' }), []],
    ['calculated shards from an attribute', (d) => (entity(d, 1).keys.GSI1PK!.shards = { count: 10, method: 'calculated', from: 'orderId' }), []],
    ['shards on the table sort key', (d) => (entity(d, 1).keys.SK!.shards = { count: 10, method: 'random' }), [{ code: 'model.invalidSharding', path: `${E1}.keys.SK.shards` }]],
    ['shards on a GSI sort key', (d) => (entity(d, 1).keys.GSI1SK!.shards = { count: 10, method: 'random' }), [{ code: 'model.invalidSharding', path: `${E1}.keys.GSI1SK.shards` }]],
    ['one shard', (d) => (entity(d, 1).keys.GSI1PK!.shards = { count: 1, method: 'random' }), [{ code: 'model.invalidNumber', path: `${E1}.keys.GSI1PK.shards.count` }]],
    ['1,001 shards', (d) => (entity(d, 1).keys.GSI1PK!.shards = { count: 1001, method: 'random' }), [{ code: 'model.invalidNumber', path: `${E1}.keys.GSI1PK.shards.count` }]],
    ['calculated shards without "from"', (d) => (entity(d, 1).keys.GSI1PK!.shards = { count: 10, method: 'calculated' }), [{ code: 'model.invalidSharding', path: `${E1}.keys.GSI1PK.shards.from` }]],
    [
      'calculated shards from an attribute the entity lacks',
      (d) => (entity(d, 1).keys.GSI1PK!.shards = { count: 10, method: 'calculated', from: 'customerId' }),
      [{ code: 'model.unknownAttribute', path: `${E1}.keys.GSI1PK.shards.from` }],
    ],
    [
      'shards on a number partition key',
      (d) => {
        (t0(d).globalSecondaryIndexes[0]!.partitionKey as KeyAttribute).type = 'N';
        entity(d, 1).keys.GSI1PK = { template: '{total}', shards: { count: 10, method: 'random' } };
      },
      [{ code: 'model.invalidSharding', path: `${E1}.keys.GSI1PK.shards` }],
    ],
    // Updates, filters and range operators.
    ['an update pattern that lists what it changes', (d) => t0(d).accessPatterns.push(updatePattern(['status', 'total'])), []],
    ['updates on a get pattern', (d) => (t0(d).accessPatterns[0]!.updates = ['email']), [{ code: 'model.invalidUpdates', path: 'tables[0].accessPatterns[0].updates' }]],
    ['an updated attribute the entity lacks', (d) => t0(d).accessPatterns.push(updatePattern(['state'])), [{ code: 'model.unknownAttribute', path: 'tables[0].accessPatterns[2].updates[0]' }]],
    [
      "an update of an attribute of the table's key",
      (d) => t0(d).accessPatterns.push(updatePattern(['total', 'orderId'])),
      [{ code: 'model.invalidUpdates', path: 'tables[0].accessPatterns[2].updates[1]' }],
    ],
    ['a filter', (d) => (t0(d).accessPatterns[1]!.filter = 'total > 100 AND attribute_exists(lines)'), []],
    ['a filter that does not parse', (d) => (t0(d).accessPatterns[1]!.filter = 'total >'), [{ code: 'condition.syntax', path: 'tables[0].accessPatterns[1].filter' }]],
    ['a filter on an unknown attribute', (d) => (t0(d).accessPatterns[1]!.filter = 'state = "X"'), [{ code: 'condition.unknownAttribute', path: 'tables[0].accessPatterns[1].filter' }]],
    ['a filter comparing an N attribute with text', (d) => (t0(d).accessPatterns[1]!.filter = 'total = "100"'), [{ code: 'condition.typeMismatch', path: 'tables[0].accessPatterns[1].filter' }]],
    ['begins_with on an S attribute', (d) => (t0(d).accessPatterns[1]!.range = { attribute: 'orderId', operator: 'begins_with' }), []],
    ['between on an N attribute', (d) => (t0(d).accessPatterns[1]!.range = { attribute: 'total', operator: 'between' }), []],
    [
      'begins_with on an N attribute',
      (d) => (t0(d).accessPatterns[1]!.range = { attribute: 'total', operator: 'begins_with' }),
      [{ code: 'model.rangeOperator', path: 'tables[0].accessPatterns[1].range.operator' }],
    ],
    [
      'between on a list attribute',
      (d) => (t0(d).accessPatterns[1]!.range = { attribute: 'lines', operator: 'between' }),
      [{ code: 'model.rangeOperator', path: 'tables[0].accessPatterns[1].range.operator' }],
    ],
  ])('reports %s', (_name, mutate, expected) => {
    const d = baseDesign();
    mutate(d);
    expect(codesAndPaths(validateDesign(d))).toEqual(expected);
  });

  it('names the entity, the key, the template and the attributes it could use', () => {
    const d = baseDesign();
    entity(d, 1).keys.GSI1PK = { template: 'STATUS#{state}' };
    const [problem] = validateDesign(d);
    expect(problem?.message).toContain('"Order"');
    expect(problem?.message).toContain('GSI1PK');
    expect(problem?.message).toContain('"STATUS#{state}"');
    expect(problem?.expected).toContain('orderId, status');
  });
});

describe('validateDesign messages', () => {
  const messageOf = (d: Design, code: string): string => validateDesign(d).find((p) => p.code === code)?.message ?? '';

  it('names the entity, the key attribute, the placeholder and the type of a padded non-N attribute', () => {
    const d = baseDesign();
    entity(d, 0).keys.PK = { template: 'USER#{userId:08}' };
    const [problem] = validateDesign(d);
    expect(problem?.message).toContain('"User"');
    expect(problem?.message).toContain('PK');
    expect(problem?.message).toContain('{userId:08}');
    expect(problem?.message).toContain('an S attribute');
    expect(problem?.expected).toContain('N attribute');
  });

  it('keeps the letter case of a table name', () => {
    const d = baseDesign();
    delete t0(d).sortKey;
    for (const e of t0(d).entities) delete e.keys.SK;
    expect(messageOf(d, 'model.lsiNeedsSortKey')).toContain('table "App"');
    const p = baseDesign();
    t0(p).billing = { mode: 'PROVISIONED', readCapacityUnits: 5, writeCapacityUnits: 5 };
    expect(messageOf(p, 'model.billing')).toContain('table "App"');
  });

  it('counts list items from 1, as the UI labels them', () => {
    const withEmptyAttribute = baseDesign();
    entity(withEmptyAttribute, 1).attributes.splice(3, 0, { name: '', type: 'S' });
    expect(messageOf(withEmptyAttribute, 'model.invalidName')).toContain('4th attribute');

    const withDuplicateAttribute = baseDesign();
    entity(withDuplicateAttribute, 0).attributes.push({ name: 'userId', type: 'S' });
    expect(messageOf(withDuplicateAttribute, 'model.duplicateName')).toContain('(the 1st and the 3rd)');

    const withTwoTables = baseDesign();
    withTwoTables.tables.push({ ...structuredClone(t0(withTwoTables)), id: 't-2', globalSecondaryIndexes: [], localSecondaryIndexes: [], entities: [], accessPatterns: [] });
    expect(messageOf(withTwoTables, 'model.duplicateName')).toContain('the 1st and the 2nd table');

    const withUnnamedEntity = baseDesign();
    entity(withUnnamedEntity, 1).name = '';
    expect(messageOf(withUnnamedEntity, 'model.invalidName')).toContain('2nd entity of table "App"');

    const withTwoUsers = baseDesign();
    entity(withTwoUsers, 1).name = 'User';
    expect(messageOf(withTwoUsers, 'model.duplicateName')).toContain('(the 1st and the 2nd)');

    const withUnnamedPattern = baseDesign();
    t0(withUnnamedPattern).accessPatterns[1]!.name = ' ';
    expect(messageOf(withUnnamedPattern, 'model.invalidName')).toContain('2nd access pattern');

    const withTwoPatterns = baseDesign();
    t0(withTwoPatterns).accessPatterns[1]!.name = 'Get user';
    expect(messageOf(withTwoPatterns, 'model.duplicateName')).toContain('(the 1st and the 2nd)');

    const withBadName = baseDesign();
    t0(withBadName).name = 'A!b';
    expect(messageOf(withBadName, 'model.invalidName')).toContain('"!" at character 2');
  });

  it('tells apart two indexes of one name by kind and place', () => {
    const gsiAndLsi = baseDesign();
    t0(gsiAndLsi).localSecondaryIndexes[0]!.name = 'GSI1';
    expect(messageOf(gsiAndLsi, 'model.duplicateName')).toContain('(the 1st GSI and the 1st LSI)');
    const twoGsis = baseDesign();
    t0(twoGsis).globalSecondaryIndexes.push(gsi('GSI1', 'GSI1PK', 'GSI1SK'));
    t0(twoGsis).globalSecondaryIndexes[1]!.id = 'g-2';
    expect(messageOf(twoGsis, 'model.duplicateName')).toContain('(the 1st GSI and the 2nd GSI)');
  });

  it('names an index whose id repeats with its kind as written', () => {
    const d = baseDesign();
    t0(d).accessPatterns[0]!.id = 'g-1';
    expect(messageOf(d, 'model.duplicateId')).toContain('GSI "GSI1"');
  });

  it('says why a TTL attribute must be N, naming the key or the entity', () => {
    const key = baseDesign();
    t0(key).ttlAttribute = 'GSI1SK';
    expect(messageOf(key, 'model.ttlAttributeType')).toContain('GSI "GSI1"');
    expect(messageOf(key, 'model.ttlAttributeType')).toContain('epoch seconds');
    const attribute = baseDesign();
    t0(attribute).ttlAttribute = 'status';
    expect(messageOf(attribute, 'model.ttlAttributeType')).toContain('"Order"');
    expect(messageOf(attribute, 'model.ttlAttributeType')).toContain('an S attribute');
  });
});

describe('validateDesign messages for sharding, updates and ranges', () => {
  it('names the entity, the key and the attributes a calculated shard could hash', () => {
    const d = baseDesign();
    entity(d, 1).keys.GSI1PK!.shards = { count: 10, method: 'calculated', from: 'customerId' };
    const [problem] = validateDesign(d);
    expect(problem?.message).toContain('"Order"');
    expect(problem?.message).toContain('GSI1PK');
    expect(problem?.expected).toContain('orderId');
  });

  it("names the pattern, the attribute and the table key an update cannot change", () => {
    const d = baseDesign();
    t0(d).accessPatterns.push(updatePattern(['orderId']));
    const [problem] = validateDesign(d);
    expect(problem?.message).toContain('"Update order"');
    expect(problem?.message).toContain('SK = ORDER#{orderId}');
  });

  it('says which types a range operator accepts', () => {
    const d = baseDesign();
    t0(d).accessPatterns[1]!.range = { attribute: 'total', operator: 'begins_with' };
    const [problem] = validateDesign(d);
    expect(problem?.message).toContain('"Pending orders"');
    expect(problem?.found).toBe('begins_with on an N attribute');
    expect(problem?.expected).toContain('S, B');
  });
});

describe('joinPath', () => {
  it.each<[string, string | number, string]>([
    ['', 'tables', 'tables'],
    ['tables', 0, 'tables[0]'],
    ['a.keys', 'GSI1PK', 'a.keys.GSI1PK'],
    ['a.keys', 'GSI-1', 'a.keys["GSI-1"]'],
    ['a.keys', '0', 'a.keys["0"]'],
  ])('joinPath(%j, %j) = %j', (base, key, path) => {
    expect(joinPath(base, key)).toBe(path);
  });
});

describe('describeValue', () => {
  it.each<[unknown, string]>([
    [undefined, 'missing'],
    [null, 'null'],
    ['', 'empty text'],
    ['x', 'the text "x"'],
    [3, 'the number 3'],
    [false, 'false'],
    [[1], 'a list of 1 item'],
    [[], 'a list of 0 items'],
    [{}, 'an object'],
  ])('describes %j as %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });
});

describe('parseDesign', () => {
  it('accepts a valid design and returns it', () => {
    const d = baseDesign();
    expect(parseDesign(JSON.parse(JSON.stringify(d)))).toEqual({ ok: true, value: d });
  });

  it.each<[string, unknown, string]>([
    ['a string', 'hello', 'model.notObject'],
    ['null', null, 'model.notObject'],
    ['an array', [], 'model.notObject'],
    ['an object without formatVersion', { tables: [] }, 'model.notKeyplanDesign'],
    ['an object without tables', { formatVersion: 1, name: 'x' }, 'model.notKeyplanDesign'],
    ['a NoSQL Workbench model', { ModelName: 'x', DataModel: [] }, 'model.notKeyplanDesign'],
    ['a newer version', { formatVersion: 99, tables: [] }, 'model.unsupportedVersion'],
    ['a fractional version', { formatVersion: 1.5, tables: [] }, 'model.invalidVersion'],
    ['a text version', { formatVersion: '1', tables: [] }, 'model.invalidVersion'],
  ])('rejects %s', (_name, input, code) => {
    const r = parseDesign(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.code)).toEqual([code]);
  });

  it('migrates a version-0 draft with a single table', () => {
    const { tables, ...rest } = baseDesign();
    const r = parseDesign({ ...rest, formatVersion: 0, table: tables[0] });
    expect(r).toEqual({ ok: true, value: baseDesign() });
  });

  it('reports every structural problem once, at its path, in plain words', () => {
    const d = JSON.parse(JSON.stringify(baseDesign()));
    d.tables[0].entities[1].itemCount = '5';
    delete d.tables[0].entities[0].name;
    d.tables[0].billing = { mode: 'FREE' };
    d.tables[0].globalSecondaryIndexes[0].projection = { type: 'INCLUDE' };
    d.tables[0].partitionKey.type = 'BOOL';
    d.tables[0].extra = true;
    d.tables[0].entities[1].keys.GSI1PK = { template: 5 };
    d.tables[0].accessPatterns[0].known = 'userId';
    const r = parseDesign(d);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codesAndPaths(r.errors).sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [
        'tables[0].accessPatterns[0].known',
        'tables[0].billing.mode',
        'tables[0].entities[0].name',
        'tables[0].entities[1].itemCount',
        'tables[0].entities[1].keys.GSI1PK.template',
        'tables[0].extra',
        'tables[0].globalSecondaryIndexes[0].projection.nonKeyAttributes',
        'tables[0].partitionKey.type',
      ].map((path) => ({ code: 'model.schema', path })),
    );
    const byPath = new Map(r.errors.map((e) => [e.path, e]));
    expect(byPath.get('tables[0].entities[1].itemCount')).toMatchObject({ found: 'the text "5"', expected: 'a whole number from 0 to 1,000,000,000,000' });
    expect(byPath.get('tables[0].entities[1].itemCount')?.message).toContain('Table "App", entity "Order"');
    expect(byPath.get('tables[0].entities[0].name')?.message).toContain('Table "App", 1st entity');
    expect(byPath.get('tables[0].entities[0].name')).toMatchObject({ found: 'missing', expected: 'text' });
    expect(byPath.get('tables[0].billing.mode')?.expected).toBe('one of "ON_DEMAND", "PROVISIONED"');
    expect(byPath.get('tables[0].partitionKey.type')?.expected).toBe('one of "S", "N", "B"');
    expect(byPath.get('tables[0].extra')?.found).toBe('the property "extra"');
  });

  it('reports a missing tables list item shape with the root path', () => {
    const r = parseDesign({ formatVersion: 1, id: 'x', name: 'x', tables: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(codesAndPaths(r.errors)).toEqual([{ code: 'model.schema', path: 'tables' }]);
  });

  it('runs the DynamoDB rules after the structure is right', () => {
    const d = baseDesign();
    t0(d).name = 'x';
    const r = parseDesign(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(codesAndPaths(r.errors)).toEqual([{ code: 'model.invalidName', path: 'tables[0].name' }]);
    expect(parseDesignStructure(d)).toEqual({ ok: true, value: d });
  });
});

describe('examples/ecommerce.keyplan.json', () => {
  it('parses with zero problems', () => {
    const json: unknown = JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8'));
    const r = parseDesign(json);
    expect(r.ok ? [] : r.errors).toEqual([]);
  });
});

describe('parseDesign robustness', () => {
  const example: unknown = JSON.parse(readFileSync(new URL('../../examples/ecommerce.keyplan.json', import.meta.url), 'utf8'));

  /** Every path to a value inside `v`, as lists of keys. */
  function pathsOf(v: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
    const out: Array<Array<string | number>> = [prefix];
    if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...prefix, i])));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...prefix, k]));
    return out;
  }
  const paths = pathsOf(example).filter((p) => p.length > 0);

  it('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (json) => void parseDesign(json)));
  });

  it('never throws, and always explains itself with a path, when one value of a valid design is replaced or removed', () => {
    fc.assert(
      fc.property(fc.nat(paths.length - 1), fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }), (k, replacement) => {
        const doc = structuredClone(example) as Record<string | number, unknown>;
        const path = paths[k]!;
        let parent: Record<string | number, unknown> = doc;
        for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
        const last = path.at(-1)!;
        if (replacement === undefined) {
          if (Array.isArray(parent)) parent.splice(last as number, 1);
          else delete parent[last];
        } else parent[last] = replacement;
        const r = parseDesign(doc);
        if (!r.ok) {
          expect(r.errors.length).toBeGreaterThan(0);
          for (const e of r.errors) {
            expect(typeof e.path).toBe('string');
            expect(e.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
