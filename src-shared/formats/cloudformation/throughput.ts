/**
 * The throughput readers both table resource types use: the billing mode (absent is PROVISIONED, the
 * documented default), provisioned capacity, on-demand maximums (-1 is none), warm throughput, the
 * auto scaling a GlobalTable writes in `CapacityAutoScalingSettings`, and the notes on capacity
 * settings of the billing mode the table does not use.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html#cfn-dynamodb-table-billingmode
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-globaltable-capacityautoscalingsettings.html
 */
import type { AutoScalingRange, OnDemandThroughput, ProvisionedThroughput, WarmThroughput } from '../../model/index.ts';
import { joinPath } from '../../model/index.ts';
import type { PathMap } from '../common/source-paths.ts';
import { BILLING_MODES, onDemandMaximum, type BillingMode } from '../common/dynamodb-table.ts';
import { fieldName, integerOf, type Reader } from './reader.ts';
import type { Json } from './template.ts';

/** The billing mode, and why it is that (for a message about capacity it needs). */
export interface BillingRead {
  mode: BillingMode;
  /** `BillingMode is PROVISIONED`, `BillingMode is absent, which means PROVISIONED` … */
  why: string;
}

/** `BillingMode`: PROVISIONED unless PAY_PER_REQUEST; the table's billing is mapped to it (or to the properties when it is absent). */
export function readBillingMode(r: Reader, props: Json, pp: string, tp: string, map: PathMap): BillingRead {
  const mode = r.optionalString(props, 'BillingMode', pp, 'PROVISIONED or PAY_PER_REQUEST', 'PROVISIONED, the default, was taken', BILLING_MODES) === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
  const isWritten = Object.hasOwn(props, 'BillingMode');
  map.push([joinPath(tp, 'billing'), isWritten ? joinPath(pp, 'BillingMode') : pp]);
  return { mode, why: isWritten ? `BillingMode is ${mode}` : 'BillingMode is absent, which means PROVISIONED' };
}

/** Capacity units, and their auto scaling where the template sets it. */
export interface Capacity {
  units: number;
  range?: AutoScalingRange;
}

/** Provisioned throughput from read and write capacity, with the auto scaling of either. */
export function provisionedOf(read: Capacity, write: Capacity): ProvisionedThroughput {
  const out: ProvisionedThroughput = { readCapacityUnits: read.units, writeCapacityUnits: write.units };
  if (read.range || write.range) out.autoScaling = { ...(read.range ? { read: read.range } : {}), ...(write.range ? { write: write.range } : {}) };
  return out;
}

/**
 * `ProvisionedThroughput` {ReadCapacityUnits, WriteCapacityUnits} of `owner` (both required), each
 * mapped under `designPath`. Absent is undefined; of the wrong shape, a problem, or a warning when
 * `isOptional` (a GSI then takes the table's capacity).
 */
export function readProvisionedThroughput(r: Reader, owner: Json, ownerPath: string, designPath: string, map: PathMap, isOptional: boolean): ProvisionedThroughput | undefined {
  const pt = r.record(owner, 'ProvisionedThroughput', ownerPath, isOptional);
  if (!pt) return undefined;
  const ptp = joinPath(ownerPath, 'ProvisionedThroughput');
  const read = r.requiredInteger(pt, 'ReadCapacityUnits', ptp, 'a whole number of read capacity units');
  const write = r.requiredInteger(pt, 'WriteCapacityUnits', ptp, 'a whole number of write capacity units');
  if (read === undefined || write === undefined) return undefined;
  map.push([joinPath(designPath, 'readCapacityUnits'), joinPath(ptp, 'ReadCapacityUnits')], [joinPath(designPath, 'writeCapacityUnits'), joinPath(ptp, 'WriteCapacityUnits')]);
  return { readCapacityUnits: read, writeCapacityUnits: write };
}

/** `ProvisionedThroughput` on an on-demand table or GSI (`what`): a warning unless it is 0 and 0, which says nothing. */
export function noteCapacityOnDemand(r: Reader, owner: Json, ownerPath: string, what: string): void {
  const pt = r.record(owner, 'ProvisionedThroughput', ownerPath, true);
  if (pt && (integerOf(pt.ReadCapacityUnits) !== 0 || integerOf(pt.WriteCapacityUnits) !== 0)) {
    const ptp = joinPath(ownerPath, 'ProvisionedThroughput');
    r.note('warning', ptp, `ProvisionedThroughput sets capacity on ${what}; it was skipped.`);
  }
}

/** `OnDemandThroughput` on a provisioned table or GSI (`what`): dropped, as its capacity is its maximum. */
export function noteMaximumsProvisioned(r: Reader, owner: Json, ownerPath: string, what: string): void {
  if (!Object.hasOwn(owner, 'OnDemandThroughput')) return;
  const op = joinPath(ownerPath, 'OnDemandThroughput');
  r.note('dropped', op, `OnDemandThroughput sets on-demand maximums on ${what}, whose capacity is its maximum; it was dropped.`);
}

/** An on-demand maximum of request units (-1 means none). */
export function readMaximum(r: Reader, obj: Json, key: string, path: string): number | undefined {
  return onDemandMaximum(r.optionalInteger(obj, key, path, 'a whole number of request units, or -1 for no maximum', 'no maximum was taken'));
}

