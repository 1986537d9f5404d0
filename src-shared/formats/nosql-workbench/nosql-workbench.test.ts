import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design, Table } from '../../model/index.ts';
import { partitionKeysOf, sortKeysOf, parseDesign } from '../../model/index.ts';
import { noSqlWorkbenchNotes, toNoSqlWorkbench, workbenchDate } from './export.ts';
import { fromNoSqlWorkbench } from './import.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../tests/fixtures/nosql-workbench');
const fixtureNames = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort();
const fixture = (name: string): Record<string, any> => JSON.parse(readFileSync(resolve(FIXTURES, name), 'utf8'));
const load = (path: string): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', path), 'utf8')) as Design;

function imported(json: unknown): Design {
  const result = fromNoSqlWorkbench(json);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value.design;
}

function problems(json: unknown): Array<[string, string]> {
  const result = fromNoSqlWorkbench(json);
  return result.ok ? [] : result.errors.map((p) => [p.code, p.path]);
}

const templates = (table: Table, entity: string): Record<string, string> =>
  Object.fromEntries(Object.entries(table.entities.find((e) => e.name === entity)!.keys).map(([k, b]) => [k, b.template]));

describe('fromNoSqlWorkbench: the real models', () => {
  it('finds the fixtures', () => {
    expect(fixtureNames.length).toBeGreaterThanOrEqual(5);
  });

  it.each(fixtureNames)('%s imports as a valid design, the same every time', (name) => {
    const design = imported(fixture(name));
    expect(parseDesign(JSON.parse(JSON.stringify(design))).ok).toBe(true);
    expect(imported(fixture(name))).toEqual(design);
  });

  it.each(fixtureNames)('%s: import → export → import gives the same design', (name) => {
    const first = imported(fixture(name));
    const again = imported(JSON.parse(toNoSqlWorkbench(first)));
    expect(JSON.parse(JSON.stringify(again))).toStrictEqual(JSON.parse(JSON.stringify(first)));
  });

  it('version 1.0 with facets: one entity per facet, templates from the facet data, GSIs', () => {
    const design = imported(fixture('AnOnlineShop_facets.json'));
    expect(design).toMatchObject({ id: 'design-anonlineshop', name: 'AnOnlineShop', description: 'This is one way of data modelling of an online shop.' });
    const [table] = design.tables;
    expect(table!.id).toBe('tbl-onlineshop');
    expect(table!.entities.map((e) => `${e.id}:${e.itemCount}`)).toEqual([
      'ent-onlineshop-customer:3',
      'ent-onlineshop-product:2',
      'ent-onlineshop-warehouse:2',
      'ent-onlineshop-warehouseitem:3',
      'ent-onlineshop-orderitem:2',
      'ent-onlineshop-shipment:2',
      'ent-onlineshop-shipmentitem:3',
      'ent-onlineshop-invoice:1',
      'ent-onlineshop-payment:2',
    ]);
    expect(templates(table!, 'customer')).toEqual({ PK: 'c#{cId}', SK: 'c#{cId}' });
    expect(templates(table!, 'warehouseItem')).toEqual({ PK: 'p#{pId}', SK: 'w#{wId}', 'GSI2-PK': 'w#{wId}', 'GSI2-SK': 'p#{pId}' });
    expect(templates(table!, 'orderItem')).toMatchObject({ PK: 'o#{oId}', 'GSI2-PK': 'c#{cId}', 'GSI2-SK': 'p#{GSI1-SK}' });
    expect(table!.entities.find((e) => e.name === 'product')!.attributes).toEqual([
      { name: 'Detail', type: 'M' },
      { name: 'Price', type: 'S' },
      { name: 'EntityType', type: 'S' },
      { name: 'pId', type: 'S' },
    ]);
    expect(table!.globalSecondaryIndexes.map((g) => [g.id, g.name, partitionKeysOf(g)[0]?.name, sortKeysOf(g)[0]?.name, g.projection.type])).toEqual([
      ['gsi-onlineshop-gsi1', 'GSI1', 'GSI1-PK', 'GSI1-SK', 'ALL'],
      ['gsi-onlineshop-gsi2', 'GSI2', 'GSI2-PK', 'GSI2-SK', 'ALL'],
    ]);
  });

  it('without facets: entities by key prefix, placeholders matched to attributes (`{State}#{Date}`)', () => {
    const [table] = imported(fixture('DeviceStateLog_5.json')).tables;
    expect(table!.entities.map((e) => [e.name, e.itemCount])).toEqual([['d', 11]]);
    expect(templates(table!, 'd')).toEqual({ DeviceID: 'd#{dId}', 'State#Date': '{State}#{Date}', Operator: '{Operator}', Date: '{Date}' });
  });

  it('without facets: entities by a type attribute; a key no item holds becomes its own attribute', () => {
    const [table] = imported(fixture('FlightFares.json')).tables;
    expect(table!.entities.map((e) => [e.name, e.itemCount])).toEqual([
      ['fare', 8],
      ['flight', 8],
      ['assignment', 4],
      ['booking', 1],
    ]);
    expect(templates(table!, 'fare')).toEqual({ PK: '{origin}', SK: '{SK}' });
    // Only the flights with both GSI2 keys are in GSI2; none has a GSI1 sort key, so none is in GSI1.
    expect(templates(table!, 'flight')).toEqual({ PK: '{origin}', SK: '{SK}', GSI2PK: '{GSI2PK}', GSI2SK: '{segId}' });
    const flight = table!.entities.find((e) => e.name === 'flight')!;
    expect(flight.attributes.find((a) => a.name === 'isSegment')).toEqual({ name: 'isSegment', type: 'BOOL' });
    // `number` is N in flights and S in assignments: each entity keeps the type its items hold.
    expect(flight.attributes.find((a) => a.name === 'number')!.type).toBe('N');
    expect(table!.entities.find((e) => e.name === 'assignment')!.attributes.find((a) => a.name === 'number')!.type).toBe('S');
  });

  it('several tables, the key attribute holding itself, a key split into named parts', () => {
    const design = imported(fixture('BankModel_multitable.json'));
    expect(design.tables.map((t) => [t.id, t.entities.map((e) => e.id)])).toEqual([
      ['tbl-paymentscheduler', ['ent-paymentscheduler-paymentscheduler']],
      ['tbl-transactionhistory', ['ent-transactionhistory-transactionhistory']],
    ]);
    expect(templates(design.tables[0]!, 'PaymentScheduler')).toEqual({
      AccountID: '{AccountID}',
      ScheduledTime: '{ScheduledTime}',
      'Sharded-GSI-PK': '{Sharded-GSI-PK}',
      'Status#Time': '{Status}#{ScheduledTime}',
    });
  });

  it('version 3.0 provisioned: billing from ProvisionedCapacitySettings; no facets and no items, no entities', () => {
    const [table] = imported(fixture('ActivitiesModel_v3.json')).tables;
    expect(table).toMatchObject({ name: 'Activities', billing: { mode: 'PROVISIONED', readCapacityUnits: 5, writeCapacityUnits: 5 }, entities: [] });
  });

  it("gives a provisioned table's GSIs the table's throughput", () => {
    const model = fixture('BankModel_multitable.json');
    model.DataModel[0].BillingMode = 'PROVISIONED';
    model.DataModel[0].ProvisionedCapacitySettings = { ProvisionedThroughput: { ReadCapacityUnits: 7, WriteCapacityUnits: 3 } };
    expect(imported(model).tables[0]!.globalSecondaryIndexes[0]!.provisioned).toEqual({ readCapacityUnits: 7, writeCapacityUnits: 3 });
  });
});

