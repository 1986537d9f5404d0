/**
 * Dollars: on-demand requests, provisioned capacity and storage, from a `Pricing` the user can see
 * and change (https://aws.amazon.com/dynamodb/pricing/). Prices are data passed in, never constants inside the formulas;
 * `DEFAULT_PRICING` is only the starting point a new design gets.
 */
import type { AutoScalingRange, Pricing, TableClass, TableClassPricing } from '../model/index.ts';
import { figure, formatNumber, lazyFigure, type Figure, type Step } from './figure.ts';
import { AWS_DOCS } from './sources.ts';
import { formatUsdExact } from '../numbers/index.ts';

/** Hours in a billing month as AWS's pricing examples count them (365 × 24 / 12). */
export const HOURS_PER_MONTH = 730;

/** Bytes in a GB: DynamoDB measures sizes in binary units (1 GB = 1,024 MB). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html */
export const BYTES_PER_GB = 1_073_741_824;

/** Seconds in an hour, to turn per-second request rates into monthly request counts. */
export const SECONDS_PER_HOUR = 3600;

/**
 * Provisioned capacity can not go below 1 RCU and 1 WCU, per table and per GSI.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html
 */
export const MIN_PROVISIONED_UNITS = 1;

const PRICING_SOURCE = AWS_DOCS.pricing;

/** Provisioned capacity prices: per RCU-hour and WCU-hour, billed for what is provisioned each hour. */
export const PROVISIONED_PRICING_URL = AWS_DOCS.provisionedPricing;
/** Provisioned capacity mode: the table or GSI serves (and is billed for) the capacity you set. */
export const PROVISIONED_MODE_URL = AWS_DOCS.provisionedMode;
/** Auto scaling: target tracking keeps consumed ÷ provisioned near the target, within a minimum and a maximum. */
export const AUTO_SCALING_URL = AWS_DOCS.autoScaling;

/**
 * us-east-1 prices (https://aws.amazon.com/dynamodb/pricing/). Standard: on-demand $0.625 per million WRU and $0.125 per million
 * RRU (effective 2024-11-01), provisioned $0.00065 per WCU-hour and $0.00013 per RCU-hour, storage
 * $0.25 per GB-month. No free storage is subtracted by default: AWS's 25 GB free tier is per account
 * and Region, shared by every table there, so one design cannot claim it; a user whose account holds
 * only this design sets it on Costs (Prices, "Free storage, GB"), and a file that stores an amount keeps
 * it. Standard-IA figures are estimates: throughput 1.25 × Standard, storage $0.10 per GB-month, and
 * no free storage (the free tier names the Standard table class). Check them against https://aws.amazon.com/dynamodb/pricing/ before relying on them.
 */
export const DEFAULT_PRICING: Pricing = {
  region: 'us-east-1',
  hoursPerMonth: HOURS_PER_MONTH,
  bytesPerGb: BYTES_PER_GB,
  tableClasses: {
    STANDARD: {
      writeRequestUnitUsdPerMillion: 0.625,
      readRequestUnitUsdPerMillion: 0.125,
      writeCapacityUnitUsdPerHour: 0.00065,
      readCapacityUnitUsdPerHour: 0.00013,
      storageUsdPerGbMonth: 0.25,
      freeStorageGb: 0,
    },
    STANDARD_INFREQUENT_ACCESS: {
      writeRequestUnitUsdPerMillion: 0.78,
      readRequestUnitUsdPerMillion: 0.156,
      writeCapacityUnitUsdPerHour: 0.00081,
      readCapacityUnitUsdPerHour: 0.00016,
      storageUsdPerGbMonth: 0.1,
      freeStorageGb: 0,
    },
  },
  source:
    'us-east-1 as of 2024-11 (secondary sources); Standard-IA throughput is estimated as 1.25 × Standard and its storage at $0.10 per GB-month.',
};