/** The maximums as the design keeps them; undefined when there is none. */
export function maximumsOf(read: number | undefined, write: number | undefined): OnDemandThroughput | undefined {
  if (read === undefined && write === undefined) return undefined;
  return { ...(read !== undefined ? { maxReadRequestUnits: read } : {}), ...(write !== undefined ? { maxWriteRequestUnits: write } : {}) };
}

/** `OnDemandThroughput` {MaxReadRequestUnits, MaxWriteRequestUnits} of an `AWS::DynamoDB::Table` or its GSI. */
export function readOnDemandThroughput(r: Reader, obj: Json, path: string, designPath: string, map: PathMap): OnDemandThroughput | undefined {
  const o = r.record(obj, 'OnDemandThroughput', path, true);
  if (!o) return undefined;
  const op = joinPath(path, 'OnDemandThroughput');
  const max = maximumsOf(readMaximum(r, o, 'MaxReadRequestUnits', op), readMaximum(r, o, 'MaxWriteRequestUnits', op));
  map.push([designPath, op], [joinPath(designPath, 'maxReadRequestUnits'), joinPath(op, 'MaxReadRequestUnits')], [joinPath(designPath, 'maxWriteRequestUnits'), joinPath(op, 'MaxWriteRequestUnits')]);
  return max;
}

/** `WarmThroughput` {ReadUnitsPerSecond, WriteUnitsPerSecond} of a table or GSI. */
export function readWarmThroughput(r: Reader, obj: Json, path: string, designPath: string, map: PathMap): WarmThroughput | undefined {
  const w = r.record(obj, 'WarmThroughput', path, true);
  if (!w) return undefined;
  const wp = joinPath(path, 'WarmThroughput');
  const out: WarmThroughput = {};
  const read = r.optionalInteger(w, 'ReadUnitsPerSecond', wp, 'a whole number of read units per second', 'no warm read throughput was taken');
  const write = r.optionalInteger(w, 'WriteUnitsPerSecond', wp, 'a whole number of write units per second', 'no warm write throughput was taken');
  if (read !== undefined) out.readUnitsPerSecond = read;
  if (write !== undefined) out.writeUnitsPerSecond = write;
  map.push([designPath, wp], [joinPath(designPath, 'readUnitsPerSecond'), joinPath(wp, 'ReadUnitsPerSecond')], [joinPath(designPath, 'writeUnitsPerSecond'), joinPath(wp, 'WriteUnitsPerSecond')]);
  return read === undefined && write === undefined ? undefined : out;
}

/**
 * `CapacityAutoScalingSettings` {MinCapacity, MaxCapacity, SeedCapacity, TargetTrackingScalingPolicyConfiguration}.
 * The initial capacity is `SeedCapacity`, or the minimum when there is none (an `inferred` note).
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-dynamodb-globaltable-capacityautoscalingsettings.html
 */
export function readCapacityAutoScaling(r: Reader, settings: Json, path: string, direction: 'read' | 'write', designPath: string, map: PathMap): Capacity | undefined {
  const min = r.requiredInteger(settings, 'MinCapacity', path, 'a whole number of capacity units');
  const max = r.requiredInteger(settings, 'MaxCapacity', path, 'a whole number of capacity units');
  const seed = r.optionalInteger(settings, 'SeedCapacity', path, 'a whole number of capacity units', 'the minimum was taken as the initial capacity');
  const tt = r.record(settings, 'TargetTrackingScalingPolicyConfiguration', path, false);
  const ttp = joinPath(path, 'TargetTrackingScalingPolicyConfiguration');
  let target: number | undefined;
  if (tt) {
    target = r.requiredNumber(tt, 'TargetValue', ttp, 'a target utilization in percent');
    noteCooldowns(r, tt, ttp);
  }
  if (min === undefined || max === undefined || target === undefined) return undefined;
  if (seed === undefined) r.note('inferred', path, `${fieldName(path)} sets no SeedCapacity, so the template holds no initial ${direction} capacity; the minimum, ${min}, was taken.`);
  map.push(
    [designPath, path],
    [joinPath(designPath, 'minCapacity'), joinPath(path, 'MinCapacity')],
    [joinPath(designPath, 'maxCapacity'), joinPath(path, 'MaxCapacity')],
    [joinPath(designPath, 'targetUtilizationPercent'), joinPath(ttp, 'TargetValue')],
  );
  return { units: seed ?? min, range: { minCapacity: min, maxCapacity: max, targetUtilizationPercent: target } };
}

/** Scale-in and scale-out cooldowns and DisableScaleIn: a design keeps min, max and target only. */
export function noteCooldowns(r: Reader, config: Json, path: string): void {
  const set = ['ScaleInCooldown', 'ScaleOutCooldown', 'DisableScaleIn'].filter((k) => Object.hasOwn(config, k));
  if (set.length === 0) return;
  r.note('dropped', path, `${fieldName(path)} sets ${set.join(', ')}; a design keeps auto scaling as a minimum, a maximum and a target utilization, so ${set.length === 1 ? 'it was' : 'they were'} dropped.`);
}
