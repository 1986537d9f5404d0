/**
 * Problems stay few and short whatever the input: repeats of one kind in one field collapse into one
 * problem with a count, messages quote at most 80 characters of user text, lists show a few names, and
 * the membership check reads at most the indexes DynamoDB's quotas allow.
 */
import { describe, expect, it } from 'vitest';
import type { Design, Entity } from '../schema.ts';
import { validateDesign } from '../validate.ts';
import { Collector } from './collector.ts';

function design(entities: Entity[], extra: Partial<Design['tables'][number]> = {}): Design {
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Hostile',
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
        entities,
        accessPatterns: [],
        ...extra,
      },
    ],
  };
}

const user = (keys: Entity['keys'], name = 'User'): Entity => ({ id: `e-${name}`, name, itemCount: 1, attributes: [{ name: 'userId', type: 'S' }], keys });

/** Every run of text between double quotes in a message. */
const quotesIn = (message: string): string[] => message.match(/"(?:[^"\\]|\\.)*"/g) ?? [];

describe('Collector', () => {
  it('collapses repeats of one code at one path into the first, with a count and other found values', () => {
    const c = new Collector();
    c.add('model.unknownAttribute', 'a', 'First.', '"x"');
    c.add('model.unknownAttribute', 'b', 'Elsewhere.', '"x"');
    for (let i = 0; i < 4211; i += 1) c.add('model.unknownAttribute', 'a', 'Again.', `"y${i % 5}"`);
    c.add('model.invalidName', 'a', 'Another kind.');
    expect(c.problems).toEqual([
      { code: 'model.unknownAttribute', path: 'a', message: 'First. … and 4,211 more like it ("y0", "y1", "y2", …).', found: '"x"', details: { more: 4211 } },
      { code: 'model.unknownAttribute', path: 'b', message: 'Elsewhere.', found: '"x"' },
      { code: 'model.invalidName', path: 'a', message: 'Another kind.' },
    ]);
  });

  it('keeps the details of the first problem and adds the count', () => {
    const c = new Collector();
    c.push({ code: 'condition.syntax', path: 'p', message: 'M.', details: { position: 3 } });
    c.push({ code: 'condition.syntax', path: 'p', message: 'M.', details: { position: 9 } });
    expect(c.problems[0]?.details).toEqual({ position: 3, more: 1 });
  });
});

describe('validateDesign on repeated faults', () => {
  it('a template naming one unknown attribute 682 times is one problem, "… and 681 more like it"', () => {
    const template = '{x}'.repeat(682);
    const problems = validateDesign(design([user({ PK: { template }, SK: { template: 'PROFILE' } })]));
    expect(problems.map((p) => p.code)).toEqual(['keyTemplate.unknownAttribute']);
    expect(problems[0]?.message).toMatch(/ … and 681 more like it\.$/);
    for (const q of quotesIn(problems[0]?.message ?? '')) expect(q.length).toBeLessThanOrEqual(84);
  });

  it('two unknown attributes in one template: one problem naming the first, the other as an example', () => {
    const problems = validateDesign(design([user({ PK: { template: 'U#{a}#{b}' }, SK: { template: 'PROFILE' } })]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'keyTemplate.unknownAttribute', found: '"a"', details: { more: 1 } });
    expect(problems[0]?.message).toMatch(/… and 1 more like it \("b"\)\.$/);
  });

  it('a condition naming hundreds of unknown attributes is one problem', () => {
    const filter = Array.from({ length: 300 }, (_, i) => `a${i} = 1`).join(' AND ');
    const d = design([user({ PK: { template: 'U#{userId}' }, SK: { template: 'PROFILE' } })], {
      accessPatterns: [{ id: 'p', name: 'P', entityId: 'e-User', action: 'query', known: ['userId'], ratePerSecond: 1, consistency: 'eventual', filter }],
    });
    const problems = validateDesign(d);
    expect(problems.map((p) => p.code)).toEqual(['condition.unknownAttribute']);
    expect(problems[0]?.message).toContain('… and 299 more like it');
  });

  it('long names are quoted at 80 characters and long lists cut after a few names', () => {
    const long = 'N'.repeat(5000);
    const attributes = Array.from({ length: 100 }, (_, i) => ({ name: `${long}${i}`, type: 'S' as const }));
    const d = design([{ id: 'e', name: long, itemCount: 1, attributes, keys: { [long]: { template: '{nope}' }, PK: { template: '{nope}' }, SK: { template: 'X' } } }]);
    const problems = validateDesign(d);
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) {
      expect(p.message.length).toBeLessThan(2100);
      for (const q of quotesIn(p.message)) expect(q.length).toBeLessThanOrEqual(84);
    }
    expect(problems.find((p) => p.code === 'keyTemplate.unknownAttribute' && p.path.endsWith('PK.template'))?.message).toContain('(100 in all)');
  });

  it('checks GSI membership against the first 20 GSIs only (a table with more has model.tooManyIndexes), one problem per entity', () => {
    const gsis = Array.from({ length: 500 }, (_, i) => ({
      id: `g${i}`,
      name: `GSI${String(i).padStart(3, '0')}`,
      partitionKey: { name: 'GK', type: 'S' as const },
      sortKey: { name: `GS${i}`, type: 'S' as const },
      projection: { type: 'KEYS_ONLY' as const },
    }));
    const entities = Array.from({ length: 50 }, (_, i) => user({ PK: { template: 'U#{userId}' }, SK: { template: 'P' }, GK: { template: 'G' } }, `E${i}`));
    const problems = validateDesign(design(entities, { globalSecondaryIndexes: gsis }));
    const counts = new Map<string, number>();
    for (const p of problems) counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
    expect(counts.get('model.tooManyIndexes')).toBe(1);
    expect(counts.get('model.incompleteIndexKey')).toBe(50);
    const first = problems.find((p) => p.code === 'model.incompleteIndexKey');
    expect(first).toMatchObject({ path: 'tables[0].entities[0].keys.GS0' });
    expect(first?.message).toContain('some but not all key attributes of 20 GSIs');
    expect(first?.message).toContain('GSI "GSI000" has GK, lacks GS0');
    expect(first?.message).toContain('(20 in all)');
  });

  it('an entity half in one GSI gets the one-GSI message', () => {
    const gsis = [{ id: 'g', name: 'GSI1', partitionKey: { name: 'GK', type: 'S' as const }, sortKey: { name: 'GS', type: 'S' as const }, projection: { type: 'ALL' as const } }];
    const problems = validateDesign(design([user({ PK: { template: 'U#{userId}' }, SK: { template: 'P' }, GK: { template: 'G' } })], { globalSecondaryIndexes: gsis }));
    expect(problems).toEqual([expect.objectContaining({ code: 'model.incompleteIndexKey', path: 'tables[0].entities[0].keys.GS' })]);
    expect(problems[0]?.message).toMatch(/has a template for GK but none for GS, so its items never appear in GSI "GSI1"/);
  });
});
