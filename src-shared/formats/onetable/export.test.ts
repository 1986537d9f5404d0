/**
 * `toOneTable` and `oneTableNotes`: the schema a design becomes (checked against the OneTable schema
 * specification, doc/schema-1.1.0.md of sensedeep/dynamodb-onetable), the settings it cannot hold,
 * golden files of the four designs the other exporters' golden files use, and round trips through
 * `fromOneTable` in both directions.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyPartAttributes, parseDesign } from '../../model/index.ts';
import { previewSamples } from '../../sample/index.ts';
import type { Design, Entity, Table } from '../../model/index.ts';
import { fromOneTable } from './import.ts';
import { EXPORT_FORMATS, exportFileName, exportNotes, findExportFormat } from '../registry.ts';
import { oneTableNotes, toOneTable } from './export.ts';

type Json = Record<string, any>;
const root = resolve(import.meta.dirname, '../../..');
const designFiles = resolve(import.meta.dirname, '../__fixtures__');
const goldens = resolve(import.meta.dirname, '__fixtures__');
const onetableFixtures = resolve(root, 'tests/fixtures/onetable');
const load = (path: string): Design => JSON.parse(readFileSync(path, 'utf8')) as Design;
const isUpdating = process.env.KEYPLAN_UPDATE_GOLDEN === '1';

function imported(json: unknown): Design {
  const result = fromOneTable(json);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value.design;
}

/** A small shop: a type field, a GSI with INCLUDE and a sparse condition, an LSI on a plain attribute, ULID and UUID ids, a padded number. */
const shop: Design = {
  formatVersion: 1,
  id: 'design-shop',
  name: 'Shop',
  tables: [
    {
      id: 'tbl-shop',
      name: 'ShopTable',
      partitionKey: { name: 'PK', type: 'S' },
      sortKey: { name: 'SK', type: 'S' },
      billing: { mode: 'ON_DEMAND' },
      tableClass: 'STANDARD',
      globalSecondaryIndexes: [{ id: 'gsi-1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'INCLUDE', nonKeyAttributes: ['total'] } }],
      localSecondaryIndexes: [{ id: 'lsi-1', name: 'ByRank', sortKey: { name: 'rank', type: 'N' }, projection: { type: 'KEYS_ONLY' } }],
      entities: [
        {
          id: 'ent-user',
          name: 'User',
          itemCount: 100,
          attributes: [
            { name: 'userId', type: 'S', generator: { kind: 'uuid' } },
            { name: 'email', type: 'S' },
            { name: 'joinedAt', type: 'S', generator: { kind: 'timestamp' } },
            { name: 'kind', type: 'S', generator: { kind: 'constant', value: 'User' } },
          ],
          keys: { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' }, GSI1PK: { template: 'EMAIL#{email}' }, GSI1SK: { template: 'USER' } },
        },
        {
          id: 'ent-order',
          name: 'Order',
          itemCount: 1000,
          attributes: [
            { name: 'orderId', type: 'S', generator: { kind: 'id', prefix: '', width: 26 } },
            { name: 'userId', type: 'S' },
            { name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'SHIPPED'], weights: [1, 9] } },
            { name: 'total', type: 'N', presence: 0.8 },
            { name: 'rank', type: 'N' },
            { name: 'kind', type: 'S', generator: { kind: 'constant', value: 'Order' } },
          ],
          keys: {
            PK: { template: 'USER#{userId}' },
            SK: { template: 'ORDER#{rank:08}#{orderId}' },
            GSI1PK: { template: 'STATUS#{status}', when: 'status = "OPEN"' },
            GSI1SK: { template: '{orderId}', when: 'status = "OPEN"' },
            rank: { template: '{rank}' },
          },
        },
      ],
      accessPatterns: [
        { id: 'ap-1', name: 'Get user', entityId: 'ent-user', action: 'get', known: ['userId'], ratePerSecond: 10, consistency: 'eventual' },
        { id: 'ap-2', name: 'Orders of a user', entityId: 'ent-order', action: 'query', known: ['userId'], resultSize: 20, ratePerSecond: 5, consistency: 'eventual' },
        { id: 'ap-3', name: 'Place order', entityId: 'ent-order', action: 'put', known: ['userId', 'orderId'], ratePerSecond: 2, consistency: 'eventual' },
      ],
    },
  ],
};
const shopTable = shop.tables[0]!;
const sampleOf = (entity: Entity, name: string): unknown => previewSamples(entity, 1)[0]![name];

describe('toOneTable writes a OneTable schema', () => {
  it('the small shop is a valid design to begin with', () => {
    expect(parseDesign(shop).ok).toBe(true);
  });

  const schema = JSON.parse(toOneTable(shop)) as Json;

  it('says its format and version first, and keeps the names under extensions.keyplan', () => {
    expect(Object.keys(schema).slice(0, 2)).toEqual(['version', 'format']);
    expect(schema.format).toBe('onetable:1.1.0');
    expect(schema.version).toBe('0.0.1');
    expect(schema.extensions).toEqual({ keyplan: { designName: 'Shop', tableName: 'ShopTable' } });
  });

  it('writes the primary index, the GSI with its INCLUDE list, and the LSI with type "local"', () => {
    expect(schema.indexes).toEqual({
      primary: { hash: 'PK', sort: 'SK' },
      GSI1: { hash: 'GSI1PK', sort: 'GSI1SK', project: ['total'] },
      ByRank: { type: 'local', hash: 'PK', sort: 'rank', project: 'keys' },
    });
  });

  it('names the type field in params and leaves it to OneTable; dates are ISO text; no added timestamps', () => {
    expect(schema.params).toEqual({ typeField: 'kind', isoDates: true, timestamps: false });
  });

  it('writes each entity as a model: key fields with value templates, then typed fields', () => {
    expect(schema.models).toEqual({
      User: {
        PK: { type: 'string', value: 'USER#${userId}' },
        SK: { type: 'string', value: 'PROFILE' },
        GSI1PK: { type: 'string', value: 'EMAIL#${email}' },
        GSI1SK: { type: 'string', value: 'USER' },
        userId: { type: 'string', required: true, generate: 'uuid' },
        email: { type: 'string', required: true },
        joinedAt: { type: 'date', required: true },
      },
      Order: {
        PK: { type: 'string', value: 'USER#${userId}' },
        SK: { type: 'string', value: 'ORDER#${rank:8:0}#${orderId}' },
        GSI1PK: { type: 'string', value: 'STATUS#${status}' },
        GSI1SK: { type: 'string', value: '${orderId}' },
        orderId: { type: 'string', required: true, generate: 'ulid' },
        userId: { type: 'string', required: true },
        status: { type: 'string', required: true, enum: ['OPEN', 'SHIPPED'] },
        total: { type: 'number' },
        // The LSI's sort key is the attribute itself: a plain field.
        rank: { type: 'number', required: true },
      },
    });
  });

  it('saves each read pattern as a query with sample key values, and leaves writes out', () => {
    const [user, order] = shopTable.entities as [Entity, Entity];
    expect(schema.queries).toEqual({
      'Get user': { index: 'primary', model: 'User', type: 'Entity', hash: `USER#${String(sampleOf(user, 'userId'))}`, sort: 'PROFILE', operation: 'Equal', limit: 1, schema: 'Current' },
      'Orders of a user': { index: 'primary', model: 'Order', type: 'Entity', hash: `USER#${String(sampleOf(order, 'userId'))}`, sort: 'ORDER#', operation: 'Begins with', limit: 20, schema: 'Current' },
    });
  });

  it('names what the schema cannot hold, one line each', () => {
    expect(oneTableNotes(shop)).toEqual([
      'ShopTable: Order\'s key GSI1PK is sparse by the condition status = "OPEN"; OneTable writes the key whenever its template\'s properties have values',
      'ShopTable: Order\'s key GSI1SK is sparse by the condition status = "OPEN"; OneTable writes the key whenever its template\'s properties have values',
      "ShopTable: the entities' item counts, attribute sizes and value distributions (weights, cardinalities, presence shares): a schema holds types, enums and generated ids, not volumes",
      'ShopTable: access pattern "Place order" is not a saved query: it is a write (put); saved queries only read',
      'ShopTable: the rates, consistency, order and returned attributes of 2 read patterns (a saved query holds its key values, limit and filters)',
    ]);
  });

  it('is JSON with four-space indents and a final newline, the same on every call, and leaves the design as it was', () => {
    const before = JSON.stringify(shop);
    const text = toOneTable(shop);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n    "indexes": {\n        "primary": {');
    expect(toOneTable(JSON.parse(before) as Design)).toBe(text);
    expect(JSON.stringify(shop)).toBe(before);
  });
});

describe('oneTableNotes: table settings a schema has no place for', () => {
  it('lists every setting of the all-settings fixture, and the second table', () => {
    const design = load(resolve(designFiles, 'all-settings.keyplan.json'));
    expect(oneTableNotes(design)).toEqual([
      'blob-store.v2: not in the schema, which describes one table (Orders); export it from a design of its own',
      "Orders: the entities' item counts: a schema holds types, enums and generated ids, not volumes",
      "Orders: provisioned billing, 10 RCU / 5 WCU (OneTable's createTable makes an on-demand table unless given capacity)",
      'Orders, GSI ByStatus: its own capacity, 4 RCU / 2 WCU',
      'Orders, GSI ByCustomer: its own capacity, 3 RCU / 1 WCU',
      'Orders: time to live on attribute expiresAt (its field is marked ttl: true, but OneTable does not turn TTL on: enable it with aws dynamodb update-time-to-live)',
      'Orders: stream, NEW_IMAGE',
      'Orders: table class Standard-IA',
      'Orders: point-in-time recovery, 14 days',
      'Orders: encryption with the customer managed KMS key arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      'Orders: deletion protection on',
      'Orders: tags N=off, cost-center=42, note=yes: on/off = +1 @x, team=checkout',
    ]);
  });

  it('leaves out a GSI with a multi-attribute key, and the patterns it serves', () => {
    const notes = oneTableNotes(load(resolve(designFiles, 'multi-attribute.keyplan.json')));
    expect(notes).toContain('TournamentMatches: GSI ByTournamentRegion (partition key tournamentId + region, sort key round + bracket) is left out: a OneTable index key is one attribute per part');
    expect(notes).toContain('TournamentMatches: access pattern "Matches of a tournament\'s region in one round" is not a saved query: it is served by ByTournamentRegion, an index the schema leaves out');
    const schema = JSON.parse(toOneTable(load(resolve(designFiles, 'multi-attribute.keyplan.json')))) as Json;
    expect(Object.keys(schema.indexes)).toEqual(['primary', 'ByPlayer']);
  });
});

describe('the OneTable export format', () => {
  it('is in the registry as "OneTable schema", one JSON file, with its notes', () => {
    const format = findExportFormat('onetable')!;
    expect(format).toMatchObject({ id: 'onetable', label: 'OneTable schema', language: 'json', isMultiFile: false });
    expect(EXPORT_FORMATS.map((f) => f.id)).toContain('onetable');
    const [file] = format.produce(shop);
    expect(file).toMatchObject({ name: 'onetable.json', content: toOneTable(shop) });
    expect(exportFileName(format, 'my-shop', file!)).toBe('my-shop.onetable.json');
    expect(exportNotes(format, shop)).toEqual({ heading: 'Not in the OneTable schema, which has no place for them:', lines: oneTableNotes(shop) });
  });
});

describe('golden OneTable schemas', () => {
  const designs: Record<string, string> = {
    ecommerce: resolve(root, 'examples/ecommerce.keyplan.json'),
    'all-settings': resolve(designFiles, 'all-settings.keyplan.json'),
    'auto-scaling': resolve(designFiles, 'auto-scaling.keyplan.json'),
    'multi-attribute': resolve(designFiles, 'multi-attribute.keyplan.json'),
  };
  it.each(Object.entries(designs))('%s matches its golden file', (name, file) => {
    const golden = resolve(goldens, `${name}.onetable.golden.json`);
    const actual = toOneTable(load(file));
    if (isUpdating || !existsSync(golden)) writeFileSync(golden, actual);
    expect(actual).toBe(readFileSync(golden, 'utf8'));
  });
});

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

/**
 * A schema's `indexes` as OneTable creates them: an LSI's `hash` is the table's, `project` absent
 * is "all", an INCLUDE list leaves out key attributes (DynamoDB projects them anyway), and
 * `follow` and `description` (OneTable's own settings) are left out.
 */
function normalIndexes(indexes: Json): Json {
  const primary = indexes.primary as Json;
  const out: Json = {};
  for (const [name, index] of Object.entries(indexes) as Array<[string, Json]>) {
    if (name === 'primary') {
      out[name] = { hash: index.hash, ...(index.sort !== undefined ? { sort: index.sort } : {}) };
      continue;
    }
    const isLocal = index.type === 'local' || index.hash === undefined;
    const hash = isLocal ? primary.hash : index.hash;
    const keys = [primary.hash, primary.sort, hash, index.sort];
    const project = index.project === undefined || index.project === 'all' ? 'all' : index.project === 'keys' ? 'keys' : (index.project as string[]).filter((a) => !keys.includes(a));
    out[name] = { ...(isLocal ? { type: 'local' } : {}), hash, ...(index.sort !== undefined ? { sort: index.sort } : {}), project };
  }
  return out;
}

/**
 * A schema's `models` as far as Keyplan keeps them, field by field: the field's type (lower case;
 * buffer and arraybuffer are binary; a field without type is a string), its value template (with
 * `${typeField}` written as the model's name, as OneTable writes it), `enum`, `generate`, `ttl`,
 * and whether the field is on every item (`required`, a `default` or a `generate`: OneTable then
 * always writes it, and a property the primary key's templates name, without which it writes no
 * item) — for key fields with a template, only the type and the template. The type field
 * is left out (params.typeField says it), the fields params.timestamps adds are put in as required
 * dates, and everything Keyplan drops (hidden, validate, unique, crypt, map, nested schemas, the
 * default's value …) is not compared.
 */
function normalModels(schema: Json): Json {
  const params = (schema.params ?? {}) as Json;
  const typeField = (params.typeField as string | undefined) ?? '_type';
  const stamps = params.timestamps === true ? ['created', 'updated'] : params.timestamps === 'create' ? ['created'] : params.timestamps === 'update' ? ['updated'] : [];
  const keyNames = new Set<string>();
  for (const index of Object.values(schema.indexes as Json) as Json[]) for (const k of [index.hash, index.sort]) if (k !== undefined) keyNames.add(k as string);
  const primary = (schema.indexes as Json).primary as Json;
  const out: Json = {};
  for (const [model, fields] of Object.entries(schema.models as Json) as Array<[string, Json]>) {
    // A property the primary key's templates name is on every item: OneTable cannot write an item without it.
    const primarySources = new Set<string>();
    for (const key of [primary.hash, primary.sort]) {
      const value = (fields[key as string] as Json | undefined)?.value;
      if (typeof value === 'string') for (const m of value.matchAll(/\$\{([^:}]*)[^}]*\}/g)) primarySources.add(m[1]!);
    }
    const normal: Json = {};
    for (const [name, f] of Object.entries(fields) as Array<[string, Json]>) {
      if (name === typeField) continue;
      const type = String(f.type ?? 'string').toLowerCase().replace(/^(buffer|arraybuffer)$/, 'binary');
      if (keyNames.has(name) && typeof f.value === 'string' && f.value !== '') {
        normal[name] = { type, value: (f.value as string).replaceAll(`\${${typeField}}`, model) };
        continue;
      }
      normal[name] = {
        type: f.ttl === true ? 'date' : type,
        isOnEveryItem: f.required === true || f.default !== undefined || f.generate !== undefined || primarySources.has(name),
        ...(f.enum !== undefined ? { enum: f.enum } : {}),
        ...(f.generate !== undefined ? { generate: f.generate } : {}),
        ...(f.ttl === true ? { ttl: true } : {}),
      };
    }
    for (const s of stamps) normal[s] ??= { type: 'date', isOnEveryItem: true };
    out[model] = normal;
  }
  return out;
}

describe('round trip: OneTable schema → design → OneTable schema', () => {
  const names = readdirSync(onetableFixtures).filter((f) => f.endsWith('.json')).sort();

  it('finds the fixtures', () => {
    expect(names).toEqual(['project-tracker.json', 'readme-accounts.json', 'spec-example.json']);
  });

  it.each(names)('%s: the indexes and models come back as Keyplan keeps them', (name) => {
    const original = JSON.parse(readFileSync(resolve(onetableFixtures, name), 'utf8')) as Json;
    const again = JSON.parse(toOneTable(imported(original))) as Json;
    expect(normalIndexes(again.indexes as Json)).toEqual(normalIndexes(original.indexes as Json));
    const want = normalModels(original);
    // A field without type is read as a string, and written back as one.
    expect(normalModels(again)).toEqual(want);
  });

  it('project-tracker.json: the saved queries come back as the same patterns, but for a known attribute the served key does not hold', () => {
    const first = imported(JSON.parse(readFileSync(resolve(onetableFixtures, 'project-tracker.json'), 'utf8')));
    const second = imported(JSON.parse(toOneTable(first)));
    const shape = (d: Design) => d.tables[0]!.accessPatterns.map(({ name, entityId, action, known, range, resultSize, filter }) => ({ name, entityId, action, known, range, resultSize, filter }));
    // With 1,000 tasks and as many projects, the planner serves "Board column of a project" from the
    // table (one task per project: the status is implied), whose key holds projectId only; the export says so.
    const expected = shape(first).map((p) => (p.name === 'Board column of a project' ? { ...p, known: ['projectId'] } : p));
    expect(shape(second)).toEqual(expected);
    expect(oneTableNotes(first)).toContain(
      'AppTable: access pattern "Board column of a project" knows status, which the key of the index it is served by (the table) does not hold; the saved query names only its key values',
    );
  });
});

/** A key template as a schema keeps it: a binding `{k}` for the key `k` of an attribute of the same name is that attribute (a natural key). */
function keysOf(e: Entity, keep: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, b] of Object.entries(e.keys)) {
    if (!keep.has(k)) continue;
    if (b.template === `{${k}}` && e.attributes.some((a) => a.name === k)) continue;
    out[k] = b.template;
  }
  return out;
}