describe('fromNoSqlWorkbench: inference details', () => {
  const model = (table: Record<string, unknown>) => ({
    ModelName: 'M',
    ModelMetadata: { Version: '3.0' },
    DataModel: [{ TableName: 'App', KeyAttributes: { PartitionKey: { AttributeName: 'PK', AttributeType: 'S' }, SortKey: { AttributeName: 'SK', AttributeType: 'S' } }, ...table }],
  });
  const row = (pk: string, sk: string, extra: Record<string, unknown> = {}) => ({ PK: { S: pk }, SK: { S: sk }, ...extra });

  it('keeps words that every item shares as literal text, and names a new attribute after the word before it', () => {
    const [table] = imported(model({ TableData: [row('USER#1', 'PROFILE'), row('USER#2', 'PROFILE'), row('ORDER_ITEM#9', 'ORDER_ITEM#9')] })).tables;
    expect(table!.entities.map((e) => e.name)).toEqual(['USER', 'ORDER_ITEM']);
    expect(templates(table!, 'USER')).toEqual({ PK: 'USER#{userId}', SK: 'PROFILE' });
    expect(templates(table!, 'ORDER_ITEM')).toEqual({ PK: 'ORDER_ITEM#{orderItemId}', SK: 'ORDER_ITEM#{orderItemId}' });
  });

  it('names a new attribute after the facet’s key alias', () => {
    const [table] = imported(
      model({ TableFacets: [{ FacetName: 'Song', KeyAttributeAlias: { PartitionKeyAlias: 'SongId', SortKeyAlias: 'Metadata' }, NonKeyAttributes: [], TableData: [row('S#1', 'DETAILS'), row('S#2', 'DETAILS')] }] }),
    ).tables;
    expect(templates(table!, 'Song')).toEqual({ PK: 'S#{SongId}', SK: 'DETAILS' });
  });

  it('assigns table-level items to facets by a type attribute', () => {
    const [table] = imported(
      model({
        NonKeyAttributes: [{ AttributeName: 'kind', AttributeType: 'S' }, { AttributeName: 'n', AttributeType: 'N' }],
        TableFacets: [
          { FacetName: 'Cat', KeyAttributeAlias: {}, NonKeyAttributes: ['kind'] },
          { FacetName: 'Dog', KeyAttributeAlias: {}, NonKeyAttributes: ['kind', 'n'] },
        ],
        TableData: [row('A#1', 'X', { type: { S: 'dog' } }), row('A#2', 'X', { type: { S: 'cat' } }), row('A#3', 'X', { type: { S: 'dog' } })],
      }),
    ).tables;
    expect(table!.entities.map((e) => [e.name, e.itemCount])).toEqual([
      ['Cat', 1],
      ['Dog', 2],
    ]);
    expect(table!.entities[1]!.attributes).toEqual([
      { name: 'kind', type: 'S' },
      { name: 'n', type: 'N' },
      { name: 'aId', type: 'S' },
    ]);
  });

  it('reads N and B keys and LocalSecondaryIndexes', () => {
    const json = {
      ModelName: 'Numbers',
      DataModel: [
        {
          TableName: 'Scores',
          KeyAttributes: { PartitionKey: { AttributeName: 'game', AttributeType: 'N' }, SortKey: { AttributeName: 'score', AttributeType: 'N' } },
          LocalSecondaryIndexes: [{ IndexName: 'ByBlob', KeyAttributes: { PartitionKey: { AttributeName: 'game', AttributeType: 'N' }, SortKey: { AttributeName: 'blob', AttributeType: 'B' } }, Projection: { ProjectionType: 'KEYS_ONLY' } }],
          TableData: [
            { game: { N: '1' }, score: { N: '10' }, blob: { B: 'AQI=' }, points: { N: '10' } },
            { game: { N: '2' }, score: { N: '20' }, blob: { B: 'AwQ=' }, points: { N: '20' } },
          ],
        },
      ],
    };
    const [table] = imported(json).tables;
    expect(table!.localSecondaryIndexes).toEqual([{ id: 'lsi-scores-byblob', name: 'ByBlob', sortKey: { name: 'blob', type: 'B' }, projection: { type: 'KEYS_ONLY' } }]);
    expect(templates(table!, 'Scores')).toEqual({ game: '{game}', score: '{points}', blob: '{blob}' });
  });
});

