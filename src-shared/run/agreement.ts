/**
 * Measured against predicted: one pattern's measurements judged against Keyplan's prediction.
 *
 * Three figures per target (`table`, or a GSI's name; an LSI's units count on the table):
 * - measured: what the engine reported in ConsumedCapacity, mean per successful call;
 * - by rule: DynamoDB's own rule applied to the items the engine actually read or wrote;
 * - predicted: the model's figure, computed from average item sizes and counts.
 *
 * More on its rules: docs/modules.md, "src-shared/run/agreement.ts".
 */
import { checkEngine, checkModel } from './agreement-checks.ts';
import { add, contextOf, foldTarget, isWrite, mean, meanRecord, positive, round, sameUnits, sum, type Context } from './agreement-context.ts';
import { meanFigure, NO_DEPARTURES } from './agreement-rule.ts';
import type { Agreement, Cause, EngineCapabilities, Latency, MeasuredCall, PatternMeasurement, PatternReport, PatternRun, RunTable, AgreementOptions } from './types.ts';
export type { AgreementOptions } from './types.ts';

export { UNIT_TOLERANCE } from './agreement-context.ts';

/** The known causes of a difference, as `Cause.code` carries them. */
export type CauseCode =
  /** dynalite charges nothing for a Query/Scan page that read nothing. */
  | 'dynalite.emptyQuery'
  /** dynalite sizes strings and names in UTF-16 code units. */
  | 'dynalite.utf16'
  /** dynalite reports no write units for secondary indexes. */
  | 'dynalite.indexWrites'
  /** dynalite ends a Query/Scan page at 1 MB of its own storage-format size. */
  | 'dynalite.pageCut'
  /** dynalite's Scan ignores ConsistentRead. */
  | 'dynalite.scanConsistency'
  /** The sample's items are not of the model's average size. */
  | 'sample.itemSizes'
  /** A call read more or fewer items than the model assumes. */
  | 'sample.itemCount'
  /** A write's item entered a sparse index more or less often than the model assumes. */
  | 'sample.sparseShare';

/** Every agreement, in the order a summary lists them. */
const AGREEMENTS: readonly Agreement[] = ['agrees', 'explained', 'unexplained', 'notRun', 'failed'];

/**
 * Counts reports by agreement; every agreement is a key, 0 when no report has it.
 */
export function summarize(reports: readonly PatternReport[]): Record<Agreement, number> {
  const summary = Object.fromEntries(AGREEMENTS.map((a) => [a, 0])) as Record<Agreement, number>;
  for (const r of reports) summary[r.agreement] += 1;
  return summary;
}

/**
 * Judges one pattern: its measured means per successful call, DynamoDB's rule applied to what the
 * engine read or wrote, and the agreement with the prediction with every known cause of a
 * difference. A skipped pattern is `notRun` (message: why); a pattern without a measurement or whose
 * every call failed is `failed` (message: the engine's first error). Units are capacity units per call.
 */
export function comparePattern(pattern: PatternRun, measurement: PatternMeasurement | undefined, options: AgreementOptions): PatternReport {
  const base = {
    patternId: pattern.patternId,
    name: pattern.name,
    kind: pattern.kind,
    operation: pattern.operation,
    target: pattern.target,
    ...(pattern.prediction ? { predicted: pattern.prediction } : {}),
    notes: [...pattern.notes],
    causes: [] as Cause[],
  };
  if (pattern.skipped !== undefined) return { ...base, agreement: 'notRun', message: pattern.skipped, requests: [] };

  const requests = pattern.calls[0]?.requests ?? [];
  const calls = (measurement?.calls ?? []).map((call, index) => ({ call, sent: pattern.calls[index]?.requests ?? requests }));
  const succeeded = calls.filter(({ call }) => !call.requests.some((r) => r.error !== undefined));
  if (succeeded.length === 0) {
    const firstError = calls.flatMap(({ call }) => call.requests).find((r) => r.error !== undefined)?.error;
    return { ...base, agreement: 'failed', message: firstError ?? 'The run recorded no measurement for this pattern.', requests };
  }

  const ctx = contextOf(pattern, options);
  const measured = measure(succeeded.map(({ call }) => call), ctx);
  const byRule = meanFigure(succeeded, ctx, NO_DEPARTURES);
  const predicted = positive(pattern.prediction?.units ?? {});

  if (byRule === undefined) {
    // The engine did not say what it read (no witness items, no before/after): only measured against predicted.
    return { ...base, agreement: sameUnits(measured.units, predicted) ? 'agrees' : 'unexplained', measured, requests };
  }

  const engine = checkEngine(measured.units, byRule, succeeded, ctx);
  const model = checkModel(byRule, predicted, succeeded, ctx);
  const causes = mergeCauses([...engine.causes, ...model.causes]);
  const agreement: Agreement =
    engine.isEqual && model.isEqual && sameUnits(measured.units, predicted)
      ? 'agrees'
      : engine.isExplained && model.isExplained
        ? 'explained'
        : 'unexplained';
  return { ...base, agreement, measured, byRule: { units: byRule, total: round(sum(Object.values(byRule))) }, causes, requests };
}

/** The engine's measurement: means per successful call, units by target (an LSI's folded into the table's). */
function measure(calls: readonly MeasuredCall[], ctx: Context): NonNullable<PatternReport['measured']> {
  const perCall = calls.map((call) => {
    const units: Record<string, number> = {};
    let total = 0;
    let itemsRead = 0;
    let itemsReturned = 0;
    let pages = 0;
    for (const request of call.requests) {
      for (const page of request.pages) {
        const targets = Object.entries(page.byTarget);
        // An engine that names no target charged the whole request to the pattern's own target.
        if (targets.length === 0 && page.capacityUnits > 0) add(units, isWrite(ctx.operation) ? 'table' : ctx.readTarget, page.capacityUnits);
        for (const [target, u] of targets) add(units, foldTarget(ctx, target), u);
        total += page.capacityUnits;
        itemsRead += page.scannedCount;
        itemsReturned += page.count;
        pages += 1;
      }
    }
    return { units, total, itemsRead, itemsReturned, pages, requests: call.requests.length };
  });
  const latencies = calls.flatMap((c) => c.requests.flatMap((r) => r.pages.map((p) => p.latencyMs)));
  return {
    units: positive(meanRecord(perCall.map((c) => c.units))),
    total: mean(perCall.map((c) => c.total)),
    itemsRead: mean(perCall.map((c) => c.itemsRead)),
    itemsReturned: mean(perCall.map((c) => c.itemsReturned)),
    pages: mean(perCall.map((c) => c.pages)),
    requests: mean(perCall.map((c) => c.requests)),
    latency: latencyOf(latencies),
    calls: calls.length,
  };
}

/** Nearest-rank percentiles: the value at rank ceil(p × n) of the sorted latencies; 0 for none. */
function latencyOf(values: readonly number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => (sorted.length === 0 ? 0 : (sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1] ?? 0));
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/** One cause per code (the screen keys causes by code); texts of the same code are joined. */
function mergeCauses(causes: readonly Cause[]): Cause[] {
  const byCode = new Map<string, string[]>();
  for (const c of causes) {
    const texts = byCode.get(c.code) ?? [];
    if (!texts.includes(c.text)) texts.push(c.text);
    byCode.set(c.code, texts);
  }
  return [...byCode].map(([code, texts]) => ({ code, text: texts.join(' ') }));
}