/** Assumptions the dollar figures rest on, shown beside them. */
export const PRICING_ASSUMPTIONS = {
  defaultPrices: 'Prices are the defaults for us-east-1 (https://aws.amazon.com/dynamodb/pricing/), from secondary sources: check them against the AWS pricing page.',
  infrequentAccess: 'Standard-IA prices are estimates: throughput 1.25 × Standard, storage $0.10 per GB-month (AWS publishes Standard-IA storage as up to 60 % cheaper).',
  provisionedRounding:
    'Provisioned capacity is the per-second units needed, rounded up to whole units, at least 1, with no headroom for peaks or auto scaling.',
  noFreeCapacity: 'The free tier of 25 RCU and 25 WCU (provisioned, per Region) is not subtracted.',
  autoScalingSettled:
    'Auto scaling is taken as settled at the steady load: it holds load ÷ target utilization in whole units, within its minimum and maximum. Scaling up lags the load by minutes and scaling down is limited per day, so a spiky load holds more.',
  freeStorageShared: 'The free storage is per account and Region, shared by all tables: subtract it once, from the total.',
  noFreeStorage:
    "No free storage is subtracted: AWS's free tier of 25 GB (Standard tables) is per account and Region, shared by all the account's tables there, so it is not taken for this design alone. If this design's tables are the only ones, set Costs → Prices → Free storage, GB to 25.",
} as const;

/**
 * Dollar amounts are rounded to 1e-10 USD so binary floating point does not show through
 * (100 × 730 × 0.00065 is 47.449999999999996 in IEEE 754).
 */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}


function classPricing(pricing: Pricing, tableClass: TableClass): TableClassPricing {
  return pricing.tableClasses[tableClass];
}

const PRICE_FIELDS = [
  'writeRequestUnitUsdPerMillion',
  'readRequestUnitUsdPerMillion',
  'writeCapacityUnitUsdPerHour',
  'readCapacityUnitUsdPerHour',
  'storageUsdPerGbMonth',
  'freeStorageGb',
] as const satisfies ReadonlyArray<keyof TableClassPricing>;

/** Whether a table class is priced at the defaults (so the figures carry the defaults' caveats). */
function hasDefaultPrices(pricing: Pricing, tableClass: TableClass): boolean {
  const p = classPricing(pricing, tableClass);
  const d = classPricing(DEFAULT_PRICING, tableClass);
  return PRICE_FIELDS.every((f) => p[f] === d[f]);
}

function priceAssumptions(pricing: Pricing, tableClass: TableClass): string[] {
  if (!hasDefaultPrices(pricing, tableClass)) return [];
  return tableClass === 'STANDARD_INFREQUENT_ACCESS'
    ? [PRICING_ASSUMPTIONS.defaultPrices, PRICING_ASSUMPTIONS.infrequentAccess]
    : [PRICING_ASSUMPTIONS.defaultPrices];
}

const className = (c: TableClass): string => (c === 'STANDARD' ? 'Standard' : 'Standard-IA');

/** What `onDemandUsd` needs: request units in total (e.g. over a month). */
export interface OnDemandUsdInput {
  readRequestUnits: number;
  writeRequestUnits: number;
  tableClass: TableClass;
  pricing: Pricing;
}

/**
 * The on-demand charge for a number of request units: RRU / 1e6 × price + WRU / 1e6 × price.
 * https://aws.amazon.com/dynamodb/pricing/on-demand/
 */
export function onDemandUsd(input: OnDemandUsdInput): Figure {
  const p = classPricing(input.pricing, input.tableClass);
  const reads = roundUsd((input.readRequestUnits / 1e6) * p.readRequestUnitUsdPerMillion);
  const writes = roundUsd((input.writeRequestUnits / 1e6) * p.writeRequestUnitUsdPerMillion);
  const steps: Step[] = [
    {
      label: `Reads (${className(input.tableClass)})`,
      expression: `${formatNumber(input.readRequestUnits)} RRU / 1,000,000 × ${formatUsdExact(p.readRequestUnitUsdPerMillion)}`,
      value: reads,
      unit: 'USD',
      source: PRICING_SOURCE,
    },
    {
      label: `Writes (${className(input.tableClass)})`,
      expression: `${formatNumber(input.writeRequestUnits)} WRU / 1,000,000 × ${formatUsdExact(p.writeRequestUnitUsdPerMillion)}`,
      value: writes,
      unit: 'USD',
      source: PRICING_SOURCE,
    },
    { label: 'On-demand requests', expression: `${formatUsdExact(reads)} + ${formatUsdExact(writes)}`, value: roundUsd(reads + writes), unit: 'USD' },
  ];
  return figure(steps, priceAssumptions(input.pricing, input.tableClass));
}

/** What `onDemandMonthlyUsd` needs: the average request units per second over the month. */
export interface OnDemandMonthlyInput {
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
  tableClass: TableClass;
  pricing: Pricing;
}

/**
 * The monthly on-demand charge for a steady rate: units per second × 3,600 × hours per month, priced
 * per million. Pass the average rate over the month, not the peak.
 */
