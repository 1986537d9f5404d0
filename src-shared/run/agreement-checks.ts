/**
 * The two checks of a comparison. The engine check sets measured beside the rule: a full engine
 * agrees; a difference that dynalite's own rules reproduce is explained by its departures. The
 * model check sets the rule beside the prediction: a difference is explained when the sample's items
 * are bigger or smaller than the model's average, when a call read more or fewer items, or when a
 * write's item did or did not enter a sparse index.
 */
import type { Item } from '../capacity/index.ts';
import { READ_UNITS_PER_BLOCK } from '../capacity/index.ts';
import { formatNumber, formatUnits } from '../numbers/index.ts';
import { isQueryOrScan, isWrite, mean, round, sameUnits, sum, targetsOf, UNIT_TOLERANCE, type Context } from './agreement-context.ts';
import { chargedPages, indexWrite, itemsOfCall, meanFigure, NO_DEPARTURES, readFactor, utf16Size, utf8Size, type Departure, type SentCall } from './agreement-rule.ts';
import type { Cause, MeasuredCall } from './types.ts';

export interface Check {
  /** The two figures agree on every target. */
  isEqual: boolean;
  /** They agree, or every difference has a known cause. */
  isExplained: boolean;
  causes: Cause[];
}

/** dynalite's departures that can matter for this pattern, in the order causes are listed. */
function applicableDepartures(ctx: Context, calls: readonly SentCall[]): Departure[] {
  const found: Departure[] = [];
  const op = ctx.operation;
  if (isQueryOrScan(op)) found.push('emptyQuery');
  found.push('utf16');
  if (isWrite(op) && ctx.indexes.length > 0) found.push('indexWrites');
  if (isQueryOrScan(op)) found.push('pageCut');
  if (op === 'Scan' && calls.some(({ sent }) => readFactor(sent[0], ctx) !== READ_UNITS_PER_BLOCK.eventual)) found.push('scanConsistency');
  return found;
}

/** Subsets of `items`, smallest first (at most 2^5 here). */
function subsets<T>(items: readonly T[]): T[][] {
  const all: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask += 1) all.push(items.filter((_, i) => (mask & (1 << i)) !== 0));
  return all.sort((a, b) => a.length - b.length);
}

/** The engine check: what the engine measured against the rule, a difference explained by the fewest of dynalite's departures that reproduce it. */
export function checkEngine(measured: Record<string, number>, byRule: Record<string, number>, calls: readonly SentCall[], ctx: Context): Check {
  if (sameUnits(measured, byRule)) return { isEqual: true, isExplained: true, causes: [] };
  if (!ctx.isDynalite) return { isEqual: false, isExplained: false, causes: [] };
  const departures = applicableDepartures(ctx, calls);
  // The fewest of dynalite's departures that reproduce what it measured are the causes.
  for (const subset of subsets(departures)) {
    const figure = meanFigure(calls, ctx, new Set(subset));
    if (figure !== undefined && sameUnits(measured, figure)) {
      return { isEqual: false, isExplained: true, causes: subset.map((d) => departureCause(d, calls, ctx, byRule)) };
    }
  }
  // None reproduces it: list the departures that move the figure at all, but the difference stays unexplained.
  const moving = departures.filter((d) => {
    const figure = meanFigure(calls, ctx, new Set([d]));
    return figure !== undefined && !sameUnits(figure, byRule);
  });
  return { isEqual: false, isExplained: false, causes: moving.map((d) => departureCause(d, calls, ctx, byRule)) };
}

function departureCause(d: Departure, calls: readonly SentCall[], ctx: Context, byRule: Record<string, number>): Cause {
  switch (d) {
    case 'emptyQuery': {
      const empty = mean(calls.map((c) => countPages(c, ctx, (page) => page.length === 0)));
      const minimum = readFactor(calls[0]?.sent[0], ctx);
      return {
        code: 'dynalite.emptyQuery',
        text: `dynalite charges nothing for a ${ctx.operation} page that reads no items (its queryTable rounds 0 bytes to 0 units), where DynamoDB charges the minimum ${formatUnits(minimum)} RCU: ${formatNumber(empty)} such ${empty === 1 ? 'page' : 'pages'} per call.`,
      };
    }
    case 'utf16': {
      const items = calls.flatMap(({ call }) => chargedItems(call, ctx));
      const utf8 = sum(items.map(utf8Size)) / calls.length;
      const utf16 = sum(items.map(utf16Size)) / calls.length;
      return {
        code: 'dynalite.utf16',
        text: `dynalite sizes strings and attribute names by their UTF-16 length, not their UTF-8 bytes (its itemSize counts String.length), so the items of a call weigh ${formatNumber(utf16)} B there against ${formatNumber(utf8)} B by DynamoDB's rule.`,
      };
    }
    case 'indexWrites': {
      const without = meanFigure(calls, ctx, new Set(['indexWrites'])) ?? {};
      const parts = Object.entries(byRule)
        .map(([t, u]) => [t, u - (without[t] ?? 0)] as const)
        .filter(([, u]) => u > UNIT_TOLERANCE)
        .map(([t, u]) => `${formatUnits(round(u))} WCU on ${t === 'table' ? 'the table (its LSIs)' : t}`);
      return {
        code: 'dynalite.indexWrites',
        text: `dynalite reports no write units for secondary indexes (its addConsumedCapacity names the table only), where DynamoDB charges ${parts.length > 0 ? parts.join(' and ') : 'index writes'} per call for this write.`,
      };
    }
    case 'pageCut': {
      const engine = mean(calls.map((c) => countPages(c, { ...ctx, isDynalite: false }, () => true)));
      const dynamo = mean(calls.map((c) => countPages(c, ctx, () => true)));
      return {
        code: 'dynalite.pageCut',
        text: `dynalite ends a page at 1 MB of its own storage-format size (its queryTable), giving ${formatNumber(engine)} ${engine === 1 ? 'page' : 'pages'} per call where DynamoDB's 1 MB of item data gives ${formatNumber(dynamo)}; each page is rounded up to 4 KB on its own.`,
      };
    }
    case 'scanConsistency':
      return {
        code: 'dynalite.scanConsistency',
        text: `dynalite drops ConsistentRead from a Scan (its Scan validation does not take the parameter) and charges ${formatUnits(READ_UNITS_PER_BLOCK.eventual)} RCU per 4 KB, where a strongly consistent Scan costs ${formatUnits(READ_UNITS_PER_BLOCK.strong)} RCU.`,
      };
  }
}