/**
 * What survives design → schema → design: the table's name, keys, GSIs (those with one attribute per
 * key part), LSIs and TTL attribute; each entity's name, key templates (without `when` and shards)
 * and attributes' names and types (NULL attributes dropped, every set a string set; the type field
 * OneTable writes on every item is left out when the design had none).
 */
function kept(table: Table, typeField?: string): Json {
  const gsis = table.globalSecondaryIndexes.filter((g) => keyPartAttributes(g.partitionKey).length === 1 && keyPartAttributes(g.sortKey).length <= 1);
  const keyNames = new Set([table.partitionKey.name, table.sortKey?.name, ...gsis.flatMap((g) => [...keyPartAttributes(g.partitionKey), ...keyPartAttributes(g.sortKey)].map((k) => k.name)), ...table.localSecondaryIndexes.map((l) => l.sortKey.name)].filter((n): n is string => n !== undefined));
  return {
    name: table.name,
    partitionKey: table.partitionKey,
    sortKey: table.sortKey,
    ttlAttribute: table.ttlAttribute,
    gsis: gsis.map((g) => ({ name: g.name, partitionKey: g.partitionKey, sortKey: g.sortKey, projection: g.projection })),
    lsis: table.localSecondaryIndexes.map((l) => ({ name: l.name, sortKey: l.sortKey, projection: l.projection })),
    entities: table.entities.map((e) => ({
      name: e.name,
      keys: keysOf(e, keyNames),
      attributes: e.attributes
        .filter((a) => a.type !== 'NULL' && a.name !== typeField)
        .map((a) => ({ name: a.name, type: a.type === 'NS' || a.type === 'BS' ? 'SS' : a.type })),
    })),
  };
}