export function onDemandMonthlyUsd(input: OnDemandMonthlyInput): Figure {
  const p = classPricing(input.pricing, input.tableClass);
  const seconds = SECONDS_PER_HOUR * input.pricing.hoursPerMonth;
  const rru = input.readUnitsPerSecond * seconds;
  const wru = input.writeUnitsPerSecond * seconds;
  const reads = roundUsd((rru / 1e6) * p.readRequestUnitUsdPerMillion);
  const writes = roundUsd((wru / 1e6) * p.writeRequestUnitUsdPerMillion);
  // The derivation's text is written when someone opens it (a large design prices hundreds of these).
  const steps = (): Step[] => [
    {
      label: 'Read request units per month',
      expression: `${formatNumber(input.readUnitsPerSecond)} RRU/s × 3,600 s × ${formatNumber(input.pricing.hoursPerMonth)} h`,
      value: rru,
      unit: 'RRU',
    },
    {
      label: 'Write request units per month',
      expression: `${formatNumber(input.writeUnitsPerSecond)} WRU/s × 3,600 s × ${formatNumber(input.pricing.hoursPerMonth)} h`,
      value: wru,
      unit: 'WRU',
    },
    {
      label: `Reads (${className(input.tableClass)})`,
      expression: `${formatNumber(rru)} / 1,000,000 × ${formatUsdExact(p.readRequestUnitUsdPerMillion)}`,
      value: reads,
      unit: 'USD/month',
      source: PRICING_SOURCE,
    },
    {
      label: `Writes (${className(input.tableClass)})`,
      expression: `${formatNumber(wru)} / 1,000,000 × ${formatUsdExact(p.writeRequestUnitUsdPerMillion)}`,
      value: writes,
      unit: 'USD/month',
      source: PRICING_SOURCE,
    },
    { label: 'On-demand requests per month', expression: `${formatUsdExact(reads)} + ${formatUsdExact(writes)}`, value: roundUsd(reads + writes), unit: 'USD/month' },
  ];
  return lazyFigure(roundUsd(reads + writes), 'USD/month', steps, priceAssumptions(input.pricing, input.tableClass));
}

/** The steps that price whole capacity units for a month: RCU and WCU × hours × their hourly prices, then the sum. */
function capacityPriceSteps(rcu: number, wcu: number, tableClass: TableClass, pricing: Pricing): Step[] {
  const p = classPricing(pricing, tableClass);
  const hours = pricing.hoursPerMonth;
  const reads = roundUsd(rcu * hours * p.readCapacityUnitUsdPerHour);
  const writes = roundUsd(wcu * hours * p.writeCapacityUnitUsdPerHour);
  return [
    {
      label: `Read capacity (${className(tableClass)})`,
      expression: `${formatNumber(rcu)} RCU × ${formatNumber(hours)} h × ${formatUsdExact(p.readCapacityUnitUsdPerHour)}`,
      value: reads,
      unit: 'USD/month',
      source: PROVISIONED_PRICING_URL,
    },
    {
      label: `Write capacity (${className(tableClass)})`,
      expression: `${formatNumber(wcu)} WCU × ${formatNumber(hours)} h × ${formatUsdExact(p.writeCapacityUnitUsdPerHour)}`,
      value: writes,
      unit: 'USD/month',
      source: PROVISIONED_PRICING_URL,
    },
    { label: 'Provisioned capacity per month', expression: `${formatUsdExact(reads)} + ${formatUsdExact(writes)}`, value: roundUsd(reads + writes), unit: 'USD/month' },
  ];
}

/** What `provisionedMonthlyUsd` needs: the units per second needed, for one table or one GSI. */
export interface ProvisionedMonthlyInput {
  /** Read units per second needed (may be fractional); provisioned as the next whole unit, at least 1. */
  rcu: number;
  /** Write units per second needed (may be fractional); provisioned as the next whole unit, at least 1. */
  wcu: number;
  tableClass: TableClass;
  pricing: Pricing;
}

/**
 * The monthly charge of provisioning exactly a load: the units needed per second, rounded up to
 * whole units (at least 1), × hours per month × the hourly price. Call it once for the table and once
 * per GSI, since each is provisioned on its own. This is what the load alone needs (and an on-demand
 * table's what-if); a provisioned table's bill is `provisionedCapacityMonthlyUsd`. The free 25 RCU /
 * 25 WCU are not subtracted.
 */
