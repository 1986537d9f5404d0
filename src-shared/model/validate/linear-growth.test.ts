/**
 * Hostile designs cost linear time and give bounded output (issue 11). For each hostile shape, with
 * generated variants, `parseDesign` (the entry point of files, imports and the UI's raw-JSON editor,
 * which runs `validateDesign` as the UI does after every edit) reads the design at 128 KB, 256 KB,
 * 512 KB and 1 MB:
 * - each doubling of the input at most 2.5 × the output (the JSON length of the problems), plus a
 *   little slack for outputs of a few problems;
 * - the CPU time per input byte at 1 MB (up to the problems' JSON) at most 3 × that at 128 KB
 *   (quadratic work would make it 8 ×), best of three runs each, plus 40 ms of slack; CPU time, not
 *   wall time, so other work on a busy 2-core machine does not fail it.
 * Before the fix, the long-template and many-indexes shapes gave 4 × the output per doubling (a
 * 65 KB template: 1.4 GB of messages), and the placeholder and condition shapes 450 × their input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../validate.ts';
import { HOSTILE_SHAPES, hostileDesign, hostileDesignBytes, type HostileShape } from './__fixtures__/hostile-designs.ts';

// CPU milliseconds of this process (user + system); model's tests import only model (the layering rule).
const cpuNowMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const KB = 1024;
const SIZES = [128 * KB, 256 * KB, 512 * KB, 1024 * KB];
/** Output growth allowed per doubling of the input. */
const MAX_GROWTH = 2.5;
/** Slack on output growth, in bytes: the first problems of a shape can appear at any size. */
const OUTPUT_SLACK = 2 * KB;
/** Time per byte at 1 MB over time per byte at 128 KB. */
const MAX_TIME_PER_BYTE_RATIO = 3;
const TIME_SLACK_MS = 40;

interface Measure {
  inputBytes: number;
  outputBytes: number;
  ms: number;
}

function measure(shape: HostileShape, bytes: number, variant: number, runs: number): Measure {
  const design = hostileDesign(shape, bytes, variant);
  const inputBytes = hostileDesignBytes(design);
  let ms = Infinity;
  let outputBytes = 0;
  for (let r = 0; r < runs; r += 1) {
    // Timed up to the output's JSON, as the CLI and the IPC transport write it.
    const start = cpuNowMs();
    const result = parseDesign(design);
    outputBytes = result.ok ? 0 : JSON.stringify(result.errors).length;
    ms = Math.min(ms, cpuNowMs() - start);
  }
  return { inputBytes, outputBytes, ms };
}

describe('validation of hostile designs up to 1 MB', () => {
  it.each(HOSTILE_SHAPES)('%s: output and time grow at most linearly', (shape) => {
    fc.assert(
      fc.property(fc.nat({ max: 40 }), (variant) => {
        const measures = SIZES.map((bytes, i) => measure(shape, bytes, variant, i === 0 || i === SIZES.length - 1 ? 3 : 1));
        for (let i = 1; i < measures.length; i += 1) {
          const [small, large] = [measures[i - 1] as Measure, measures[i] as Measure];
          // Inputs double (within a few percent); the output may grow by the input's factor × 2.5 / 2.
          const inputGrowth = large.inputBytes / small.inputBytes;
          expect(inputGrowth).toBeGreaterThan(1.6);
          expect(large.outputBytes, `${shape} ${JSON.stringify(measures)}`).toBeLessThanOrEqual((MAX_GROWTH / 2) * inputGrowth * small.outputBytes + OUTPUT_SLACK);
        }
        const first = measures[0] as Measure;
        const last = measures[measures.length - 1] as Measure;
        const allowedMs = MAX_TIME_PER_BYTE_RATIO * (first.ms / first.inputBytes) * last.inputBytes + TIME_SLACK_MS;
        expect(last.ms, `${shape} ${JSON.stringify(measures)}`).toBeLessThanOrEqual(allowedMs);
      }),
      { numRuns: 2 },
    );
  });

  it('the original crafted design, an 80 KB key template, gives one short problem (it gave gigabytes)', () => {
    // 27,307 × "{x}" is 81,921 bytes: with one problem per placeholder, each quoting the whole
    // template, validation built 27,307 × 80 KB of messages and died with "Invalid string length".
    const design = hostileDesign('longTemplate', 80 * KB, 0);
    const result = parseDesign(design);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.errors;
    expect(problems.map((p) => p.code)).toEqual(['keyTemplate.tooLong']);
    expect(JSON.stringify(problems).length).toBeLessThan(1000);
  });
});
