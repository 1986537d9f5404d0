/**
 * `fromOneTable`: the OneTable schemas under tests/fixtures/onetable read as designs, every problem
 * that stops a schema named by its path, and mutated schemas that never make it throw. Expected
 * values come from the OneTable schema specification (doc/schema-1.1.0.md of
 * sensedeep/dynamodb-onetable) and what the library does with a schema (src/Model.js, src/Table.js).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Design, Entity, Table } from '../../model/index.ts';
import { parseDesign } from '../../model/index.ts';
import { ONETABLE_DEFAULT_ITEM_COUNT, ONETABLE_OPTIONAL_PRESENCE } from './defaults.ts';
import { fromOneTable } from './import.ts';
import type { Imported, ImportNote } from '../common/import-types.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../tests/fixtures/onetable');
type Json = Record<string, any>;
const fixture = (name: string): Json => JSON.parse(readFileSync(resolve(FIXTURES, name), 'utf8')) as Json;

function imported(json: unknown): Imported {
  const result = fromOneTable(json);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value;
}

function problems(json: unknown): Array<[string, string]> {
  const result = fromOneTable(json);
  return result.ok ? [] : result.errors.map((p) => [p.code, p.path]);
}

const tableOf = (d: Design): Table => d.tables[0]!;
const entity = (t: Table, name: string): Entity => t.entities.find((e) => e.name === name)!;
const templates = (e: Entity): Record<string, string> => Object.fromEntries(Object.entries(e.keys).map(([k, b]) => [k, b.template]));
const types = (e: Entity): Record<string, string> => Object.fromEntries(e.attributes.map((a) => [a.name, a.type]));
const noteAt = (notes: ImportNote[], kind: ImportNote['kind'], path: string): ImportNote | undefined => notes.find((n) => n.kind === kind && n.path === path);

/** A small valid schema to break one part of at a time. */
function minimal(): Json {
  return {
    format: 'onetable:1.1.0',
    version: '0.0.1',
    indexes: { primary: { hash: 'pk', sort: 'sk' }, gs1: { hash: 'gs1pk', sort: 'gs1sk', project: 'all' } },
    models: {
      User: {
        pk: { type: 'string', value: 'user#${id}' },
        sk: { type: 'string', value: 'user#' },
        id: { type: 'string', required: true },
        email: { type: 'string', required: true },
        gs1pk: { type: 'string', value: 'email#${email}' },
        gs1sk: { type: 'string', value: 'user#' },
      },
    },
    params: {},
  };
}

