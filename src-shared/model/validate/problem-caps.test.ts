/**
 * The whole list of problems stays bounded, not only each problem: paths built from user-chosen names
 * are clipped like quotes, and past 1,000 problems the rest are counted in one last problem. Found by
 * a hostile-input pass: a 100,000-character key name made each of 29 problems 100 KB long, and
 * 20,000 broken entities gave 8.7 MB of problems.
 */
import { describe, expect, it } from 'vitest';
import type { Design, Entity } from '../schema.ts';
import { validateDesign } from '../validate.ts';
import { Collector, MAX_PROBLEMS } from './collector.ts';

function design(entities: Entity[], partitionKeyName = 'PK'): Design {
  return {
    formatVersion: 1,
    id: 'd',
    name: 'Hostile',
    tables: [
      {
        id: 't',
        name: 'App',
        partitionKey: { name: partitionKeyName, type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities,
        accessPatterns: [],
      },
    ],
  } as Design;
}

describe('the list of problems', () => {
  it('clips each part of a path to 300 characters, so a 100,000-character key name costs no more than a short one', () => {
    const longName = 'P'.repeat(100_000);
    const entities: Entity[] = Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, name: `E${i}`, itemCount: 1, attributes: [], keys: {} }) as Entity);
    const problems = validateDesign(design(entities, longName));
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p.path.split('.').every((part) => part.length <= 300)).toBe(true);
    expect(JSON.stringify(problems).length).toBeLessThan(50_000);
  });

  it('lists at most 1,000 problems and counts the rest in one last problem', () => {
    const c = new Collector();
    for (let i = 0; i < 2_500; i += 1) c.add('model.invalidName', `tables[0].entities[${i}].name`, `Entity ${i} has a bad name.`);
    const problems = c.problems;
    expect(problems).toHaveLength(MAX_PROBLEMS + 1);
    expect(problems.at(-1)).toEqual({
      code: 'model.moreProblems',
      path: '',
      message: '… and 1,500 more problems not listed. Fix the ones above first; the list shows at most 1,000.',
      details: { more: 1500 },
    });
  });

  it('keeps a design with 20,000 broken entities to a bounded list', () => {
    const entities: Entity[] = Array.from(
      { length: 20_000 },
      (_, i) => ({ id: `e${i}`, name: `E${i}`, itemCount: 1, attributes: [], keys: { PK: { template: '{bad{bad' }, SK: { template: 'X' } } }) as unknown as Entity,
    );
    const problems = validateDesign(design(entities));
    expect(problems.length).toBeLessThanOrEqual(MAX_PROBLEMS + 1);
    expect(problems.at(-1)?.code).toBe('model.moreProblems');
    expect(JSON.stringify(problems).length).toBeLessThan(1_000_000);
  });
});
