/**
 * Hostile designs of a chosen size, for the tests that check validation costs linear time and gives
 * bounded output (issue 11): long templates and conditions, many placeholders, many entities and
 * patterns, long names, repeated bad characters, deep nesting, many indexes. Each is built in the
 * test, not checked in: `hostileDesign(shape, bytes, variant)` returns a raw design (parsed JSON, not
 * yet checked) whose JSON text is about `bytes` long (`hostileDesignBytes` says exactly).
 */

/** The kinds of hostile input. */
export const HOSTILE_SHAPES = [
  'longTemplate',
  'manyPlaceholders',
  'longCondition',
  'manyConditionNames',
  'manyEntitiesAndPatterns',
  'longNames',
  'repeatedBadCharacters',
  'deepNesting',
  'manyIndexes',
] as const;
export type HostileShape = (typeof HOSTILE_SHAPES)[number];

type Json = Record<string, unknown>;

/** Tokens a long template or condition repeats: placeholders, escapes, bad characters, multi-byte text. */
const TEMPLATE_TOKENS = ['{x}', 'é', '{{', '#{userId}', '}', '{x:0', '😀', ' ', '{a.b-c}'];
const CONDITION_TOKENS = ['a = 1 AND ', 's = "é" AND ', '!= ', '"', 'x IN (1, 2) AND ', '  '];
const BAD_CHARACTERS = ['!', ' ', 'é', '\u0000', '"', '\\', '😀', '<>'];

const pick = <T>(list: readonly T[], variant: number): T => list[Math.abs(variant) % list.length] as T;

/** `unit` repeated to about `bytes` characters. */
const repeatTo = (unit: string, bytes: number): string => unit.repeat(Math.max(1, Math.ceil(bytes / unit.length)));

function baseDesign(): Json {
  return {
    formatVersion: 1,
    id: 'd-hostile',
    name: 'Hostile',
    tables: [
      {
        id: 't',
        name: 'App',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [{ id: 'g1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' }, projection: { type: 'ALL' } }],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'e-user',
            name: 'User',
            itemCount: 100,
            attributes: [
              { name: 'userId', type: 'S' },
              { name: 'status', type: 'S' },
            ],
            keys: { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' } },
          },
        ],
        accessPatterns: [{ id: 'p-user', name: 'Get user', entityId: 'e-user', action: 'get', known: ['userId'], ratePerSecond: 1, consistency: 'eventual' }],
      },
    ],
  };
}

const tableOf = (d: Json): Json => (d.tables as Json[])[0] as Json;
const entitiesOf = (d: Json): Json[] => tableOf(d).entities as Json[];
const patternsOf = (d: Json): Json[] => tableOf(d).accessPatterns as Json[];

/** Adds `make(i)` for i = 0, 1, … until the units' JSON adds about `bytes`. */
function fill(list: unknown[], bytes: number, make: (i: number) => unknown): void {
  let added = 0;
  for (let i = 0; added < bytes; i += 1) {
    const unit = make(i);
    added += JSON.stringify(unit).length + 1;
    list.push(unit);
  }
}

/** Nested lists `[[[…]]]` `depth` deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

/** JSON lengths of deep-nesting designs, worked out when they are made. */
const deepSizes = new WeakMap<Json, number>();

/** The deep-nesting shape's depth for a size: each level is `[` and `]`. */
const depthFor = (bytes: number): number => Math.max(1, Math.floor(bytes / 2));

/**
 * A raw design of about `bytes` bytes of JSON of one hostile shape; `variant` picks the token,
 * character or name pattern it repeats.
 */
