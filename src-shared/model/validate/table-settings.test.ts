import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Design, Table } from '../schema.ts';
import { parseDesign, validateDesign } from '../validate.ts';

const example = (): Design => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../examples/ecommerce.keyplan.json'), 'utf8')) as Design;
const codesAndPaths = (d: Design) => validateDesign(d).map((p) => ({ code: p.code, path: p.path }));

describe('table settings: point-in-time recovery, encryption, deletion protection, tags', () => {
  it.each<[string, (t: Table) => void, { code: string; path: string }[]]>([
    ['recovery on with a 7-day period', (t) => (t.pointInTimeRecovery = { enabled: true, recoveryPeriodInDays: 7 }), []],
    ['recovery on without a period', (t) => (t.pointInTimeRecovery = { enabled: true }), []],
    ['recovery off without a period', (t) => (t.pointInTimeRecovery = { enabled: false }), []],
    [
      'a period with recovery off',
      (t) => (t.pointInTimeRecovery = { enabled: false, recoveryPeriodInDays: 7 }),
      [{ code: 'model.pointInTimeRecovery', path: 'tables[0].pointInTimeRecovery.recoveryPeriodInDays' }],
    ],
    [
      'a period of 36 days',
      (t) => (t.pointInTimeRecovery = { enabled: true, recoveryPeriodInDays: 36 }),
      [{ code: 'model.invalidNumber', path: 'tables[0].pointInTimeRecovery.recoveryPeriodInDays' }],
    ],
    ['the AWS owned key', (t) => (t.encryption = { type: 'AWS_OWNED' }), []],
    ['the AWS managed KMS key', (t) => (t.encryption = { type: 'KMS' }), []],
    ['a customer managed KMS key', (t) => (t.encryption = { type: 'KMS', kmsKeyId: 'alias/shop' }), []],
    [
      'a KMS key with the AWS owned key',
      (t) => (t.encryption = { type: 'AWS_OWNED', kmsKeyId: 'alias/shop' }),
      [{ code: 'model.encryption', path: 'tables[0].encryption.kmsKeyId' }],
    ],
    ['an empty KMS key id', (t) => (t.encryption = { type: 'KMS', kmsKeyId: ' ' }), [{ code: 'model.encryption', path: 'tables[0].encryption.kmsKeyId' }]],
    ['deletion protection', (t) => (t.deletionProtection = true), []],
    ['tags', (t) => (t.tags = { team: 'checkout', 'cost-center': '42', empty: '' }), []],
    ['a tag key with the reserved aws: prefix', (t) => (t.tags = { 'aws:owner': 'x' }), [{ code: 'model.tags', path: 'tables[0].tags["aws:owner"]' }]],
    ['an empty tag key', (t) => (t.tags = { '': 'x' }), [{ code: 'model.tags', path: 'tables[0].tags[""]' }]],
    ['a tag key of 129 characters', (t) => (t.tags = { ['k'.repeat(129)]: 'x' }), [{ code: 'model.tags', path: `tables[0].tags.${'k'.repeat(129)}` }]],
    ['a tag value of 257 characters', (t) => (t.tags = { team: 'v'.repeat(257) }), [{ code: 'model.tags', path: 'tables[0].tags.team' }]],
    ['a tag value with a character tags cannot hold', (t) => (t.tags = { team: 'a;b' }), [{ code: 'model.tags', path: 'tables[0].tags.team' }]],
    ['51 tags', (t) => (t.tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))), [{ code: 'model.tags', path: 'tables[0].tags' }]],
  ])('%s', (_, edit, expected) => {
    const design = example();
    edit(design.tables[0]!);
    expect(codesAndPaths(design)).toEqual(expected);
  });

  it('parseDesign reads the settings and rejects a value of the wrong shape', () => {
    const design = example();
    const table = design.tables[0]!;
    table.pointInTimeRecovery = { enabled: true, recoveryPeriodInDays: 14 };
    table.encryption = { type: 'KMS', kmsKeyId: 'alias/shop' };
    table.deletionProtection = true;
    table.tags = { team: 'checkout' };
    const parsed = parseDesign(JSON.parse(JSON.stringify(design)));
    expect(parsed.ok && parsed.value.tables[0]).toMatchObject({ pointInTimeRecovery: { enabled: true, recoveryPeriodInDays: 14 }, tags: { team: 'checkout' } });
    (table as unknown as Record<string, unknown>).encryption = { type: 'SSE' };
    const bad = parseDesign(JSON.parse(JSON.stringify(design)));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.map((p) => p.path)).toContain('tables[0].encryption.type');
  });
});

