/**
 * `keyplan cost <design>`: every access pattern planned and priced (capacity units per request,
 * dollars per month on-demand and provisioned, a Scan doing the same job beside it), the table and
 * GSI totals, and the warnings a reviewer looks for. The numbers come from `costDesign`, the same
 * code as the app's costs screen; this file only formats them.
 */
import { formatNumber } from '../../src-shared/capacity/index.ts';
import {
  configuredCapacityText,
  costDesign,
  type DesignCost,
  type PatternCost,
  type TableCost,
  type TargetCost,
} from '../../src-shared/costing/index.ts';
import {
  averageRatePerSecond,
  busiestRatePerSecond,
  type AccessPattern,
  type AverageSource,
  type Design,
  type ProvisionedThroughput,
} from '../../src-shared/model/index.ts';
import type { Command } from './command.ts';
import { EXIT, writeJson, writeLines } from './io.ts';
import { readValidDesign } from './input.ts';
import { indexOf, operationText, targetText } from './plan-text.ts';
import { explainFigure, formatBytes, formatUsd, jsonNumber, renderTable } from './text.ts';

/** One access pattern in `keyplan cost --json`. */
export interface PatternCostJson {
  table: string;
  id: string;
  name: string;
  kind: 'read' | 'write';
  operation: string;
  badge: string;
  /** The GSI or LSI name; null for the table itself. */
  index: string | null;
  /** Null for a Scan. */
  keyCondition: string | null;
  served: boolean;
  /** Why the pattern is not costed yet (no entity, or no key templates): its figures are 0. */
  needsKeyDesign: string | null;
  rcuPerRequest: number | null;
  wcuPerRequest: number | null;
  /** The peak: requests per second in the pattern's busiest minute (spikes included), which sizes capacity (docs/traffic.md). */
  requestsPerSecond: number | null;
  /** The average over a day, which prices on-demand requests: stated, from the profile and spikes, or the peak when neither is given. */
  averageRequestsPerSecond: number | null;
  averageSource: AverageSource;
  rcuPerSecond: number | null;
  wcuPerSecond: number | null;
  monthlyUsd: { onDemand: number | null; provisioned: number | null };
  /** Reads: a Scan of the whole table doing the same job (for a Scan-served pattern, its own cost). Writes: null. */
  scan: { rcuPerRequest: number | null; ratio: number | null } | null;
}

/** The table or one GSI in `keyplan cost --json`. */
export interface TargetCostJson {
  name: string;
  kind: 'table' | 'gsi';
  rcuPerSecond: number | null;
  wcuPerSecond: number | null;
  /**
   * The capacity held and billed each hour: for a provisioned table the configured units, or what
   * auto scaling holds for the load; for an on-demand table, exactly the load in whole units (a what-if).
   */
  billed: { rcu: number; wcu: number };
  /** `billed` priced per month: for a provisioned table, its bill. */
  provisionedMonthlyUsd: number | null;
  /** The whole units (at least 1) the load alone needs. */
  loadNeeds: { rcu: number; wcu: number };
  /** `loadNeeds` priced per month. */
  loadOnlyMonthlyUsd: number | null;
  storageBytes: number | null;
  /** What the design provisions (with its auto scaling, if any), when the table is provisioned; else null. */
  configured: ProvisionedThroughput | null;
}

/** What `keyplan cost --json` prints. */
export interface CostJson {
  design: string;
  /** `freeStorageGb`: the free storage subtracted from the Standard tables' total (0 unless the design's prices set it). */
  pricing: { region: string; source: string | null; freeStorageGb: number };
  patterns: PatternCostJson[];
  tables: {
    name: string;
    billingMode: 'ON_DEMAND' | 'PROVISIONED';
    tableClass: string;
    targets: TargetCostJson[];
    /**
     * Per month: requests on-demand; provisioned capacity (a provisioned table's bill, or for an
     * on-demand one exactly the load); what the load alone would need provisioned. Storage is in the totals.
     */
    monthlyUsd: { onDemandRequests: number | null; provisionedCapacity: number | null; loadOnlyCapacity: number | null };
    storageBytes: number | null;
  }[];
  totals: {
    rcuPerSecond: number | null;
    wcuPerSecond: number | null;
    storageBytes: number | null;
    /** `onDemand` = requests + storage; `provisioned` = capacity + storage. */
    monthlyUsd: { onDemand: number | null; provisioned: number | null; storage: number | null };
  };
  warnings: { code: string; severity: 'error' | 'warning'; table: string; patternId: string | null; message: string }[];
}

