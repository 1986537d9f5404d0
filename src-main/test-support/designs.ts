/** Designs for host tests: one small valid design, and variants that fail in known ways. */
import type { Design } from '../../src-shared/model/index.ts';

/** A small valid design: one table, one entity, one access pattern. */
export function sampleDesign(name = 'Sample'): Design {
  return {
    formatVersion: 1,
    id: 'design-sample',
    name,
    description: 'A design for host tests.',
    tables: [
      {
        id: 'table-app',
        name: 'AppTable',
        partitionKey: { name: 'PK', type: 'S' },
        sortKey: { name: 'SK', type: 'S' },
        billing: { mode: 'ON_DEMAND' },
        tableClass: 'STANDARD',
        globalSecondaryIndexes: [],
        localSecondaryIndexes: [],
        entities: [
          {
            id: 'entity-user',
            name: 'User',
            itemCount: 1000,
            attributes: [
              { name: 'userId', type: 'S' },
              { name: 'email', type: 'S' },
            ],
            keys: { PK: { template: 'USER#{userId}' }, SK: { template: 'PROFILE' } },
          },
        ],
        accessPatterns: [
          {
            id: 'ap-get-user',
            name: 'Get user by id',
            entityId: 'entity-user',
            action: 'get',
            known: ['userId'],
            ratePerSecond: 10,
            consistency: 'eventual',
          },
        ],
      },
    ],
  };
}

/** A Keyplan design whose shape is broken (an item count that is text): a `file.invalidDesign`. */
export function invalidDesign(): unknown {
  const design = sampleDesign('Invalid');
  const table = design.tables[0]!;
  return { ...design, tables: [{ ...table, entities: [{ ...table.entities[0], itemCount: 'many' }] }] };
}

/**
 * Well formed, but its table name breaks DynamoDB's naming rule: work in progress that opens and
 * saves, with the problem shown in the editor.
 */
export function designBreakingARule(): unknown {
  const design = sampleDesign('Work in progress');
  return { ...design, tables: [{ ...design.tables[0], name: 'x' }] };
}