describe('fromOneTable: the project-tracker schema', () => {
  const { design, notes } = imported(fixture('project-tracker.json'));
  const table = tableOf(design);

  it('passes the design rules and reads the same every time', () => {
    expect(parseDesign(JSON.parse(JSON.stringify(design))).ok).toBe(true);
    expect(imported(fixture('project-tracker.json'))).toEqual({ design, notes });
  });

  it('takes the table key from indexes.primary and is on-demand, Standard class', () => {
    expect(table).toMatchObject({
      id: 'tbl-apptable',
      name: 'AppTable',
      partitionKey: { name: 'pk', type: 'S' },
      sortKey: { name: 'sk', type: 'S' },
      billing: { mode: 'ON_DEMAND' },
      tableClass: 'STANDARD',
    });
    expect(design).toMatchObject({ id: 'design-onetable-schema', name: 'OneTable schema', description: expect.stringContaining('Project tracker SaaS') });
  });

  it('reads each GSI with its projection: "all", a list (without the key attributes), "keys"', () => {
    expect(table.globalSecondaryIndexes).toEqual([
      { id: 'gsi-apptable-gs1', name: 'gs1', partitionKey: { name: 'gs1pk', type: 'S' }, sortKey: { name: 'gs1sk', type: 'S' }, projection: { type: 'ALL' } },
      {
        id: 'gsi-apptable-gs2',
        name: 'gs2',
        partitionKey: { name: 'gs2pk', type: 'S' },
        sortKey: { name: 'gs2sk', type: 'S' },
        projection: { type: 'INCLUDE', nonKeyAttributes: ['title', 'name', 'status', 'dueDate', 'priority'] },
      },
      { id: 'gsi-apptable-gs3', name: 'gs3', partitionKey: { name: 'gs3pk', type: 'S' }, sortKey: { name: 'gs3sk', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
    ]);
  });

  it('reads type "local" as an LSI on the table\'s partition key', () => {
    expect(table.localSecondaryIndexes).toEqual([{ id: 'lsi-apptable-ls1', name: 'ls1', sortKey: { name: 'ls1sk', type: 'S' }, projection: { type: 'ALL' } }]);
  });

  it('makes one entity per model, with the default item count', () => {
    expect(table.entities.map((e) => `${e.id}:${e.itemCount}`)).toEqual([
      'ent-apptable-account:1000',
      'ent-apptable-user:1000',
      'ent-apptable-project:1000',
      'ent-apptable-task:1000',
      'ent-apptable-invoice:1000',
      'ent-apptable-session:1000',
    ]);
    expect(ONETABLE_DEFAULT_ITEM_COUNT).toBe(1000);
  });

  it('turns value templates into key templates: several variables, ${x:8:0} padding on a number, ${_type}', () => {
    expect(templates(entity(table, 'Task'))).toEqual({
      pk: 'project#{projectId}',
      sk: 'task#{id}',
      gs1pk: 'task#{id}',
      gs1sk: 'task#',
      gs2pk: 'user#{assigneeId}',
      gs2sk: 'task#{status}#{dueDate}',
      ls1sk: 'task#{status}#{position:08}',
    });
    expect(templates(entity(table, 'Project'))).toMatchObject({ gs2pk: 'account#{accountId}#status#{status}', gs2sk: 'project#{name}' });
    expect(templates(entity(table, 'Invoice'))).toEqual({ pk: 'account#{accountId}', sk: 'invoice#{invoiceNumber:08}', gs3pk: 'invoice-status#{status}', gs3sk: '{issuedAt}#{accountId}' });
    // The type field holds the model's name: "${_type}#${id}" is "Session#${id}".
    expect(templates(entity(table, 'Session'))).toEqual({ pk: 'session#{userId}', sk: 'Session#{id}' });
  });

  it('types the attributes: dates as S with isoDates, a TTL date as N, Set as SS, Array as L, Object as M', () => {
    expect(types(entity(table, 'Task'))).toEqual({
      accountId: 'S',
      projectId: 'S',
      id: 'S',
      title: 'S',
      description: 'S',
      status: 'S',
      priority: 'N',
      position: 'N',
      assigneeId: 'S',
      estimate: 'N',
      dueDate: 'S',
      checklist: 'L',
      _type: 'S',
      created: 'S',
      updated: 'S',
    });
    expect(types(entity(table, 'Session'))).toMatchObject({ expires: 'N', token: 'S' });
    expect(types(entity(table, 'Project'))).toMatchObject({ labels: 'SS' });
    expect(types(entity(table, 'User'))).toMatchObject({ preferences: 'M', lastLogin: 'S' });
    expect(table.ttlAttribute).toBe('expires');
  });

  it('gives enums, generated ids, dates and the type field their generators', () => {
    const task = entity(table, 'Task');
    const a = (e: Entity, name: string) => e.attributes.find((x) => x.name === name)!;
    expect(a(task, 'status').generator).toEqual({ kind: 'enum', values: ['todo', 'doing', 'review', 'done'] });
    expect(a(task, 'id').generator).toEqual({ kind: 'id', prefix: '', width: 26 });
    expect(a(entity(table, 'Session'), 'id').generator).toEqual({ kind: 'uuid' });
    expect(a(task, 'dueDate').generator).toEqual({ kind: 'timestamp' });
    expect(a(task, '_type').generator).toEqual({ kind: 'constant', value: 'Task' });
    expect(a(entity(table, 'Invoice'), '_type').generator).toEqual({ kind: 'constant', value: 'Invoice' });
  });

  it('counts required, defaulted, generated and primary-key fields on every item, and others on half of them', () => {
    const task = entity(table, 'Task');
    const optional = task.attributes.filter((x) => x.presence !== undefined).map((x) => [x.name, x.presence]);
    expect(optional).toEqual([
      ['description', ONETABLE_OPTIONAL_PRESENCE],
      ['assigneeId', ONETABLE_OPTIONAL_PRESENCE],
      ['estimate', ONETABLE_OPTIONAL_PRESENCE],
      ['dueDate', ONETABLE_OPTIONAL_PRESENCE],
      ['checklist', ONETABLE_OPTIONAL_PRESENCE],
    ]);
    expect(ONETABLE_OPTIONAL_PRESENCE).toBe(0.5);
    expect(noteAt(notes, 'inferred', 'models.Task')?.message).toContain('"description", "assigneeId", "estimate", "dueDate", "checklist" are optional');
  });

  it('reads the saved queries as access patterns: index, model, known attributes, range, limit, filters', () => {
    const byName = Object.fromEntries(table.accessPatterns.map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual([
      'Account by name',
      'Users of an account',
      'User by email',
      'Urgent tasks of a user due in April',
      'Open invoices issued since January',
      'Board column of a project',
    ]);
    const base = { ratePerSecond: 1, consistency: 'eventual' };
    expect(byName['Account by name']).toEqual({ ...base, id: 'ap-apptable-account-by-name', name: 'Account by name', entityId: 'ent-apptable-account', action: 'query', known: ['name'], resultSize: 1 });
    // No model named: the first whose templates fit "account#…" and "user#" is User.
    expect(byName['Users of an account']).toMatchObject({ entityId: 'ent-apptable-user', action: 'query', known: ['accountId'], resultSize: 100 });
    // Equal on the whole primary key: a GetItem.
    expect(byName['User by email']).toEqual({ ...base, id: 'ap-apptable-user-by-email', name: 'User by email', entityId: 'ent-apptable-user', action: 'get', known: ['accountId', 'email'] });
    expect(byName['Urgent tasks of a user due in April']).toMatchObject({
      entityId: 'ent-apptable-task',
      action: 'query',
      known: ['assigneeId', 'status'],
      range: { attribute: 'dueDate', operator: 'begins_with' },
      resultSize: 50,
      filter: 'priority <= 2',
    });
    expect(byName['Open invoices issued since January']).toMatchObject({ entityId: 'ent-apptable-invoice', known: ['status'], range: { attribute: 'issuedAt', operator: '>=' } });
    expect(byName['Board column of a project']).toMatchObject({ entityId: 'ent-apptable-task', action: 'query', known: ['projectId', 'status'] });
    expect(byName['Board column of a project']!.range).toBeUndefined();
  });

  it('notes what it drops and infers, each at its path in the schema', () => {
    const expected: Array<[ImportNote['kind'], string]> = [
      ['dropped', 'params.nulls'],
      ['dropped', 'params.separator'],
      ['dropped', 'indexes.gs3.follow'],
      ['inferred', 'indexes.gs2.project[0]'],
      ['dropped', 'models.Account.name.unique'],
      ['dropped', 'models.Account.id.validate'],
      ['dropped', 'models.Account.plan.default'],
      ['dropped', 'models.Task.description.map'],
      ['dropped', 'models.Task.checklist.items'],
      ['dropped', 'models.Session.token.crypt'],
      ['dropped', 'models.Task.pk.hidden'],
      ['inferred', 'models.Project.labels.type'],
      ['inferred', 'models.Session.sk.value'],
      ['inferred', 'params.timestamps'],
      ['inferred', 'params.isoDates'],
      ['inferred', 'queries["Account by name"].limit'],
      ['dropped', 'queries["Every session"]'],
    ];
    for (const [kind, path] of expected) expect(noteAt(notes, kind, path), `${kind} ${path}`).toBeDefined();
    expect(notes.filter((n) => n.kind === 'inferred' && n.path === 'models.Account').map((n) => n.message)).toContainEqual(expect.stringContaining('is given 1,000 items'));
    expect(notes.every((n) => n.message.length > 0 && /[.)]$/.test(n.message))).toBe(true);
  });
});

describe('fromOneTable: the README and specification examples', () => {
  it('reads an LSI without "hash" on a plain field (a natural key) and adds the timestamps', () => {
    const { design, notes } = imported(fixture('readme-accounts.json'));
    const table = tableOf(design);
    expect(table.localSecondaryIndexes).toEqual([{ id: 'lsi-apptable-ls1', name: 'ls1', sortKey: { name: 'id', type: 'S' }, projection: { type: 'ALL' } }]);
    expect(templates(entity(table, 'Account'))).toEqual({ pk: 'account:{id}', sk: 'account:', id: '{id}' });
    expect(templates(entity(table, 'User'))).toEqual({ pk: 'account:{accountName}', sk: 'user:{email}', gs1pk: 'user-email:{email}', gs1sk: 'user:', id: '{id}' });
    expect(entity(table, 'User').attributes.map((a) => a.name)).toEqual(['id', 'accountName', 'email', 'firstName', 'lastName', 'username', 'role', 'balance', '_type', 'created', 'updated']);
    expect(noteAt(notes, 'dropped', 'indexes.gs1.follow')).toBeDefined();
    expect(noteAt(notes, 'inferred', 'indexes.gs1.project')).toBeDefined();
  });

  it('reads fields without a type as strings and skips a saved query on an index the schema lacks', () => {
    const { design, notes } = imported(fixture('spec-example.json'));
    const table = tableOf(design);
    expect(table.partitionKey).toEqual({ name: 'PK', type: 'S' });
    expect(table.globalSecondaryIndexes.map((g) => [g.name, g.partitionKey, g.sortKey])).toEqual([['GSI1', { name: 'GS1PK', type: 'S' }, { name: 'GS1SK', type: 'S' }]]);
    expect(templates(entity(table, 'Post'))).toEqual({ PK: 'post#{id}', SK: 'user#{email}' });
    expect(noteAt(notes, 'inferred', 'models.Post.PK.type')).toBeDefined();
    expect(noteAt(notes, 'inferred', 'indexes.GSI1.hash')?.message).toContain('No model stores the key attribute "GS1PK"');
    expect(noteAt(notes, 'warning', 'queries["Get photos liked by a user"].index')).toBeDefined();
    expect(table.accessPatterns).toEqual([]);
  });
});

describe('fromOneTable: what it maps, one part at a time', () => {
  it('takes the names toOneTable writes under extensions.keyplan', () => {
    const s = { ...minimal(), extensions: { keyplan: { designName: 'Shop', tableName: 'ShopTable' }, other: {} } };
    const { design, notes } = imported(s);
    expect([design.name, tableOf(design).name, design.id, tableOf(design).id]).toEqual(['Shop', 'ShopTable', 'design-shop', 'tbl-shoptable']);
    expect(noteAt(notes, 'dropped', 'extensions.other')).toBeDefined();
  });

  it('stores dates as N (epoch milliseconds) without isoDates, and keys a number field as N', () => {
    const s = minimal();
    s.indexes.gs1 = { hash: 'gs1pk', sort: 'score' };
    s.models.User.born = { type: 'date', required: true };
    s.models.User.score = { type: 'number', required: true };
    const { design } = imported(s);
    const t = tableOf(design);
    expect(types(t.entities[0]!).born).toBe('N');
    expect(t.globalSecondaryIndexes[0]!.sortKey).toEqual({ name: 'score', type: 'N' });
    // A GSI key field without a template is the attribute itself: no template.
    expect(templates(t.entities[0]!).score).toBeUndefined();
  });

  it('drops padding Keyplan cannot hold (on a string, or with another pad character), with a warning', () => {
    const s = minimal();
    s.models.User.sk = { type: 'string', value: 'user#${id:10}' };
    s.models.User.rank = { type: 'number', required: true };
    s.models.User.gs1sk = { type: 'string', value: 'rank#${rank:6: }' };
    const { design, notes } = imported(s);
    expect(templates(tableOf(design).entities[0]!)).toMatchObject({ sk: 'user#{id}', gs1sk: 'rank#{rank}' });
    expect(noteAt(notes, 'warning', 'models.User.sk.value')).toBeDefined();
    expect(noteAt(notes, 'warning', 'models.User.gs1sk.value')).toBeDefined();
  });

  it('expands a reference to another value template, and adds a property the model does not declare', () => {
    const s = minimal();
    s.models.User.gs1pk = { type: 'string', value: '${pk}' };
    s.models.User.gs1sk = { type: 'string', value: 'tenant#${tenantId}' };
    const { design, notes } = imported(s);
    const user = tableOf(design).entities[0]!;
    expect(templates(user)).toMatchObject({ gs1pk: 'user#{id}', gs1sk: 'tenant#{tenantId}' });
    expect(user.attributes.find((a) => a.name === 'tenantId')).toEqual({ name: 'tenantId', type: 'S' });
    expect(noteAt(notes, 'inferred', 'models.User')?.message).toContain('"tenantId"');
  });

  it('escapes braces in literal text', () => {
    const s = minimal();
    s.models.User.sk = { type: 'string', value: '{user}#${id}' };
    expect(templates(tableOf(imported(s).design).entities[0]!).sk).toBe('{{user}}#{id}');
  });

  it('reads an unknown type as a string and an unknown field option as a warning', () => {
    const s = minimal();
    s.models.User.mood = { type: 'emotion', required: true, sparkle: true };
    const { design, notes } = imported(s);
    expect(types(tableOf(design).entities[0]!).mood).toBe('S');
    expect(noteAt(notes, 'warning', 'models.User.mood.type')).toBeDefined();
    expect(noteAt(notes, 'warning', 'models.User.mood.sparkle')).toBeDefined();
  });

  it('uses a custom typeField and skips OneTable\'s own models', () => {
    const s = { ...minimal(), params: { typeField: 'kind' } } as Json;
    s.models._Schema = { pk: { type: 'string', value: '_schema' } };
    const { design, notes } = imported(s);
    const t = tableOf(design);
    expect(t.entities.map((e) => e.name)).toEqual(['User']);
    expect(t.entities[0]!.attributes.find((a) => a.name === 'kind')).toEqual({ name: 'kind', type: 'S', generator: { kind: 'constant', value: 'User' } });
    expect(noteAt(notes, 'dropped', 'models._Schema')).toBeDefined();
  });

  it('reads Equal filters on one field joined by Or as IN, and keeps no filter it cannot say', () => {
    const s = minimal();
    s.models.User.role = { type: 'string', enum: ['admin', 'member'], required: true };
    s.queries = {
      'Admins and members': {
        index: 'gs1',
        hash: 'email#ana@example.com',
        operation: 'Equal',
        limit: 10,
        model: 'User',
        filters: [
          { field: 'role', operation: 'Equal', type: 'string', value: 'admin', combine: 'And' },
          { field: 'role', operation: 'Equal', type: 'string', value: 'member', combine: 'Or' },
        ],
      },
      'Contains': { index: 'gs1', hash: 'email#ana@example.com', limit: 10, filters: [{ field: 'role', operation: 'Contains', type: 'string', value: 'adm', combine: 'And' }] },
    };
    const { design, notes } = imported(s);
    const [inList, contains] = tableOf(design).accessPatterns;
    expect(inList).toMatchObject({ known: ['email'], filter: 'role IN ("admin", "member")' });
    expect(contains!.filter).toBeUndefined();
    expect(noteAt(notes, 'dropped', 'queries.Contains.filters')).toBeDefined();
  });

  it('skips a saved query the design rules refuse (begins_with on a number), with a warning, and keeps the rest', () => {
    const s = minimal();
    s.indexes.gs1 = { hash: 'gs1pk', sort: 'rank' };
    s.models.User.rank = { type: 'number', required: true };
    delete s.models.User.gs1sk;
    s.queries = { 'By rank prefix': { index: 'gs1', hash: 'email#ana@example.com', sort: '12', operation: 'Begins with', limit: 5, model: 'User' } };
    const { design, notes } = imported(s);
    expect(tableOf(design).accessPatterns).toEqual([]);
    expect(noteAt(notes, 'warning', 'queries["By rank prefix"]')?.message).toContain('begins_with');
  });

  it('skips a Scan, a query without a partition key value and one whose values fit no model', () => {
    const s = minimal();
    s.queries = {
      Everything: { type: 'Scan', index: 'primary', limit: 10 },
      'No hash': { index: 'primary', limit: 10 },
      'Wrong prefix': { index: 'primary', hash: 'order#1', limit: 10 },
    };
    const { design, notes } = imported(s);
    expect(tableOf(design).accessPatterns).toEqual([]);
    expect(noteAt(notes, 'dropped', 'queries.Everything')).toBeDefined();
    expect(noteAt(notes, 'warning', 'queries["No hash"].hash')).toBeDefined();
    expect(noteAt(notes, 'warning', 'queries["Wrong prefix"]')).toBeDefined();
  });
});

describe('fromOneTable refuses what is not a schema it can read, naming every problem', () => {
  it.each([
    ['a list', [1, 2]],
    ['text', 'schema'],
    ['null', null],
    ['a number', 7],
    ['a Keyplan design', { formatVersion: 1, tables: [] }],
    ['an empty object', {}],
  ])('%s is not a schema', (_, value) => {
    expect(problems(value)).toEqual([['onetable.notSchema', '']]);
  });

  it('refuses another major format version', () => {
    expect(problems({ ...minimal(), format: 'onetable:2.0.0' })).toEqual([['onetable.unsupportedFormat', 'format']]);
  });

  it('lists every structural problem at once, each with its path', () => {
    const s = minimal();
    s.indexes.gs2 = { hash: 5 };
    s.indexes.ls1 = { type: 'local' };
    s.indexes.ls2 = { type: 'local', hash: 'other', sort: 'x' };
    s.models.User.email = 'text';
    s.models.User.id = { type: 42 };
    s.models.Broken = [];
    expect(problems(s)).toEqual([
      ['onetable.schema', 'indexes.gs2.hash'],
      ['onetable.schema', 'indexes.ls1.sort'],
      ['onetable.schema', 'indexes.ls2.hash'],
      ['onetable.schema', 'models.User.id.type'],
      ['onetable.schema', 'models.User.email'],
      ['onetable.schema', 'models.Broken'],
    ]);
  });

  it.each([
    ['no indexes', (s: Json) => delete s.indexes, 'indexes'],
    ['indexes that is a list', (s: Json) => (s.indexes = []), 'indexes'],
    ['no primary index', (s: Json) => delete s.indexes.primary, 'indexes.primary'],
    ['a primary index without hash', (s: Json) => delete s.indexes.primary.hash, 'indexes.primary.hash'],
    ['no models', (s: Json) => delete s.models, 'models'],
    ['a model field that is not an object', (s: Json) => (s.models.User.id = true), 'models.User.id'],
  ])('%s', (_, breakIt, path) => {
    const s = minimal();
    breakIt(s);
    expect(problems(s)).toEqual([['onetable.schema', path]]);
  });

  it('refuses a key stored from a type a key cannot hold, and a key attribute stored as two types', () => {
    const s = minimal();
    s.models.User.gs1pk = { type: 'boolean' };
    s.models.Post = { pk: { type: 'number', value: '${n}' }, sk: { type: 'string', value: 'post' }, n: { type: 'number', required: true } };
    expect(problems(s)).toEqual([
      ['onetable.keyType', 'models.Post.pk.type'],
      ['onetable.keyType', 'models.User.gs1pk.type'],
    ]);
  });

  it('refuses two fields stored in one key attribute, and a key packed into a map', () => {
    const s = minimal();
    s.models.User.primaryHash = { type: 'string', value: 'u#${id}', map: 'pk' };
    s.models.User.gs1pk = { type: 'string', value: 'x', map: 'gs1pk.part' };
    expect(problems(s)).toEqual([
      ['onetable.schema', 'models.User.primaryHash'],
      ['onetable.schema', 'models.User.gs1pk.map'],
    ]);
  });

  it('maps the design rules\' problems back to the schema: a model without the sort key, a template on an object, a short index name', () => {
    const s = minimal();
    s.models.Note = { pk: { type: 'string', value: 'note#${id}' }, id: { type: 'string', required: true } };
    s.models.User.meta = { type: 'object' };
    s.models.User.sk = { type: 'string', value: 'meta#${meta}' };
    s.indexes.g1 = { hash: 'gs1pk', project: 'keys' };
    s.indexes.gs1 = { hash: 'x1', sort: 'x2' };
    const result = fromOneTable(s);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.errors.map((p) => [p.code, p.path]);
    expect(found).toContainEqual(['model.invalidName', 'indexes.g1']);
    expect(found).toContainEqual(['keyTemplate.attributeType', 'models.User.sk.value']);
    expect(found).toContainEqual(['model.missingKeyTemplate', 'models.Note']);
    expect(result.errors.every((p) => typeof (p.details as { designPath?: unknown })?.designPath === 'string')).toBe(true);
  });
});

describe('fromOneTable on mutated schemas (property)', () => {
  const base = fixture('project-tracker.json');

  /** Every path into a JSON value: [] is the whole value. */
  function pathsOf(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
    const out = [at];
    if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...at, i])));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...at, k]));
    return out;
  }
  const paths = pathsOf(base).filter((p) => p.length > 0);

  type Mutation = { kind: 'delete' } | { kind: 'set'; value: unknown };
  function mutate(doc: unknown, path: Array<string | number>, m: Mutation): unknown {
    const copy = JSON.parse(JSON.stringify(doc)) as Json;
    let parent: any = copy;
    for (const key of path.slice(0, -1)) parent = parent[key];
    const last = path[path.length - 1]!;
    if (m.kind === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else parent[last] = m.value;
    return copy;
  }

  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.constant<Mutation>({ kind: 'delete' }),
    fc.jsonValue({ maxDepth: 3 }).map((value): Mutation => ({ kind: 'set', value })),
    fc.string({ maxLength: 40 }).map((value): Mutation => ({ kind: 'set', value })),
    fc.constantFrom('${', '${}', '${a:b:c}', '}{', 'local', 'keys', 'Between', '__proto__', 'constructor', '${_type}', '${x:99:0}').map((value): Mutation => ({ kind: 'set', value })),
  );

  /** The answer's contract: a design the rules accept with notes, or a non-empty list of problems with paths. */
  function checkAnswer(input: unknown): void {
    const result = fromOneTable(input);
    if (result.ok) {
      expect(parseDesign(JSON.parse(JSON.stringify(result.value.design))).ok).toBe(true);
      expect(Array.isArray(result.value.notes)).toBe(true);
    } else {
      expect(result.errors.length).toBeGreaterThan(0);
      for (const p of result.errors) expect(typeof p.code === 'string' && typeof p.path === 'string' && p.message.length > 0).toBe(true);
    }
  }

  it('never throws on up to three mutations at random paths, and answers with a valid design or problems', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...paths), mutation), { minLength: 1, maxLength: 3 }), (steps) => {
        let doc: unknown = base;
        for (const [path, m] of steps) {
          try {
            doc = mutate(doc, path, m);
          } catch {
            // An earlier mutation removed this path's parent: apply the rest.
          }
        }
        checkAnswer(doc);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on truncated or garbage text, parsed where it still is JSON', () => {
    const text = JSON.stringify(base);
    fc.assert(
      fc.property(fc.oneof(fc.nat({ max: text.length }).map((n) => text.slice(0, n)), fc.string({ maxLength: 200 })), (s) => {
        let input: unknown = s;
        try {
          input = JSON.parse(s);
        } catch {
          // Not JSON: give the text itself.
        }
        checkAnswer(input);
      }),
      { numRuns: 200 },
    );
  });
});