describe('round trip: design → OneTable schema → design', () => {
  const designs: Array<[string, string]> = [
    ...readdirSync(resolve(root, 'examples'))
      .filter((f) => f.endsWith('.keyplan.json'))
      .sort()
      .map((f): [string, string] => [`examples/${f}`, resolve(root, 'examples', f)]),
    ['all-settings', resolve(designFiles, 'all-settings.keyplan.json')],
    ['auto-scaling', resolve(designFiles, 'auto-scaling.keyplan.json')],
    ['multi-attribute', resolve(designFiles, 'multi-attribute.keyplan.json')],
  ];

  it('runs the bundled examples', () => {
    expect(designs.map(([name]) => name)).toEqual(expect.arrayContaining(['examples/ecommerce.keyplan.json', 'examples/esports.keyplan.json']));
  });

  it.each(designs)('%s: the first table, its entities and their templates come back', (_, file) => {
    const design = load(file);
    const again = imported(JSON.parse(toOneTable(design)));
    expect(again.name).toBe(design.name);
    const first = design.tables[0]!;
    const hasTypeField = first.entities.length > 0 && first.entities.every((e) => e.attributes.some((a) => a.name === '_type' && a.generator?.kind === 'constant'));
    expect(kept(again.tables[0]!, hasTypeField ? undefined : '_type')).toEqual(kept(first));
  });

  it('the small shop comes back with its type field, generators and read patterns', () => {
    const again = imported(JSON.parse(toOneTable(shop)));
    const t = again.tables[0]!;
    expect(kept(t)).toEqual(kept(shopTable));
    const order = t.entities.find((e) => e.name === 'Order')!;
    expect(order.attributes.map((a) => [a.name, a.generator?.kind ?? null, a.presence ?? 1])).toEqual([
      ['orderId', 'id', 1],
      ['userId', null, 1],
      ['status', 'enum', 1],
      ['total', null, 0.5],
      ['rank', null, 1],
      ['kind', 'constant', 1],
    ]);
    expect(t.accessPatterns.map((p) => [p.name, p.action, p.known, p.resultSize])).toEqual([
      ['Get user', 'get', ['userId'], undefined],
      ['Orders of a user', 'query', ['userId'], 20],
    ]);
  });
});