function patternJson(table: TableCost, cost: PatternCost, pattern: AccessPattern | undefined): PatternCostJson {
  const requestsPerSecond = pattern ? busiestRatePerSecond(pattern) : NaN;
  const average = pattern ? averageRatePerSecond(pattern) : { value: NaN, source: 'peak' as const };
  const { plan } = cost;
  const isRead = cost.kind === 'read';
  const scanRequest = isRead ? (cost.scan?.perRequest.value ?? cost.perRequest.value) : undefined;
  return {
    table: table.name,
    id: cost.patternId,
    name: cost.name,
    kind: cost.kind,
    operation: plan.operation,
    badge: plan.badge,
    index: indexOf(plan.target),
    keyCondition: plan.keyCondition ?? null,
    served: plan.isServed,
    needsKeyDesign: plan.needsKeyDesign ?? null,
    rcuPerRequest: jsonNumber(isRead ? cost.perRequest.value : 0),
    wcuPerRequest: jsonNumber(isRead ? 0 : cost.perRequest.value),
    requestsPerSecond: jsonNumber(requestsPerSecond),
    averageRequestsPerSecond: jsonNumber(average.value),
    averageSource: average.source,
    rcuPerSecond: jsonNumber(isRead ? cost.perSecond.value : 0),
    wcuPerSecond: jsonNumber(isRead ? 0 : cost.perSecond.value),
    monthlyUsd: { onDemand: jsonNumber(cost.monthly.onDemand.value), provisioned: jsonNumber(cost.monthly.provisioned.value) },
    scan: scanRequest === undefined ? null : { rcuPerRequest: jsonNumber(scanRequest), ratio: jsonNumber(cost.scan?.ratio ?? 1) },
  };
}

function targetJson(t: TargetCost): TargetCostJson {
  return {
    name: t.name,
    kind: t.kind,
    rcuPerSecond: jsonNumber(t.readUnitsPerSecond.value),
    wcuPerSecond: jsonNumber(t.writeUnitsPerSecond.value),
    billed: { rcu: t.billed.readCapacityUnits, wcu: t.billed.writeCapacityUnits },
    provisionedMonthlyUsd: jsonNumber(t.provisionedMonthly.value),
    loadNeeds: { rcu: t.loadNeeds.readCapacityUnits, wcu: t.loadNeeds.writeCapacityUnits },
    loadOnlyMonthlyUsd: jsonNumber(t.loadOnlyMonthly.value),
    storageBytes: jsonNumber(t.storageBytes.value),
    configured: t.configured ?? null,
  };
}

const patternAt = (design: Design, tableIndex: number, patternIndex: number): AccessPattern | undefined => design.tables[tableIndex]?.accessPatterns[patternIndex];

