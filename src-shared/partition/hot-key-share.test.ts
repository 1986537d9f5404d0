/**
 * The default of a pattern's hottest-key share: what its traffic or its attributes' spreads send to
 * the busiest key (docs/traffic.md). Shares computed by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Attribute, Design } from '../model/index.ts';
import { getEvent, oneTableDesign, putEvents } from './__fixtures__/designs.ts';
import { impliedHottestKeyShare } from './hot-key-share.ts';

const withDevices = (deviceId: Attribute): Design => {
  const design = oneTableDesign({ patterns: [getEvent(100, undefined, 'g'), putEvents(100, { kind: 'hotKey', share: 0.3 }, 'p')] });
  const table = design.tables[0]!;
  const entity = table.entities[0]!;
  return { ...design, tables: [{ ...table, entities: [{ ...entity, attributes: entity.attributes.map((a) => (a.name === 'deviceId' ? deviceId : a)) }] }] };
};

describe('impliedHottestKeyShare', () => {
  it('one device holding half the events (a hot value on 100,000 devices): a get by device sends it 50 %', () => {
    const design = withDevices({ name: 'deviceId', type: 'S', cardinality: 100_000, generator: { kind: 'id', distribution: { kind: 'hotKey', share: 0.5 } } });
    const hottest = impliedHottestKeyShare(design, design.tables[0]!, 'g');
    expect(hottest?.share).toBeCloseTo(0.5, 6);
    expect(hottest?.key).toMatch(/^DEVICE#/);
  });

  it('Zipf s = 1 over 1,000 devices: the first takes 1 ÷ H(1,000) = 13.39 %', () => {
    const design = withDevices({ name: 'deviceId', type: 'S', cardinality: 1000, generator: { kind: 'id', distribution: { kind: 'zipf', exponent: 1 } } });
    // H(1,000) = Σ 1/k for k = 1..1,000 = 7.4854708606
    expect(impliedHottestKeyShare(design, design.tables[0]!, 'g')?.share).toBeCloseTo(1 / 7.4854708606, 6);
  });

  it("a pattern's traffic decides it when stated: a hot key at 30 %", () => {
    const design = withDevices({ name: 'deviceId', type: 'S', cardinality: 100_000, generator: { kind: 'id' } });
    expect(impliedHottestKeyShare(design, design.tables[0]!, 'p')?.share).toBeCloseTo(0.3, 9);
  });

  it('even devices: each of 100,000 takes 0.001 %', () => {
    const design = withDevices({ name: 'deviceId', type: 'S', cardinality: 100_000, generator: { kind: 'id' } });
    expect(impliedHottestKeyShare(design, design.tables[0]!, 'g')?.share).toBeCloseTo(1e-5, 9);
  });
});