export function provisionedMonthlyUsd(input: ProvisionedMonthlyInput): Figure {
  const rcu = Math.max(MIN_PROVISIONED_UNITS, Math.ceil(input.rcu - 1e-9));
  const wcu = Math.max(MIN_PROVISIONED_UNITS, Math.ceil(input.wcu - 1e-9));
  const steps: Step[] = [
    { label: 'Provisioned RCU: the need rounded up to whole units, at least 1', expression: `max(1, ceil(${formatNumber(input.rcu)}))`, value: rcu, unit: 'RCU' },
    { label: 'Provisioned WCU: the need rounded up to whole units, at least 1', expression: `max(1, ceil(${formatNumber(input.wcu)}))`, value: wcu, unit: 'WCU' },
    ...capacityPriceSteps(rcu, wcu, input.tableClass, input.pricing),
  ];
  return figure(steps, [...priceAssumptions(input.pricing, input.tableClass), PRICING_ASSUMPTIONS.provisionedRounding, PRICING_ASSUMPTIONS.noFreeCapacity]);
}

/** One direction (reads or writes) of a provisioned table or GSI, as the design states it. */
export interface ProvisionedDirection {
  /** Units per second the load consumes (may be fractional). */
  loadUnitsPerSecond: number;
  /** The configured capacity units: what is billed, or the initial capacity when auto scaling. */
  configuredUnits: number;
  /** When set, auto scaling decides the capacity held. */
  autoScaling?: AutoScalingRange;
  /**
   * The load in each hour of the day (its busiest minute), when the patterns' traffic changes
   * through the day (docs/traffic.md): auto scaling then holds each hour's own capacity, and the
   * month bills their mean. Ignored without auto scaling (fixed capacity bills whatever the load).
   */
  hourlyLoadUnitsPerSecond?: readonly number[];
}

/** `x` rounded up to a whole number, forgiving binary floating point (70 / 0.7 is 100.00000000000001). */
const ceilUnits = (x: number): number => Math.ceil(x - 1e-9);

/**
 * The capacity units a provisioned table or GSI holds for one direction, which is what each hour
 * bills: the configured units; or with auto scaling, what target tracking settles at for a steady
 * load, `clamp(ceil(load ÷ target), min, max)` (the minimum is a floor; load above the maximum
 * throttles). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
 */
export function heldCapacityUnits(direction: ProvisionedDirection): number {
  const range = direction.autoScaling;
  if (!range) return direction.configuredUnits;
  const hourly = direction.hourlyLoadUnitsPerSecond;
  if (hourly && hourly.length > 0) return hourly.reduce((s, load) => s + heldFor(load, range), 0) / hourly.length;
  return heldFor(direction.loadUnitsPerSecond, range);
}

/** What target tracking settles at for a steady load: clamp(ceil(load ÷ target), min, max). */
function heldFor(load: number, range: AutoScalingRange): number {
  const aimed = ceilUnits((load * 100) / range.targetUtilizationPercent);
  return Math.min(Math.max(aimed, range.minCapacity), range.maxCapacity);
}

/** The whole units a load alone needs: `max(1, ceil(load))` (provisioned capacity is at least 1). */
export function loadOnlyUnits(loadUnitsPerSecond: number): number {
  return Math.max(MIN_PROVISIONED_UNITS, ceilUnits(loadUnitsPerSecond));
}

function heldSteps(direction: ProvisionedDirection, unit: 'RCU' | 'WCU'): Step[] {
  const what = unit === 'RCU' ? 'Read' : 'Write';
  const range = direction.autoScaling;
  if (!range) {
    return [
      {
        label: `${what} capacity provisioned, billed each hour whatever the load`,
        expression: `${formatNumber(direction.configuredUnits)} ${unit} as configured`,
        value: direction.configuredUnits,
        unit,
        source: PROVISIONED_MODE_URL,
      },
    ];
  }
  const hourly = direction.hourlyLoadUnitsPerSecond;
  if (hourly && hourly.length > 0) {
    const held = hourly.map((load) => heldFor(load, range));
    return [
      {
        label: `${what} capacity auto scaling holds each hour of the day: each hour's peak load ÷ the target utilization, in whole units, within the minimum and maximum`,
        expression: held.map((units, h) => `${String(h).padStart(2, '0')}h ${formatNumber(units)}`).join(', '),
        value: Math.max(...held),
        unit,
        source: AUTO_SCALING_URL,
      },
      {
        label: `${what} capacity held and billed on average over the day (auto scaling follows the patterns' daily profiles)`,
        expression: `(${held.map((u) => formatNumber(u)).join(' + ')}) ÷ ${hourly.length}`,
        value: heldCapacityUnits(direction),
        unit,
        source: AUTO_SCALING_URL,
      },
    ];
  }
  const aimed = ceilUnits((direction.loadUnitsPerSecond * 100) / range.targetUtilizationPercent);
  return [
    {
      label: `${what} capacity auto scaling aims for: the load ÷ the target utilization, in whole units`,
      expression: `ceil(${formatNumber(direction.loadUnitsPerSecond, 4)} ${unit}/s ÷ ${formatNumber(range.targetUtilizationPercent)} %)`,
      value: aimed,
      unit,
      source: AUTO_SCALING_URL,
    },
    {
      label: `${what} capacity held and billed each hour: within the auto scaling minimum and maximum`,
      expression: `clamp(${formatNumber(aimed)}, min ${formatNumber(range.minCapacity)}, max ${formatNumber(range.maxCapacity)})`,
      value: heldCapacityUnits(direction),
      unit,
      source: AUTO_SCALING_URL,
    },
  ];
}