describe('capacity settings: warm throughput, on-demand maximums, Contributor Insights', () => {
  const provisioned = (t: Table) => {
    t.billing = { mode: 'PROVISIONED', readCapacityUnits: 10, writeCapacityUnits: 10 };
    for (const g of t.globalSecondaryIndexes) g.provisioned = { readCapacityUnits: 5, writeCapacityUnits: 5 };
  };
  it.each<[string, (t: Table) => void, { code: string; path: string }[]]>([
    ['warm throughput on the table, both directions', (t) => (t.warmThroughput = { readUnitsPerSecond: 30_000, writeUnitsPerSecond: 10_000 }), []],
    ['warm throughput for writes only, on a GSI', (t) => (t.globalSecondaryIndexes[0]!.warmThroughput = { writeUnitsPerSecond: 8000 }), []],
    ['warm throughput on a provisioned table', (t) => (provisioned(t), (t.warmThroughput = { readUnitsPerSecond: 20_000 })), []],
    ['an empty warm throughput', (t) => (t.warmThroughput = {}), [{ code: 'model.warmThroughput', path: 'tables[0].warmThroughput' }]],
    // Warm throughput only rises: below a new on-demand table's 12,000 reads / 4,000 writes it asks for nothing.
    [
      'an on-demand warm throughput below the new-table level',
      (t) => ((t.warmThroughput = { readUnitsPerSecond: 11_999 }), (t.globalSecondaryIndexes[0]!.warmThroughput = { writeUnitsPerSecond: 3_000 })),
      [
        { code: 'model.warmThroughput', path: 'tables[0].warmThroughput.readUnitsPerSecond' },
        { code: 'model.warmThroughput', path: 'tables[0].globalSecondaryIndexes[0].warmThroughput.writeUnitsPerSecond' },
      ],
    ],
    ['a provisioned table\'s warm throughput below 12,000 (its baseline is its capacity)', (t) => (provisioned(t), (t.warmThroughput = { readUnitsPerSecond: 500 })), []],
    [
      'a warm throughput of 0 read units',
      (t) => (t.warmThroughput = { readUnitsPerSecond: 0, writeUnitsPerSecond: 5000 }),
      [{ code: 'model.invalidNumber', path: 'tables[0].warmThroughput.readUnitsPerSecond' }],
    ],
    [
      'a GSI warm throughput of 1.5 write units',
      (t) => (t.globalSecondaryIndexes[1]!.warmThroughput = { writeUnitsPerSecond: 1.5 }),
      [{ code: 'model.invalidNumber', path: 'tables[0].globalSecondaryIndexes[1].warmThroughput.writeUnitsPerSecond' }],
    ],
    ['on-demand maximums on an on-demand table and its GSI', (t) => ((t.onDemandThroughput = { maxReadRequestUnits: 100 }), (t.globalSecondaryIndexes[0]!.onDemandThroughput = { maxWriteRequestUnits: 50 })), []],
    // AWS sets no rule between a GSI's maximum and its table's: each throttles on its own.
    ['a GSI maximum above the table maximum', (t) => ((t.onDemandThroughput = { maxWriteRequestUnits: 10 }), (t.globalSecondaryIndexes[0]!.onDemandThroughput = { maxWriteRequestUnits: 500 })), []],
    [
      'an on-demand maximum on a provisioned table and on its GSI',
      (t) => (provisioned(t), (t.onDemandThroughput = { maxReadRequestUnits: 100 }), (t.globalSecondaryIndexes[1]!.onDemandThroughput = { maxReadRequestUnits: 100 })),
      [
        { code: 'model.onDemandThroughput', path: 'tables[0].onDemandThroughput' },
        { code: 'model.onDemandThroughput', path: 'tables[0].globalSecondaryIndexes[1].onDemandThroughput' },
      ],
    ],
    ['an empty on-demand maximum', (t) => (t.onDemandThroughput = {}), [{ code: 'model.onDemandThroughput', path: 'tables[0].onDemandThroughput' }]],
    [
      'an on-demand maximum of 0 write request units on a GSI',
      (t) => (t.globalSecondaryIndexes[0]!.onDemandThroughput = { maxWriteRequestUnits: 0 }),
      [{ code: 'model.invalidNumber', path: 'tables[0].globalSecondaryIndexes[0].onDemandThroughput.maxWriteRequestUnits' }],
    ],
    ['Contributor Insights on, throttled keys only', (t) => (t.contributorInsights = { enabled: true, mode: 'THROTTLED_KEYS' }), []],
    ['Contributor Insights off', (t) => (t.contributorInsights = { enabled: false }), []],
    [
      'a Contributor Insights mode with Contributor Insights off',
      (t) => (t.contributorInsights = { enabled: false, mode: 'ACCESSED_AND_THROTTLED_KEYS' }),
      [{ code: 'model.contributorInsights', path: 'tables[0].contributorInsights.mode' }],
    ],
  ])('%s', (_, edit, expected) => {
    const design = example();
    edit(design.tables[0]!);
    expect(codesAndPaths(design)).toEqual(expected);
  });

  it('names the table or GSI, what was found and what is expected', () => {
    const design = example();
    const table = design.tables[0]!;
    table.billing = { mode: 'PROVISIONED', readCapacityUnits: 10, writeCapacityUnits: 10 };
    for (const g of table.globalSecondaryIndexes) g.provisioned = { readCapacityUnits: 5, writeCapacityUnits: 5 };
    table.globalSecondaryIndexes[0]!.onDemandThroughput = { maxReadRequestUnits: 100 };
    table.warmThroughput = { readUnitsPerSecond: -3 };
    const problems = validateDesign(design);
    const max = problems.find((p) => p.path === 'tables[0].globalSecondaryIndexes[0].onDemandThroughput');
    expect(max?.message).toMatch(/^GSI "GSI1" sets an on-demand maximum .* table "\S+" uses provisioned billing; expected /);
    expect(max?.found).toBe('an on-demand maximum on a provisioned table');
    const warm = problems.find((p) => p.path === 'tables[0].warmThroughput.readUnitsPerSecond');
    expect(warm?.message).toContain('warm throughput, read units per second is the number -3; expected a whole number ≥ 1');
  });
});