describe('fromNoSqlWorkbench: problems', () => {
  it.each([
    [{ formatVersion: 1, tables: [] }, 'a Keyplan design'],
    [{ AWSTemplateFormatVersion: '2010-09-09', Resources: {} }, 'a CloudFormation template'],
    [[1, 2], 'a list of 2 items'],
    ['text', 'the text "text"'],
    [{}, 'an empty object'],
  ])('a file that is not a model is one problem: %j', (json, found) => {
    const result = fromNoSqlWorkbench(json);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ code: 'workbench.notModel', path: '', found });
  });

  it('names an unsupported version', () => {
    const model = fixture('ActivitiesModel_v3.json');
    model.ModelMetadata.Version = '4.0';
    expect(problems(model)).toEqual([['workbench.unsupportedVersion', 'ModelMetadata.Version']]);
  });

  it('collects every shape problem with its path in the model', () => {
    const model = fixture('FlightFares.json');
    const table = model.DataModel[0];
    delete table.GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey;
    table.GlobalSecondaryIndexes[0].Projection.ProjectionType = 'SOME';
    table.KeyAttributes.SortKey.AttributeType = 'BOOL';
    table.TableData[3].segId = { N: 'not a number' };
    table.BillingMode = 'PROVISIONED';
    // The sample value is not a shape problem: it is skipped with a note (see below).
    expect(problems(model)).toEqual([
      ['workbench.schema', 'DataModel[0].KeyAttributes.SortKey.AttributeType'],
      ['workbench.schema', 'DataModel[0].GlobalSecondaryIndexes[0].Projection.ProjectionType'],
      ['workbench.schema', 'DataModel[0].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey'],
      ['workbench.billing', 'DataModel[0].ProvisionedCapacitySettings.ProvisionedThroughput'],
    ]);
  });
  it('reports duplicate table, index and facet names', () => {
    const model = fixture('AnOnlineShop_facets.json');
    const table = model.DataModel[0];
    table.GlobalSecondaryIndexes[1].IndexName = 'GSI1';
    table.TableFacets[2].FacetName = 'customer';
    model.DataModel.push(structuredClone(fixture('AnOnlineShop_facets.json').DataModel[0]));
    expect(problems(model)).toEqual([
      ['workbench.duplicateName', 'DataModel[0].GlobalSecondaryIndexes[1].IndexName'],
      ['workbench.duplicateName', 'DataModel[0].TableFacets[2].FacetName'],
      ['workbench.duplicateName', 'DataModel[1].TableName'],
    ]);
  });

  it('maps the design’s rules back to the model’s paths', () => {
    const model = fixture('BankModel_multitable.json');
    model.DataModel[0].TableName = 'ab';
    model.DataModel[1].GlobalSecondaryIndexes[1].IndexName = 'ix';
    const result = fromNoSqlWorkbench(model);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((p) => [p.code, p.path])).toContainEqual(['model.invalidName', 'DataModel[0].TableName']);
    expect(result.errors.find((p) => p.code === 'model.invalidName')!.details).toEqual({ designPath: 'tables[0].name' });
    expect(result.errors.map((p) => [p.code, p.path])).toContainEqual(['model.invalidName', 'DataModel[1].GlobalSecondaryIndexes[1].IndexName']);
  });

});