/** What `provisionedCapacityMonthlyUsd` needs: both directions of one table or one GSI. */
export interface ProvisionedCapacityInput {
  read: ProvisionedDirection;
  write: ProvisionedDirection;
  tableClass: TableClass;
  pricing: Pricing;
}

/**
 * The monthly bill of a provisioned table or GSI: the capacity it holds (configured, or what auto
 * scaling holds for the load; see `heldCapacityUnits`) × hours per month × the RCU-hour and
 * WCU-hour prices. Provisioned capacity is billed for what is provisioned, not for what the load
 * uses. https://aws.amazon.com/dynamodb/pricing/provisioned/
 */
export function provisionedCapacityMonthlyUsd(input: ProvisionedCapacityInput): Figure {
  const rcu = heldCapacityUnits(input.read);
  const wcu = heldCapacityUnits(input.write);
  const steps: Step[] = [...heldSteps(input.read, 'RCU'), ...heldSteps(input.write, 'WCU'), ...capacityPriceSteps(rcu, wcu, input.tableClass, input.pricing)];
  const assumptions = [...priceAssumptions(input.pricing, input.tableClass), PRICING_ASSUMPTIONS.noFreeCapacity];
  if (input.read.autoScaling || input.write.autoScaling) assumptions.push(PRICING_ASSUMPTIONS.autoScalingSettled);
  return figure(steps, assumptions);
}

/** What `storageMonthlyUsd` needs. */
export interface StorageMonthlyInput {
  /** Bytes stored: tables and indexes, with the 100 B per item (and per index entry) included. */
  bytes: number;
  tableClass: TableClass;
  pricing: Pricing;
}

/**
 * The monthly storage charge: bytes / bytes per GB, less the free GB of the table class, × the
 * GB-month price. The free storage is per account and Region: call this once with the total of all
 * tables of one class (tables and indexes).
 */
export function storageMonthlyUsd(input: StorageMonthlyInput): Figure {
  const p = classPricing(input.pricing, input.tableClass);
  const gb = input.bytes / input.pricing.bytesPerGb;
  const billable = Math.max(0, gb - p.freeStorageGb);
  const cost = roundUsd(billable * p.storageUsdPerGbMonth);
  const steps: Step[] = [
    { label: 'Storage', expression: `${formatNumber(input.bytes)} B / ${formatNumber(input.pricing.bytesPerGb)} B per GB`, value: gb, unit: 'GB', source: AWS_DOCS.quotas },
    {
      label: `Billable storage after ${formatNumber(p.freeStorageGb)} GB free`,
      expression: `max(0, ${formatNumber(gb, 3)} GB − ${formatNumber(p.freeStorageGb)} GB)`,
      value: billable,
      unit: 'GB',
      source: PRICING_SOURCE,
    },
    {
      label: `Storage per month (${className(input.tableClass)})`,
      expression: `${formatNumber(billable, 3)} GB × ${formatUsdExact(p.storageUsdPerGbMonth)}`,
      value: cost,
      unit: 'USD/month',
      source: PRICING_SOURCE,
    },
  ];
  const assumptions = priceAssumptions(input.pricing, input.tableClass);
  assumptions.push(p.freeStorageGb > 0 ? PRICING_ASSUMPTIONS.freeStorageShared : PRICING_ASSUMPTIONS.noFreeStorage);
  return figure(steps, assumptions);
}
