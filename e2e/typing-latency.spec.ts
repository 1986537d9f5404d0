/**
 * Keystroke → figure, in the browser: a new rate typed digit by digit into an access pattern's rate
 * field, each keystroke timed until the pattern's per-second cost beside it shows the new rate
 * (e2e/timing.ts). The latencies are recorded in test-results/timings/typing-latency.json for
 * `npm run bench`, never asserted here: a test checks behaviour, the bench reports speed.
 *
 * Two designs: the e-commerce example, and the 200-pattern, 20-GSI design the costing bench costs
 * (bench/costing.ts), opened as a file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { largeDesign } from '../bench/costing.ts';
import { test, expect } from './fixtures/app.ts';
import { KeyplanPage, PatternsPage } from './pages/keyplan.ts';
import { KeystrokeTimer, median, recordTimings } from './timing.ts';

// One after the other: both add to the same timings file.
test.describe.configure({ mode: 'serial' });

/** Six new rates, each typed over the old one digit by digit: 24 keystrokes that each change the rate (1, 10, 105, 1057; 2, 20, …). */
const KEYS = Array.from({ length: 6 }, (_, g) => ['Control+A', String(g + 1), '0', '5', '7']).flat();
const DIGITS = KEYS.filter((k) => /^[0-9]$/.test(k)).length;

async function timeTyping(page: KeyplanPage, patterns: PatternsPage, pattern: string, name: string): Promise<void> {
  await page.show('Access patterns');
  await patterns.openPattern(pattern);
  const rate = patterns.editor().getByLabel('Requests per second (peak)');
  const perSecond = patterns.panel().getByTitle(`How RCU/s of "${pattern}" is computed`);
  const perRequest = Number((await patterns.panel().getByTitle(`How RCU per request of "${pattern}" is computed`).innerText()).replace(/[^0-9.]/g, ''));
  await rate.click();
  const timer = new KeystrokeTimer(page.page);
  await timer.watch(rate, patterns.panel(), `How RCU/s of "${pattern}" is computed`);
  const samples = await timer.type(KEYS);
  expect(samples).toHaveLength(DIGITS);
  // The figure shown is the last rate's: 6,057 requests/s × the RCU per request.
  await expect(rate).toHaveValue('6057');
  expect(Number((await perSecond.innerText()).replace(/[^0-9.]/g, ''))).toBeCloseTo(perRequest * 6057, -1);
  const result = { name, median: Math.round(median(samples) * 10) / 10, unit: 'ms' as const, target: null };
  console.log(`${name}: ${samples.map((s) => s.toFixed(0)).join(', ')} ms (median ${result.median} ms)`);
  await recordTimings([result]);
}

test('typing a rate into the example: each keystroke shows the pattern’s new cost, its latency recorded', async ({ page, host }) => {
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.openExample('E-commerce single table');
  await timeTyping(app, new PatternsPage(page), 'List products in a category', 'browser.keystroke-to-figure.example');
});

test('typing a rate into a 200-pattern, 20-GSI design: each keystroke shows the pattern’s new cost, its latency recorded', async ({ page, host }) => {
  test.setTimeout(240_000);
  const design = largeDesign();
  const pattern = design.tables[0]!.accessPatterns.find((p) => p.id.startsWith('ap-gen-') && p.action === 'query' && p.returns === undefined && p.filter === undefined)!;
  await mkdir(host.workspaceDir, { recursive: true });
  await writeFile(join(host.workspaceDir, 'two-hundred.keyplan.json'), JSON.stringify(design, null, 2));
  const app = new KeyplanPage(page);
  await app.open(host.url);
  await app.openFile('two-hundred.keyplan.json');
  await expect(app.designName).toHaveValue(design.name);
  await timeTyping(app, new PatternsPage(page), pattern.name, 'browser.keystroke-to-figure.200-patterns-20-gsis');
});