describe('fromNoSqlWorkbench: tolerant of sample data and optional parts', () => {
  const notes = (json: unknown) => {
    const result = fromNoSqlWorkbench(json);
    if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
    return result.value.notes;
  };
  const warnings = (json: unknown) => notes(json).filter((n) => n.kind === 'warning');

  it('imports a model with a malformed map value, skipping and naming that value only', () => {
    // NoSQL Workbench opens a model whose sample item holds {"M": {"key": "text"}} (a map whose
    // value is not an attribute value); it is not DynamoDB JSON, so the value is skipped.
    const model = fixture('FlightFares.json');
    const row = model.DataModel[0].TableData[0];
    row.details = { M: { thisIsInDetails: 'something' } };
    const result = fromNoSqlWorkbench(model);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const skipped = result.value.notes.filter((n) => n.kind === 'warning');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.path).toBe('DataModel[0].TableData[0].details');
    expect(skipped[0]!.message).toContain('{"M":{"thisIsInDetails":"something"}}');
    // Everything else of the model is there: the same tables, indexes and entities as the clean model.
    const clean = imported(fixture('FlightFares.json'));
    const design = result.value.design;
    expect(design.tables.map((t) => [t.name, t.globalSecondaryIndexes.length, t.entities.map((e) => e.name)])).toEqual(
      clean.tables.map((t) => [t.name, t.globalSecondaryIndexes.length, t.entities.map((e) => e.name)]),
    );
    expect(design.tables[0]!.entities.reduce((n, e) => n + e.itemCount, 0)).toBe(clean.tables[0]!.entities.reduce((n, e) => n + e.itemCount, 0));
  });

  it('skips a malformed number, an unknown type descriptor and an empty-named attribute, each named with its path', () => {
    const model = fixture('FlightFares.json');
    const rows = model.DataModel[0].TableData;
    rows[3].segId = { N: 'not a number' };
    rows[4].depart = { DATE: '2026-01-01' };
    rows[5][''] = { S: 'x' };
    rows[6] = 'not an item';
    expect(warnings(model).map((n) => n.path)).toEqual(['DataModel[0].TableData[3].segId', 'DataModel[0].TableData[4].depart', 'DataModel[0].TableData[5][""]', 'DataModel[0].TableData[6]']);
    const [number, type] = warnings(model);
    expect(number!.message).toMatch(/^Sample value skipped: \{"N":"not a number"\} is not a DynamoDB attribute value/);
    expect(type!.message).toContain('{"DATE":"2026-01-01"}');
  });

  it('skips an attribute declaration of an unknown type and a facet attribute that is not a name', () => {
    const model = fixture('AnOnlineShop_facets.json');
    const table = model.DataModel[0];
    table.NonKeyAttributes[0] = { ...table.NonKeyAttributes[0], AttributeType: 'DATE' };
    table.NonKeyAttributes[1] = { AttributeType: 'S' };
    table.TableFacets[0].NonKeyAttributes.push(42);
    expect(warnings(model).map((n) => n.path)).toEqual([
      'DataModel[0].NonKeyAttributes[0].AttributeType',
      'DataModel[0].NonKeyAttributes[1]',
      `DataModel[0].TableFacets[0].NonKeyAttributes[${table.TableFacets[0].NonKeyAttributes.length - 1}]`,
    ]);
  });

  it('names a facet attribute that nothing declares or holds, importing it as a string', () => {
    const model = fixture('AnOnlineShop_facets.json');
    const facet = model.DataModel[0].TableFacets[0];
    facet.NonKeyAttributes.push('loyaltyTier');
    const result = fromNoSqlWorkbench(model);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const note = result.value.notes.find((n) => n.message.includes('"loyaltyTier"'));
    expect(note).toMatchObject({ kind: 'inferred', path: `DataModel[0].TableFacets[0].NonKeyAttributes[${facet.NonKeyAttributes.length - 1}]` });
    const entity = result.value.design.tables[0]!.entities.find((e) => e.name === facet.FacetName)!;
    expect(entity.attributes.find((a) => a.name === 'loyaltyTier')?.type).toBe('S');
  });

  it('skips sample key values of the wrong type: an index key value alone, an item whose table key is wrong whole', () => {
    const model = fixture('BankModel_multitable.json');
    model.DataModel[1].GlobalSecondaryIndexes[1].KeyAttributes.PartitionKey.AttributeType = 'N';
    expect(warnings(model).map((n) => n.path)).toEqual(['DataModel[1].TableData[0].TransactionID', 'DataModel[1].TableData[1].TransactionID']);
    expect(warnings(model)[0]!.message).toContain('is an index key of type N');

    const other = fixture('BankModel_multitable.json');
    const table = other.DataModel[1];
    const pk = table.KeyAttributes.PartitionKey.AttributeName;
    const before = imported(fixture('BankModel_multitable.json')).tables[1]!.entities.reduce((n, e) => n + e.itemCount, 0);
    table.TableData[0][pk] = { N: '7' };
    expect(warnings(other)).toEqual([expect.objectContaining({ path: `DataModel[1].TableData[0].${pk}`, message: expect.stringContaining('The whole sample item DataModel[1].TableData[0] is skipped') })]);
    const result = fromNoSqlWorkbench(other);
    expect(result.ok && result.value.design.tables[1]!.entities.reduce((n, e) => n + e.itemCount, 0)).toBe(before - 1);
  });

  it('skips a sample item without its table key value, naming it', () => {
    const model = fixture('FlightFares.json');
    const pk = model.DataModel[0].KeyAttributes.PartitionKey.AttributeName;
    delete model.DataModel[0].TableData[1][pk];
    expect(warnings(model)).toEqual([{ kind: 'warning', path: 'DataModel[0].TableData[1]', message: `Sample item skipped: it has no value for the table's key "${pk}".` }]);
  });

  it('names a value nested deeper than can be shown instead of failing', () => {
    const model = fixture('FlightFares.json');
    let deep: unknown = { S: 'x' };
    for (let i = 0; i < 20_000; i += 1) deep = { M: { a: deep } };
    model.DataModel[0].TableData[0].details = deep;
    const [note] = warnings(model);
    expect(note).toMatchObject({ path: 'DataModel[0].TableData[0].details', message: expect.stringContaining('a value nested too deep to show') });
  });

  it('says that item counts and key templates are inferred from the sample items', () => {
    const result = fromNoSqlWorkbench(fixture('AnOnlineShop_facets.json'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const inferred = result.value.notes.filter((n) => n.kind === 'inferred');
    expect(inferred).toHaveLength(result.value.design.tables[0]!.entities.length);
    expect(inferred[0]!.message).toMatch(/item count of \d+, its number of sample items/);
  });
});

describe('toNoSqlWorkbench', () => {
  it('writes a version 3.0 model: a facet per entity with key aliases and sample items, GSIs, billing', () => {
    const model = JSON.parse(toNoSqlWorkbench(load('../../examples/ecommerce.keyplan.json'), { maxItemsPerEntity: 2, dateMs: Date.UTC(2026, 0, 5, 0, 7) }));
    expect(model.ModelMetadata).toMatchObject({ Version: '3.0', AWSService: 'Amazon DynamoDB', DateCreated: 'Jan 5, 2026, 12:07 AM' });
    const [table] = model.DataModel;
    expect(table.TableFacets.map((f: any) => [f.FacetName, f.KeyAttributeAlias.PartitionKeyAlias, f.KeyAttributeAlias.SortKeyAlias, f.TableData.length])).toEqual([
      ['User', 'userId', 'SK'],
      ['Product', 'productId', 'SK'],
      ['Order', 'userId', 'SK'],
      ['OrderItem', 'orderId', 'productId'],
      ['Review', 'productId', 'SK'],
    ].map((x) => [...x, 2]));
    expect(table.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.GlobalSecondaryIndexes[1].Projection).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['userId', 'total'] });
    expect(table.TableFacets[0].TableData[0]).toMatchObject({ PK: { S: 'USER#u-0000001' }, SK: { S: 'PROFILE' } });
  });

  it('keeps the keys of a Keyplan design through Workbench and back', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    const back = imported(JSON.parse(toNoSqlWorkbench(design)));
    for (const entity of design.tables[0]!.entities) {
      const expected = Object.fromEntries(Object.entries(entity.keys).map(([k, b]) => [k, b.template]));
      // GSI2 is sparse by predicate; the sample data's orders in it are PENDING and PROCESSING, so its template reads back whole.
      expect(templates(back.tables[0]!, entity.name)).toEqual(expected);
    }
  });

  it('makes facet names unique in the model', () => {
    const design = load('../../examples/ecommerce.keyplan.json');
    design.tables.push({ ...structuredClone(design.tables[0]!), id: 'tbl-2', name: 'Shop2' });
    const json = JSON.parse(toNoSqlWorkbench(reid(design)));
    expect(json.DataModel[1].TableFacets[0].FacetName).toBe('Shop2.User');
    expect(imported(json).tables[1]!.entities[0]!.name).toBe('User');
  });

  it.each([
    [Date.UTC(2019, 11, 23, 19, 12), 'Dec 23, 2019, 7:12 PM'],
    [Date.UTC(2020, 5, 1, 12, 0), 'Jun 1, 2020, 12:00 PM'],
  ])('writes dates as Workbench does: %i → %s', (ms, text) => {
    expect(workbenchDate(ms)).toBe(text);
  });
});

