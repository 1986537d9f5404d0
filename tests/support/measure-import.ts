/**
 * Measures the import of a hostile text in a process of its own (run with `node --expose-gc --import
 * tsx`), for the tests that bound how cost grows with size. Prints one JSON line:
 * - `code`: the first problem's code (`ok` when the text imported);
 * - `cpuMs`: CPU milliseconds (user + system, so other work on the machine is not counted) of the
 *   median import, of as many as take at least 300 ms of CPU (at least 5), so that an import of a
 *   millisecond is measured as precisely as one of a second. Each import reads a fresh
 *   copy of the text, made outside the measurement: V8 caches some regular expressions' results per
 *   string, and a second import of the same string measured a fraction of the first;
 * - `peakGrowthMb`: how far the first import raised the process's peak resident memory above what it
 *   used just before, in MB (a fresh process: no earlier peak hides it).
 *
 * Usage: measure-import.ts <shape> <bytes>
 */
import { importText } from '../../src-shared/formats/index.ts';
import { hostileImport, hostileImportSource, type HostileImportShape } from '../../src-shared/formats/__fixtures__/hostile-imports.ts';

const [shape, bytes] = process.argv.slice(2) as [HostileImportShape, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const source = hostileImportSource(shape);
// Warm up on a small text of the same shape: the code is loaded and compiled before measuring.
for (let i = 0; i < 3; i += 1) importText(source, hostileImport(shape, 4096));
const text = hostileImport(shape, Number(bytes));
gc();
gc();
const before = process.memoryUsage().rss;
const first = importText(source, text);
// maxRSS is in KB: the highest resident memory of the process so far.
const peakGrowthMb = Math.max(0, process.resourceUsage().maxRSS * 1024 - before) / 1e6;
const code = first.ok ? 'ok' : first.errors[0]!.code;
const times: number[] = [];
let usedMs = 0;
while (times.length < 5 || usedMs < 300) {
  const copy = Buffer.from(text).toString();
  const started = process.cpuUsage();
  importText(source, copy);
  const used = process.cpuUsage(started);
  times.push((used.user + used.system) / 1000);
  usedMs += times[times.length - 1]!;
}
// The median import: a major collection of the heap that lands in one import is not its own cost.
times.sort((a, b) => a - b);
const cpuMs = times[Math.floor(times.length / 2)]!;
process.stdout.write(`${JSON.stringify({ code, cpuMs, runs: times.length, peakGrowthMb, chars: text.length })}\n`);