export function hostileDesign(shape: HostileShape, bytes: number, variant = 0): Json {
  const d = baseDesign();
  const table = tableOf(d);
  const user = entitiesOf(d)[0] as Json;
  switch (shape) {
    case 'longTemplate':
      // One key template far over the 2,048-byte cap: refused before parsing.
      (user.keys as Json).PK = { template: repeatTo(pick(TEMPLATE_TOKENS, variant), bytes) };
      break;
    case 'manyPlaceholders': {
      // Entities whose templates stay under the cap but name hundreds of unknown attributes.
      const token = variant % 2 === 0 ? (i: number) => `{x${i % 7}}` : (i: number) => `{n${i}}`;
      fill(entitiesOf(d), bytes, (i) => {
        let template = '';
        for (let k = 0; template.length < 2000; k += 1) template += token(k + i);
        return { id: `e${i}`, name: `E${i}`, itemCount: 1, attributes: [{ name: 'a', type: 'S' }], keys: { PK: { template }, SK: { template: `${'{y}'.repeat(300)}` }, GSI1PK: { template: '{a}' } } };
      });
      break;
    }
    case 'longCondition':
      // One filter far over the 4,096-byte cap: refused before parsing.
      (patternsOf(d)[0] as Json).filter = repeatTo(pick(CONDITION_TOKENS, variant), bytes);
      break;
    case 'manyConditionNames':
      // Patterns whose filters stay under the cap, each naming hundreds of unknown attributes.
      fill(patternsOf(d), bytes, (i) => {
        const clauses: string[] = [];
        for (let k = 0; clauses.join(' AND ').length < 3900; k += 1) clauses.push(variant % 2 === 0 ? `a${k} = ${k}` : `status = ${k}`);
        return { id: `p${i}`, name: `P${i}`, entityId: 'e-user', action: 'query', known: ['userId'], ratePerSecond: 1, consistency: 'eventual', filter: clauses.join(' AND ') };
      });
      break;
    case 'manyEntitiesAndPatterns': {
      // Half the bytes in entities without table keys, half in patterns naming unknown entities and attributes.
      fill(entitiesOf(d), bytes / 2, (i) => ({ id: `e${i}`, name: `E${i}`, itemCount: -1, attributes: [{ name: `a${i}`, type: 'S' }], keys: {} }));
      fill(patternsOf(d), bytes / 2, (i) => ({
        id: `p${i}`,
        name: variant % 2 === 0 ? `P${i}` : 'Same name',
        entityId: i % 3 === 0 ? 'nope' : 'e-user',
        action: 'put',
        known: Array.from({ length: 20 }, (_, k) => `unknown${k}`),
        ratePerSecond: -1,
        consistency: 'eventual',
        returns: ['x', 'y'],
        updates: ['userId'],
      }));
      break;
    }
    case 'longNames': {
      // Names of a tenth of the input each, used in every message.
      const long = repeatTo(pick(['N', 'é', '😀', '"', 'a b'], variant), bytes / 10);
      table.name = long;
      user.name = long;
      (user.attributes as Json[]).push({ name: long, type: 'L' }, { name: long, type: 'S' });
      (user.keys as Json)[long] = { template: `{${long}}` };
      (table.globalSecondaryIndexes as Json[]).push({ id: 'g2', name: long, partitionKey: { name: long, type: 'S' }, projection: { type: 'INCLUDE', nonKeyAttributes: [long, long] } });
      patternsOf(d).push({ id: 'p-long', name: long, entityId: 'e-user', action: 'query', known: [long, long], ratePerSecond: 1, consistency: 'eventual', filter: `${long.slice(0, 3000)} = 1` });
      table.tags = { [long]: long };
      break;
    }
    case 'repeatedBadCharacters': {
      // Many tags, index names and templates made of one bad character repeated.
      const bad = pick(BAD_CHARACTERS, variant);
      const tags: Json = {};
      let added = 0;
      for (let i = 0; added < bytes / 2; i += 1) {
        const key = `${bad.repeat(120)}${i}`;
        tags[key] = bad.repeat(300);
        added += (key.length + 300) * bad.length + 8;
      }
      table.tags = tags;
      fill(table.globalSecondaryIndexes as unknown[], bytes / 2, (i) => ({
        id: `g-${i}`,
        name: `${bad.repeat(200)}${i}`,
        partitionKey: { name: `K${i % 50}`, type: 'S' },
        projection: { type: 'ALL' },
      }));
      (user.keys as Json).SK = { template: `${'}'.repeat(1000)}` };
      break;
    }
    case 'deepNesting': {
      // An unknown property nested deeper than any recursive reader's stack, and a name that is a deep list.
      const depth = Math.ceil(depthFor(bytes) / 2);
      d.extra = [];
      ((user.attributes as Json[])[0] as Json).name = [];
      // Each level adds "[" and "]" to the JSON text (which JSON.stringify, recursive, cannot write).
      deepSizes.set(d, JSON.stringify(d).length + 2 * 2 * depth);
      d.extra = nested(depth);
      ((user.attributes as Json[])[0] as Json).name = nested(depth);
      break;
    }
    case 'manyIndexes': {
      // GSIs sharing a partition key, entities with a template for it and none for the sort keys.
      fill(table.globalSecondaryIndexes as unknown[], bytes / 2, (i) => ({
        id: `g-${i}`,
        name: `GSI${i}`,
        partitionKey: { name: 'GK', type: 'S' },
        sortKey: { name: `GS${i}`, type: variant % 2 === 0 ? 'S' : 'N' },
        projection: { type: 'INCLUDE', nonKeyAttributes: ['a', 'b'] },
      }));
      fill(entitiesOf(d), bytes / 2, (i) => ({ id: `e${i}`, name: `E${i}`, itemCount: 1, attributes: [], keys: { PK: { template: 'P' }, SK: { template: 'S' }, GK: { template: 'G' } } }));
      break;
    }
  }
  return d;
}

/** The JSON length of a design `hostileDesign` made (computed for deep nesting, which JSON.stringify cannot write). */
export function hostileDesignBytes(design: Json): number {
  return deepSizes.get(design) ?? JSON.stringify(design).length;
}