/** Pages of a Query/Scan call, as DynamoDB cuts them (or the engine, for a full engine), that pass `test`. */
function countPages(c: SentCall, ctx: Context, test: (page: Item[]) => boolean): number {
  let n = 0;
  for (const [i, request] of c.call.requests.entries()) {
    const pages = chargedPages(request, c.sent[i] ?? c.sent.at(-1), ctx, NO_DEPARTURES) ?? [];
    n += pages.filter(test).length;
  }
  return n;
}

/** The items a call is charged on: those read, or for a write the larger of the item before and after. */
function chargedItems(call: MeasuredCall, ctx: Context): Item[] {
  if (!isWrite(ctx.operation)) return itemsOfCall(call) ?? [];
  return call.requests.flatMap((r) => {
    const before = r.before ?? null;
    const after = r.after ?? null;
    if (!before) return after ? [after] : [];
    if (!after) return [before];
    return [utf8Size(after) >= utf8Size(before) ? after : before];
  });
}

// Model check: the rule against the prediction

/** The model check: the rule against the prediction, a difference explained by the sample's item sizes, item counts or sparse-index shares. */
export function checkModel(byRule: Record<string, number>, predicted: Record<string, number>, calls: readonly SentCall[], ctx: Context): Check {
  const differing = targetsOf(byRule, predicted).filter((t) => Math.abs((byRule[t] ?? 0) - (predicted[t] ?? 0)) > UNIT_TOLERANCE);
  if (differing.length === 0) return { isEqual: true, isExplained: true, causes: [] };
  const prediction = ctx.pattern.prediction;
  const causes: Cause[] = [];
  let isExplained = prediction !== undefined;
  const unit = isWrite(ctx.operation) ? 'WCU' : 'RCU';

  const items = calls.flatMap(({ call }) => chargedItems(call, ctx));
  const meanBytes = items.length > 0 ? sum(items.map(utf8Size)) / items.length : undefined;
  const isSizeDifferent = prediction !== undefined && meanBytes !== undefined && Math.abs(meanBytes - prediction.averageItemBytes) >= 0.5;
  const itemsPerCall = mean(calls.map(({ call }) => sum(call.requests.flatMap((r) => r.pages.map((p) => p.scannedCount)))));
  const isCountDifferent = prediction !== undefined && !isWrite(ctx.operation) && Math.abs(itemsPerCall - prediction.itemsRead) > UNIT_TOLERANCE;

  for (const target of differing) {
    const rule = byRule[target] ?? 0;
    const model = predicted[target] ?? 0;
    const index = ctx.indexes.find((i) => i.kind === 'gsi' && i.name === target);
    if (isWrite(ctx.operation) && index && model > 0) {
      // A sparse index: the model spreads the writes that reach it over all writes; the sample's calls each did or did not.
      const members = calls.filter(({ call }) =>
        call.requests.some((r) => indexWrite(r.before ?? null, r.after ?? null, index, ctx.tableKeys, utf8Size).isMember),
      ).length;
      const isFractional = Math.abs(model - Math.round(model)) > UNIT_TOLERANCE;
      if (members < calls.length || isFractional) {
        causes.push({
          code: 'sample.sparseShare',
          text: `In the sample ${formatNumber(members)} of ${formatNumber(calls.length)} ${calls.length === 1 ? 'write' : 'writes'} reached sparse index ${target} (an item enters it only when it carries all of ${index.keyAttributes.join(', ')}), so ${target} averages ${formatUnits(rule)} ${unit} a call where the model predicts ${formatUnits(model)} ${unit}.`,
        });
        continue;
      }
    }
    // A target on one side only is no matter of size or count: the model and the engine charge different places.
    if (rule <= UNIT_TOLERANCE || model <= UNIT_TOLERANCE) {
      isExplained = false;
      continue;
    }
    if (!isSizeDifferent && !isCountDifferent) isExplained = false;
  }
  if (isSizeDifferent && prediction && meanBytes !== undefined) {
    causes.push({
      code: 'sample.itemSizes',
      text: `The sample's items average ${formatNumber(meanBytes, 0)} B where the model assumes ${formatNumber(prediction.averageItemBytes, 0)} B.`,
    });
  }
  if (isCountDifferent && prediction) {
    causes.push({
      code: 'sample.itemCount',
      text: `A call read ${formatNumber(itemsPerCall)} ${itemsPerCall === 1 ? 'item' : 'items'} on average where the model assumes ${formatNumber(prediction.itemsRead)}.`,
    });
  }
  return { isEqual: false, isExplained, causes };
}
