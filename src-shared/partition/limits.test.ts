import { describe, expect, it } from 'vitest';
import { onDemandInstantCapacity, partitionCountFor, PARTITION_BYTES, writeEquivalents } from './limits.ts';
import { recommendShards } from './shards.ts';

const GB = 1_073_741_824;

describe('partition count (docs/dynamodb-rules.md §4.2)', () => {
  it('P-1: 10,000 RCU + 2,000 WCU and 15 GB make 6 partitions', () => {
    const count = partitionCountFor({ readUnitsPerSecond: 10_000, writeUnitsPerSecond: 2_000, bytes: 15 * GB });
    expect(count.partitionCount).toBe(6);
    expect(count.partitionsForThroughput).toBeCloseTo(5.333, 3);
    expect(count.partitionsForSize).toBeCloseTo(1.5, 6);
    // Each of the 6 gets about 1,667 RCU and 333 WCU.
    expect(10_000 / count.partitionCount).toBeCloseTo(1666.67, 1);
  });

  it.each([
    [{ readUnitsPerSecond: 3000, writeUnitsPerSecond: 0, bytes: 0 }, 1],
    [{ readUnitsPerSecond: 3000, writeUnitsPerSecond: 1000, bytes: 0 }, 2],
    [{ readUnitsPerSecond: 0, writeUnitsPerSecond: 0, bytes: PARTITION_BYTES * 2.5 }, 3],
    [{ readUnitsPerSecond: 0, writeUnitsPerSecond: 0, bytes: 0 }, 1],
    [{ readUnitsPerSecond: -5, writeUnitsPerSecond: Number.NaN, bytes: -1 }, 1],
  ])('%j → %i partitions', (input, expected) => {
    expect(partitionCountFor(input).partitionCount).toBe(expected);
  });
});

describe('on-demand instant capacity (docs/dynamodb-rules.md §4.3)', () => {
  it('P-5: a new table instantly serves 4,000 writes/s or 12,000 reads/s', () => {
    expect(onDemandInstantCapacity(0)).toBe(4000);
    expect(writeEquivalents(12_000, 0)).toBe(4000);
  });

  it('P-6: a previous peak of 50,000 reads/s allows 100,000 at once', () => {
    const capacity = onDemandInstantCapacity(writeEquivalents(50_000, 0));
    expect(capacity).toBeCloseTo(writeEquivalents(100_000, 0), 6);
  });
});

describe('recommendShards (docs/dynamodb-rules.md §5)', () => {
  it('P-3: 3,500 writes/s of 1 KB with headroom 1.25 → 5 shards (bare minimum 4)', () => {
    expect(recommendShards(3500, 0, 1.25)).toMatchObject({ shards: 5, forWrites: 5, minimum: 4 });
  });

  it('P-4: 1,000 writes/s of 2.5 KB items (3,000 WCU/s) → 4 shards with headroom (at least 3)', () => {
    expect(recommendShards(1000 * 3)).toMatchObject({ shards: 4, minimum: 3, headroom: 1.25 });
  });

  it('takes the larger of the read and write needs', () => {
    expect(recommendShards(100, 24_000)).toMatchObject({ shards: 10, forReads: 10, forWrites: 1 });
  });

  it('needs one shard for a cool key and explains the number', () => {
    const r = recommendShards(200);
    expect(r.shards).toBe(1);
    expect(r.explanation).toMatch(/One partition key is enough/);
    expect(recommendShards(3500).explanation).toMatch(/^5 shards: 3,500 WCU\/s × 1.25 headroom/);
  });
});
