import { describe, expect, it } from 'vitest';
import { bindingOf } from './key-slots.ts';
import type { Entity } from './schema.ts';

describe('bindingOf', () => {
  const entity: Entity = { id: 'e', name: 'E', itemCount: 1, attributes: [], keys: { PK: { template: 'E#{id}' } } };

  it('finds the template of a key attribute the entity has', () => {
    expect(bindingOf(entity, 'PK')).toEqual({ template: 'E#{id}' });
  });

  it.each(['__proto__', 'constructor', 'toString', 'SK'])('finds nothing for %s, which the entity does not have', (name) => {
    expect(bindingOf(entity, name)).toBeUndefined();
  });
});
