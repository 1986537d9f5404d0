import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kindOf } from '../model/index.ts';
import type { Design } from '../model/index.ts';
import { planTable } from './index.ts';

const examples = ['ecommerce', 'esports'].map((name) => [name, JSON.parse(readFileSync(new URL(`../../examples/${name}.keyplan.json`, import.meta.url), 'utf8')) as Design] as const);

describe('every plan is an operation its pattern kind allows', () => {
  it.each(examples)('%s', (_name, design) => {
    for (const table of design.tables) {
      const plans = planTable(table);
      table.accessPatterns.forEach((p, i) => {
        const operation = plans[i]!.operation;
        expect(operation === 'None' || (kindOf(p.action).operations as readonly string[]).includes(operation), `${p.name}: ${operation}`).toBe(true);
      });
    }
  });
});
