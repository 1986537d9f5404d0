/**
 * The e2e timing helper: how long a keystroke takes to show on screen, measured in the page and
 * recorded (never asserted: timings belong to `npm run bench`, which reads what is recorded here).
 *
 * In the page, a digit's `keydown` in the watched field starts the clock (`performance.now()`); a
 * MutationObserver on the watched region sees the figure's text change, and the next animation frame,
 * the one that paints the change, stops it. Each keystroke is awaited before the next is typed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';

/** One recorded timing, as `npm run bench` lists it. */
export interface TimingResult {
  name: string;
  median: number;
  unit: 'ms';
  target: null;
}

/** Where the timings go: `npm run bench` (bench/costing.ts) includes them when the file exists. */
export const TIMINGS_FILE = resolve(import.meta.dirname, '../test-results/timings/typing-latency.json');

interface TypingProbe {
  start: number | undefined;
  before: string | null | undefined;
  samples: number[];
}

declare global {
  interface Window {
    keyplanTypingProbe?: TypingProbe;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Times keystrokes in one field until a figure in a region (found by its title) shows their effect. */
export class KeystrokeTimer {
  constructor(readonly page: Page) {}

  /**
   * Watches `field`: from each digit typed into it until the element titled `figureTitle` inside
   * `region` shows a different text, painted. The region is watched, not the element, so that a
   * re-rendered figure is still seen.
   */
  async watch(field: Locator, region: Locator, figureTitle: string): Promise<void> {
    const regionHandle = await region.elementHandle();
    await field.evaluate(
      (input, [watched, title]) => {
        const probe: TypingProbe = { start: undefined, before: undefined, samples: [] };
        window.keyplanTypingProbe = probe;
        const text = (): string | null | undefined => [...(watched?.querySelectorAll('[title]') ?? [])].find((e) => e.getAttribute('title') === title)?.textContent;
        input.addEventListener(
          'keydown',
          (event) => {
            if (!/^[0-9]$/.test((event as KeyboardEvent).key)) return;
            probe.start = performance.now();
            probe.before = text();
          },
          { capture: true },
        );
        new MutationObserver(() => {
          const start = probe.start;
          if (start === undefined || text() === probe.before) return;
          probe.start = undefined;
          requestAnimationFrame(() => probe.samples.push(performance.now() - start));
        }).observe(watched!, { subtree: true, childList: true, characterData: true });
      },
      [regionHandle, figureTitle] as const,
    );
  }

  /** Types each of `keys` into the focused field, waiting for each keystroke's figure; the latencies in ms. */
  async type(keys: readonly string[]): Promise<number[]> {
    let digits = 0;
    for (const key of keys) {
      await this.page.keyboard.press(key);
      if (!/^[0-9]$/.test(key)) continue;
      digits += 1;
      await this.page.waitForFunction((n) => (window.keyplanTypingProbe?.samples.length ?? 0) >= n, digits);
    }
    return this.page.evaluate(() => window.keyplanTypingProbe?.samples ?? []);
  }
}

/** Adds (or replaces, by name) `results` in the timings file. */
export async function recordTimings(results: readonly TimingResult[]): Promise<void> {
  let kept: TimingResult[] = [];
  try {
    kept = (JSON.parse(await readFile(TIMINGS_FILE, 'utf8')) as { results?: TimingResult[] }).results ?? [];
  } catch {
    // No timings recorded yet (or an unreadable file from an interrupted run): start afresh.
  }
  const names = new Set(results.map((r) => r.name));
  await mkdir(dirname(TIMINGS_FILE), { recursive: true });
  await writeFile(TIMINGS_FILE, `${JSON.stringify({ results: [...kept.filter((r) => !names.has(r.name)), ...results] }, null, 2)}\n`);
}