/** `keyplan cost --json` for a costed design. */
export function costJson(design: Design, cost: DesignCost): CostJson {
  const targets = cost.tables.flatMap((t) => t.targets);
  return {
    design: design.name,
    pricing: { region: cost.pricing.region, source: cost.pricing.source ?? null, freeStorageGb: cost.pricing.tableClasses.STANDARD.freeStorageGb },
    patterns: cost.tables.flatMap((t, ti) => t.patterns.map((p, pi) => patternJson(t, p, patternAt(design, ti, pi)))),
    tables: cost.tables.map((t, ti) => ({
      name: t.name,
      billingMode: design.tables[ti]!.billing.mode,
      tableClass: t.tableClass,
      targets: t.targets.map(targetJson),
      monthlyUsd: {
        onDemandRequests: jsonNumber(t.onDemandMonthly.value),
        provisionedCapacity: jsonNumber(t.provisionedMonthly.value),
        loadOnlyCapacity: jsonNumber(t.loadOnlyMonthly.value),
      },
      storageBytes: jsonNumber(t.storageBytes.value),
    })),
    totals: {
      rcuPerSecond: jsonNumber(targets.reduce((s, t) => s + t.readUnitsPerSecond.value, 0)),
      wcuPerSecond: jsonNumber(targets.reduce((s, t) => s + t.writeUnitsPerSecond.value, 0)),
      storageBytes: jsonNumber(cost.tables.reduce((s, t) => s + t.storageBytes.value, 0)),
      monthlyUsd: {
        onDemand: jsonNumber(cost.onDemandMonthly.value),
        provisioned: jsonNumber(cost.provisionedMonthly.value),
        storage: jsonNumber(cost.storageMonthly.value),
      },
    },
    warnings: cost.tables.flatMap((t) =>
      t.warnings.map((w) => ({ code: w.code, severity: w.severity, table: t.name, patternId: w.patternId ?? null, message: w.message })),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Text

const units = (n: number, unit: string): string => `${formatNumber(n, 2)} ${unit}`;
const className = (c: string): string => (c === 'STANDARD' ? 'Standard' : 'Standard-IA');

function patternRows(json: CostJson, table: string): string[][] {
  return json.patterns
    .filter((p) => p.table === table)
    .map((p) => [
      p.needsKeyDesign !== null ? `${p.name} (needs a key design)` : p.served ? p.name : `${p.name} (UNSERVED)`,
      p.operation,
      p.index ?? 'table',
      p.kind === 'read' ? formatNumber(p.rcuPerRequest ?? NaN, 2) : '-',
      p.kind === 'write' ? formatNumber(p.wcuPerRequest ?? NaN, 2) : '-',
      formatNumber(p.requestsPerSecond ?? NaN, 2),
      formatNumber(p.averageRequestsPerSecond ?? NaN, 2),
      formatUsd(p.monthlyUsd.onDemand ?? NaN),
      formatUsd(p.monthlyUsd.provisioned ?? NaN),
      p.scan ? formatNumber(p.scan.rcuPerRequest ?? NaN, 2) : '-',
      p.keyCondition ?? (p.operation === 'Scan' ? '(Scan: none)' : ''),
    ]);
}

const capacityText = (c: { rcu: number; wcu: number }): string => `${formatNumber(c.rcu)} RCU, ${formatNumber(c.wcu)} WCU`;

function targetRows(table: CostJson['tables'][number]): string[][] {
  return table.targets.map((t) => [
    t.kind === 'table' ? 'table' : `GSI ${t.name}`,
    units(t.rcuPerSecond ?? NaN, 'RCU/s'),
    units(t.wcuPerSecond ?? NaN, 'WCU/s'),
    t.configured ? configuredCapacityText(t.configured) : 'on-demand',
    t.configured ? capacityText(t.billed) : '-',
    formatUsd(t.provisionedMonthlyUsd ?? NaN),
    capacityText(t.loadNeeds),
    formatUsd(t.loadOnlyMonthlyUsd ?? NaN),
    formatBytes(t.storageBytes ?? NaN),
  ]);
}

/**
 * What was subtracted from the stored GB: AWS's free storage is per account and Region, shared by
 * all tables (https://aws.amazon.com/dynamodb/pricing/), so a design subtracts it only when its
 * prices say so.
 */
function freeStorageText(freeGb: number): string {
  if (freeGb > 0) return `less ${formatNumber(freeGb)} GB free (set in the design's prices)`;
  return "no free storage subtracted (AWS's 25 GB free tier is per account and Region; set freeStorageGb in the design's prices if these are its only tables)";
}

/** What the provisioned capacity total rests on: provisioned tables as configured, on-demand ones at exactly their load. */
function capacityBasis(json: CostJson): string {
  const modes = new Set(json.tables.map((t) => t.billingMode));
  if (!modes.has('PROVISIONED')) return ' (exactly the load)';
  return modes.has('ON_DEMAND') ? ' (provisioned tables as configured, on-demand ones at exactly their load)' : ' (as configured)';
}

function readable(file: string, json: CostJson): string[] {
  const lines = [`Costs of "${json.design}" (${file}) at ${json.pricing.region} prices: on-demand requests priced from each pattern's average rate, capacity sized from its peak (docs/traffic.md)`];
  for (const table of json.tables) {
    lines.push('', `Table ${table.name} (${table.billingMode === 'ON_DEMAND' ? 'on-demand' : 'provisioned'}, ${className(table.tableClass)})`);
    const header = ['Access pattern', 'Operation', 'Index', 'RCU/req', 'WCU/req', 'Peak/s', 'Avg/s', 'On-demand/mo', 'Provisioned/mo', 'Scan RCU/req', 'Key condition'];
    const align = ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'] as const;
    const rows = patternRows(json, table.name);
    lines.push(...(rows.length === 0 ? ['  No access patterns.'] : renderTable(header, rows, align, '  ')));
    lines.push('');
    lines.push(
      ...renderTable(
        ['Capacity', 'Reads', 'Writes', 'Configured', 'Held (billed)', 'Provisioned/month', 'Load alone needs', 'Load alone/month', 'Storage'],
        targetRows(table),
        ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
        '  ',
      ),
    );
    const m = table.monthlyUsd;
    lines.push(
      table.billingMode === 'PROVISIONED'
        ? `  Per month: ${formatUsd(m.provisionedCapacity ?? NaN)} of provisioned capacity as configured (the load alone would need ${formatUsd(m.loadOnlyCapacity ?? NaN)}), or ${formatUsd(m.onDemandRequests ?? NaN)} of requests on-demand`
        : `  Per month: ${formatUsd(m.onDemandRequests ?? NaN)} of requests on-demand, or ${formatUsd(m.provisionedCapacity ?? NaN)} of provisioned capacity for exactly this load`,
    );
  }
  const m = json.totals.monthlyUsd;
  const storage = formatUsd(m.storage ?? NaN);
  const requests = formatUsd(json.tables.reduce((s, t) => s + (t.monthlyUsd.onDemandRequests ?? NaN), 0));
  const capacity = formatUsd(json.tables.reduce((s, t) => s + (t.monthlyUsd.provisionedCapacity ?? NaN), 0));
  lines.push(
    '',
    'Totals per month',
    ...renderTable(
      ['', '', ''],
      [
        ['On-demand', formatUsd(m.onDemand ?? NaN), `requests ${requests} + storage ${storage}`],
        ['Provisioned', formatUsd(m.provisioned ?? NaN), `capacity ${capacity}${capacityBasis(json)} + storage ${storage}`],
        ['Storage', storage, `${formatBytes(json.totals.storageBytes ?? NaN)} stored (items and index entries, 100 B overhead each), ${freeStorageText(json.pricing.freeStorageGb)}`],
      ],
      ['left', 'right', 'left'],
      '  ',
    ).slice(1),
  );
  if (json.warnings.length > 0) {
    lines.push('', `Warnings (${json.warnings.length})`);
    for (const w of json.warnings) lines.push(`  ${w.severity === 'error' ? 'error  ' : 'warning'}  ${w.code}: ${w.message}`);
  }
  return lines;
}

function explanation(design: Design, cost: DesignCost): string[] {
  const lines = ['', 'How each number is derived'];
  cost.tables.forEach((table, ti) => {
    table.patterns.forEach((p, pi) => {
      const pattern = patternAt(design, ti, pi);
      const rate = pattern ? busiestRatePerSecond(pattern) : NaN;
      const average = pattern ? averageRatePerSecond(pattern).value : NaN;
      lines.push('', `${p.name} (${p.patternId}): ${operationText(p.plan)}${p.plan.keyCondition ? `, ${p.plan.keyCondition}` : ''}`);
      lines.push(`  ${p.plan.explanation}`);
      for (const a of p.plan.assumptions) lines.push(`  (assumes) ${a}`);
      lines.push(`  ${p.kind === 'read' ? 'Read' : 'Write'} units at the peak, ${formatNumber(rate)} requests/s (sizes capacity)`, ...explainFigure(p.perSecond, '    '));
      lines.push(`  On-demand per month, priced from the average rate ${formatNumber(average)} requests/s`, ...explainFigure(p.monthly.onDemand, '    '));
      lines.push('  Provisioned per month (this load\'s share of capacity)', ...explainFigure(p.monthly.provisioned, '    '));
      if (p.scan) {
        lines.push(`  A Scan instead: ${formatNumber(p.scan.perRequest.value)} RCU per request, ${formatNumber(p.scan.ratio, 1)} × this plan's (a Scan's derivation follows the patterns)`);
      }
    });
    const withScan = table.patterns.find((p) => p.scan);
    if (withScan?.scan) {
      const consistency = withScan.plan.consistency === 'eventual' ? 'eventually consistent' : 'strongly consistent, twice the eventual';
      lines.push('', `A Scan of table ${table.name}, per request (${consistency})`, ...explainFigure(withScan.scan.perRequest, '  '));
    }
    for (const t of table.targets) {
      const where = `Table ${table.name}, ${t.kind === 'table' ? 'the table' : targetText({ kind: 'gsi', name: t.name })}`;
      if (t.configured) {
        lines.push('', `${where}: provisioned per month, the capacity it holds`, ...explainFigure(t.provisionedMonthly, '  '));
        lines.push('', `${where}: what the load alone would need per month`, ...explainFigure(t.loadOnlyMonthly, '  '));
      } else {
        lines.push('', `${where}: provisioned per month, exactly the load`, ...explainFigure(t.provisionedMonthly, '  '));
      }
    }
  });
  lines.push('', 'Storage per month', ...explainFigure(cost.storageMonthly, '  '));
  lines.push('', 'On-demand per month', ...explainFigure(cost.onDemandMonthly, '  '));
  lines.push('', 'Provisioned per month', ...explainFigure(cost.provisionedMonthly, '  '));
  return lines;
}

export const costCommand: Command = {
  name: 'cost',
  synopsis: 'keyplan cost <design> [--json] [--explain]',
  summary: 'capacity units and monthly dollars per access pattern, with totals',
  fileName: '<design>',
  flags: ['--json', '--explain'],
  help: `Usage: keyplan cost <design> [--json] [--explain]

Plans every access pattern of a design file (*.keyplan.json) and prices it: read or write units per
request, requests per second, dollars per month on-demand and provisioned (the load's share), and
the read units a Scan doing the same job would take. Then the table and each GSI: units per second,
the capacity configured and held, its cost per month, what the load alone would need, and storage;
and the totals per month. A provisioned table is billed for the capacity it holds whatever the load:
as configured, or with auto scaling clamp(ceil(load / target), min, max); its totals use that. An
on-demand table's provisioned figure is a what-if: exactly its load, in whole units. Prices are the
design's own, or us-east-1's. Each pattern runs at its rate all month (its peak rate: an average
rate gives a lower cost).

The design must be valid: run "keyplan check" to see its problems.

Options:
  --json     print {"design", "pricing": {"region", "source", "freeStorageGb"}, "patterns": [{"table", "id", "name", "kind", "operation",
             "badge", "index" (null: the table), "keyCondition" (null: a Scan), "served",
             "rcuPerRequest", "wcuPerRequest", "requestsPerSecond", "rcuPerSecond", "wcuPerSecond",
             "monthlyUsd": {"onDemand", "provisioned"}, "scan": {"rcuPerRequest", "ratio"} (null for
             writes)}], "tables": [{"name", "billingMode", "tableClass", "targets": [{"name",
             "kind", "rcuPerSecond", "wcuPerSecond", "configured", "billed": {"rcu", "wcu"},
             "provisionedMonthlyUsd", "loadNeeds": {"rcu", "wcu"}, "loadOnlyMonthlyUsd",
             "storageBytes"}], "monthlyUsd": {"onDemandRequests", "provisionedCapacity",
             "loadOnlyCapacity"}, "storageBytes"}], "totals": {"rcuPerSecond",
             "wcuPerSecond", "storageBytes", "monthlyUsd": {"onDemand", "provisioned", "storage"}},
             "warnings": [{"code", "severity", "table", "patternId", "message"}]}
             Totals: onDemand = requests + storage, provisioned = capacity + storage.
  --explain  also print how each number is derived, with the assumptions behind it (text only)
  -h, --help print this help

Exit codes: 0 the design was priced (warnings such as a Scan or a hot partition are printed, and do
not fail it: "keyplan check" is the gate); 1 the file cannot be read, is not a Keyplan design, or
has problems; 2 usage error.

Example:
  keyplan cost examples/ecommerce.keyplan.json
  keyplan cost examples/ecommerce.keyplan.json --json | jq '.totals.monthlyUsd'`,

  async run({ file, flags }, io) {
    const input = await readValidDesign(file, io.cwd, 'price the design');
    if (!input.ok) {
      writeLines(io.stderr, input.errors);
      return EXIT.problems;
    }
    const cost = costDesign(input.value);
    const json = costJson(input.value, cost);
    if (flags.has('--json')) {
      writeJson(io.stdout, json);
      return EXIT.ok;
    }
    writeLines(io.stdout, readable(file, json));
    if (flags.has('--explain')) writeLines(io.stdout, explanation(input.value, cost));
    return EXIT.ok;
  },
};
