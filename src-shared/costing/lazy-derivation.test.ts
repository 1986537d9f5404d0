/**
 * Derivation text is written when a derivation is read, not when a design is costed: the costs of a
 * large design hold tens of thousands of steps nobody opens. Read, a deferred derivation is the one an
 * eager figure would show, to every reader (the derivation dialog, `keyplan cost --explain`, the
 * design sheet, JSON).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figure, lazyFigure, type Step } from '../capacity/index.ts';
import { parseDesign } from '../model/index.ts';
import { costDesign } from './design-cost.ts';

const steps = (): Step[] => [
  { label: 'Items read', expression: '10 items', value: 10, unit: 'items' },
  { label: 'Read units', expression: '10 × 0.5', value: 5, unit: 'RCU' },
];

describe('lazyFigure', () => {
  it('builds its steps on the first read only, and never when nobody reads them', () => {
    let builds = 0;
    const build = () => {
      builds += 1;
      return steps();
    };
    const unread = lazyFigure(5, 'RCU', build);
    expect(unread.value).toBe(5);
    expect(builds).toBe(0);
    const read = lazyFigure(5, 'RCU', build, ['an assumption']);
    const first = read.steps;
    expect(read.steps).toBe(first);
    expect(builds).toBe(1);
  });

  it('reads as the figure made from the same steps: in JSON, deep equality and a copy', () => {
    const eager = figure(steps(), ['an assumption']);
    const lazy = lazyFigure(5, 'RCU', steps, ['an assumption']);
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(eager));
    expect(lazy).toEqual(eager);
    expect({ ...lazy }).toEqual(eager);
    expect(structuredClone(lazy)).toEqual(eager);
  });
});

describe('costDesign of examples/ecommerce.keyplan.json', () => {
  const parsed = parseDesign(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/ecommerce.keyplan.json'), 'utf8')));
  if (!parsed.ok) throw new Error('the example should parse');
  const cost = costDesign(parsed.value);

  it('defers the derivations of per-second figures and totals until read', () => {
    const get = cost.tables[0]!.patterns.find((p) => p.patternId === 'ap-get-user')!;
    expect(Object.getOwnPropertyDescriptor(get.perSecond, 'steps')?.get).toBeDefined();
    expect(Object.getOwnPropertyDescriptor(cost.onDemandMonthly, 'steps')?.get).toBeDefined();
  });

  it("defers a pattern's monthly dollar figures too, and writes them once read", () => {
    const get = cost.tables[0]!.patterns.find((p) => p.patternId === 'ap-get-user')!;
    expect(Object.getOwnPropertyDescriptor(get.monthly.onDemand, 'steps')?.get).toBeDefined();
    expect(Object.getOwnPropertyDescriptor(get.monthly.provisioned, 'steps')?.get).toBeDefined();
    // 250 RRU/s × 3,600 s × 730 h = 657,000,000 RRU a month; / 1,000,000 × $0.125 = $82.125.
    expect(get.monthly.onDemand.value).toBeCloseTo(82.125, 10);
    // Without an average or a profile, the average is the peak: on-demand is priced from 500/s.
    expect(get.monthly.onDemand.steps[0]).toEqual({ label: 'Priced from the average rate 500/s', expression: '0.5 RCU × 500 requests/s', value: 250, unit: 'RCU/s' });
    expect(get.monthly.onDemand.steps[1]).toEqual({ label: 'Read request units per month', expression: '250 RRU/s × 3,600 s × 730 h', value: 657_000_000, unit: 'RRU' });
    expect(get.monthly.onDemand.steps.at(-1)!.value).toBe(get.monthly.onDemand.value);
    // 250 RCU × 730 h × $0.00013 an hour = $23.725.
    expect(get.monthly.provisioned.value).toBeCloseTo(23.725, 10);
    expect(get.monthly.provisioned.steps[0]!.expression).toBe('250 RCU × 730 h × $0.00013');
    expect(get.monthly.provisioned.steps.at(-1)!.value).toBe(get.monthly.provisioned.value);
  });

  it('writes them, once read, with the numbers filled in', () => {
    // A 174 B user profile is one 4 KB block: 0.5 RCU eventually consistent, × 500 requests/s = 250 RCU/s.
    const get = cost.tables[0]!.patterns.find((p) => p.patternId === 'ap-get-user')!;
    expect(get.perSecond.steps.at(-1)).toEqual({ label: 'Sized from the peak 500/s', expression: '0.5 RCU × 500 requests/s', value: 250, unit: 'RCU/s' });
    // The design's on-demand total: its table's requests plus storage, each written with up to 4 decimals.
    const total = cost.onDemandMonthly;
    const [requests, storage] = [cost.tables[0]!.onDemandMonthly.value, cost.storageMonthly.value];
    expect(total.steps.map((s) => s.label)).toEqual(['Requests, table Shop', 'Storage', 'On-demand per month (requests + storage)']);
    expect(total.steps.at(-1)!.expression).toBe(
      `${requests.toLocaleString('en-US', { maximumFractionDigits: 4 })} + ${storage.toLocaleString('en-US', { maximumFractionDigits: 4 })}`,
    );
  });
});