/** A copy of a design with every id of the second table made unique. */
function reid(design: Design): Design {
  const t = design.tables[1]!;
  t.globalSecondaryIndexes.forEach((g) => (g.id = `${g.id}-2`));
  t.entities.forEach((e) => (e.id = `${e.id}-2`));
  t.accessPatterns.forEach((a) => {
    a.id = `${a.id}-2`;
    a.entityId = `${a.entityId}-2`;
  });
  return design;
}

describe('toNoSqlWorkbench: what a model cannot hold', () => {
  const multi = (): Design => load('__fixtures__/multi-attribute.keyplan.json');

  it('leaves a multi-attribute GSI out of the model instead of keying it on its first attributes, and keeps its attributes and values', () => {
    const model = JSON.parse(toNoSqlWorkbench(multi(), { maxItemsPerEntity: 3 }));
    const [table] = model.DataModel;
    expect(table.GlobalSecondaryIndexes.map((g: any) => g.IndexName)).toEqual(['ByPlayer']);
    expect(table.NonKeyAttributes).toEqual(
      expect.arrayContaining([
        { AttributeName: 'tournamentId', AttributeType: 'S' },
        { AttributeName: 'region', AttributeType: 'S' },
        { AttributeName: 'round', AttributeType: 'N' },
        { AttributeName: 'bracket', AttributeType: 'S' },
      ]),
    );
    expect(table.TableFacets[0].NonKeyAttributes).toEqual(expect.arrayContaining(['tournamentId', 'region', 'round', 'bracket', 'playerId', 'matchDate']));
    // The items carry the natural key attributes, typed as the index declares them, with the values the sample data generates.
    for (const item of table.TableFacets[0].TableData) {
      expect(['NA', 'EU', 'APAC']).toContain(item.region.S);
      expect(item.round.N).toMatch(/^[1-7]$/);
      expect(['upper', 'lower']).toContain(item.bracket.S);
    }
    // What Workbench reads back is a valid design, the left-out index absent.
    expect(imported(model).tables[0]!.globalSecondaryIndexes.map((g) => g.name)).toEqual(['ByPlayer']);
  });

  it('names every lost setting on a line of its own, with the table, the index and the value', () => {
    expect(noSqlWorkbenchNotes(multi())).toEqual([
      "TournamentMatches: GSI ByTournamentRegion (partition key tournamentId + region, sort key round + bracket) is left out, a model's index key has one attribute per part; with it, its warm throughput 15,000 read / 5,000 write units per second",
      'TournamentMatches: on-demand maximum, at most 30,000 read / 10,000 write request units per second',
      'TournamentMatches: warm throughput, 24,000 read / 8,000 write units per second',
      'TournamentMatches, GSI ByPlayer: on-demand maximum, at most 2,000 read / 800 write request units per second',
      'TournamentMatches: point-in-time recovery, 7 days',
      'TournamentMatches: encryption with the customer managed KMS key arn:aws:kms:us-east-1:123456789012:key/5678efgh-56ef-78gh-90ij-5678901234cd',
      'TournamentMatches: deletion protection on',
      'TournamentMatches: Contributor Insights, THROTTLED_KEYS',
      'TournamentMatches: tags env=prod, team=esports',
      'TournamentMatches: 3 access patterns',
    ]);
  });

  it('lists the settings the model never held too (LSIs, TTL, stream, class, GSI capacity), and none at DynamoDB’s defaults', () => {
    const notes = noSqlWorkbenchNotes(load('__fixtures__/all-settings.keyplan.json'));
    expect(notes).toEqual([
      "Orders, GSI ByStatus: its own capacity, 4 RCU / 2 WCU (the model gives it the table's)",
      "Orders, GSI ByCustomer: its own capacity, 3 RCU / 1 WCU (the model gives it the table's)",
      'Orders: LSI ByPlacedAt (sort key placedAt)',
      'Orders: time to live on attribute expiresAt',
      'Orders: stream, NEW_IMAGE',
      'Orders: table class Standard-IA',
      'Orders: point-in-time recovery, 14 days',
      'Orders: encryption with the customer managed KMS key arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      'Orders: deletion protection on',
      'Orders: tags N=off, cost-center=42, note=yes: on/off = +1 @x, team=checkout',
    ]);
    // blob-store.v2: recovery off, the AWS owned key, protection off, Standard: nothing a model's table lacks.
    expect(notes.some((n) => n.startsWith('blob-store.v2'))).toBe(false);
  });

  it('says only what is set: one warm direction, no maximum on a provisioned table, the AWS managed key', () => {
    const design = multi();
    const table = design.tables[0]!;
    table.warmThroughput = { readUnitsPerSecond: 20000 };
    table.encryption = { type: 'KMS' };
    table.billing = { mode: 'PROVISIONED', readCapacityUnits: 100, writeCapacityUnits: 10 };
    const notes = noSqlWorkbenchNotes(design);
    expect(notes).toContain('TournamentMatches: warm throughput, 20,000 read units per second (write as DynamoDB sets it)');
    expect(notes).toContain('TournamentMatches: encryption with the AWS managed KMS key aws/dynamodb');
    expect(notes.join('\n')).not.toContain('on-demand maximum');
  });
});
