/**
 * Auto scaling of an `AWS::DynamoDB::Table` from Application Auto Scaling resources: each
 * `AWS::ApplicationAutoScaling::ScalableTarget` of namespace dynamodb whose `ResourceId` names a table
 * of the template (`table/<name>`, `table/<name>/index/<gsi>`, by literal name or by `Ref` through
 * `Fn::Sub`/`Fn::Join`), with the target tracking `ScalingPolicy` on it (by `ScalingTargetId`, or by
 * the same resource and dimension), sets the minimum, maximum and target utilization of the table's
 * or GSI's read or write capacity. What a design does not keep (step scaling, cooldowns, schedules)
 * is dropped with a note. A global table's auto scaling is in its own resource (see `global-table.ts`).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.CloudFormation.html
 */
import type { AutoScalingRange } from '../../model/index.ts';
import { describeValue, joinPath, quote } from '../../model/index.ts';
import type { PathMap } from '../common/source-paths.ts';
import type { Reader } from './reader.ts';
import type { TableRead } from './table.ts';
import { intrinsicOf, isRecord, SCALABLE_TARGET_TYPE, SCALING_POLICY_TYPE, type IdPart, type Json } from './template.ts';
import { noteCooldowns } from './throughput.ts';

/**
 * The scalable dimensions of DynamoDB.
 * https://docs.aws.amazon.com/autoscaling/application/APIReference/API_RegisterScalableTarget.html
 */
const DIMENSIONS: Record<string, { isIndex: boolean; direction: 'read' | 'write' }> = {
  'dynamodb:table:ReadCapacityUnits': { isIndex: false, direction: 'read' },
  'dynamodb:table:WriteCapacityUnits': { isIndex: false, direction: 'write' },
  'dynamodb:index:ReadCapacityUnits': { isIndex: true, direction: 'read' },
  'dynamodb:index:WriteCapacityUnits': { isIndex: true, direction: 'write' },
};

/** The predefined metric each direction tracks. https://docs.aws.amazon.com/autoscaling/application/APIReference/API_PredefinedMetricSpecification.html */
const METRICS = { read: 'DynamoDBReadCapacityUtilization', write: 'DynamoDBWriteCapacityUtilization' } as const;

interface ScalingTarget {
  logicalId: string;
  path: string;
  tableIndex: number;
  /** The GSI's position in its table, for an index dimension. */
  gsiIndex?: number;
  direction: 'read' | 'write';
  minCapacity: number;
  maxCapacity: number;
}

interface ScalingPolicy {
  logicalId: string;
  path: string;
  props: Json;
}

/** What a `ResourceId` names: a table, by name or by `Ref` to its resource, and an index of it. */
interface ResourceName {
  table: string | { ref: string };
  index?: string;
}

/** `table/<table>` or `table/<table>/index/<index>`, the table by name or by `Ref`. */
function parseResourceId(parts: IdPart[]): ResourceName | undefined {
  const segments: IdPart[][] = [[]];
  for (const part of parts) {
    if (typeof part !== 'string') {
      segments[segments.length - 1]!.push(part);
      continue;
    }
    part.split('/').forEach((piece, k) => {
      if (k > 0) segments.push([]);
      if (piece !== '') segments[segments.length - 1]!.push(piece);
    });
  }
  const flat = segments.map((s) => {
    if (s.length === 1 && typeof s[0] !== 'string') return { ref: s[0]!.table };
    return s.every((x) => typeof x === 'string') ? s.join('') : undefined;
  });
  const [kind, table, indexWord, index] = flat;
  if (kind !== 'table' || table === undefined) return undefined;
  if (flat.length === 2) return { table };
  if (flat.length === 4 && indexWord === 'index' && typeof index === 'string') return { table, index };
  return undefined;
}

/** Whether `name` names the table `read`: by its name when the template writes it, or by a `Ref` to its resource. */
const isNamed = (read: TableRead, name: ResourceName): boolean =>
  typeof name.table === 'string' ? read.isNameKnown && read.table.name === name.table : read.logicalId === name.table.ref;

/** The resources of `type` that have properties, with their logical id and path. */
function* resourcesOfType(resources: Json, type: string): Generator<{ logicalId: string; rp: string; props: Json }> {
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (!isRecord(resource) || resource.Type !== type || !isRecord(resource.Properties)) continue;
    yield { logicalId, rp: joinPath('Resources', logicalId), props: resource.Properties };
  }
}

/** `ScalableTarget`s of namespace dynamodb, matched to tables and GSIs of the template. */
function readScalingTargets(r: Reader, resources: Json, reads: TableRead[]): ScalingTarget[] {
  const targets: ScalingTarget[] = [];
  for (const { logicalId, rp, props } of resourcesOfType(resources, SCALABLE_TARGET_TYPE)) {
    const pp = joinPath(rp, 'Properties');
    const namespace = r.template.evaluate(props.ServiceNamespace);
    const dimensionGot = r.template.evaluate(props.ScalableDimension);
    const dimensionText = dimensionGot.ok && typeof dimensionGot.value === 'string' ? dimensionGot.value : undefined;
    const isDynamoDb = namespace.ok ? namespace.value === 'dynamodb' : dimensionText?.startsWith('dynamodb:') === true;
    if (!isDynamoDb) continue;
    const dp = joinPath(pp, 'ScalableDimension');
    const dimension = dimensionText !== undefined ? DIMENSIONS[dimensionText] : undefined;
    if (!dimension) {
      r.note('warning', dp, `ScalableDimension is ${dimensionGot.ok ? describeValue(dimensionGot.value) : dimensionGot.what}; expected one of ${Object.keys(DIMENSIONS).join(', ')}, so scalable target ${quote(logicalId)} was skipped.`);
      continue;
    }
    const ip = joinPath(pp, 'ResourceId');
    const id = r.template.resourceIdParts(props.ResourceId);
    if (!id.ok) {
      r.note('warning', ip, `ResourceId is ${id.what}, which the template does not decide (${id.why}); scalable target ${quote(logicalId)} names no table of this template that Keyplan can tell, so it was skipped.`);
      continue;
    }
    const parsed = parseResourceId(id.parts);
    const tableIndex = parsed ? reads.findIndex((t) => isNamed(t, parsed)) : -1;
    const shownId = id.parts.map((p) => (typeof p === 'string' ? p : `\${${p.table}}`)).join('');
    if (!parsed || tableIndex < 0) {
      const why = parsed ? 'names no table of this template' : 'is not of the form table/<table> or table/<table>/index/<index>';
      r.note('warning', ip, `ResourceId is ${quote(shownId)}, which ${why}; scalable target ${quote(logicalId)} was skipped.`);
      continue;
    }
    if (id.via.length > 0) r.note('inferred', ip, `ResourceId is ${r.template.show(props.ResourceId)}; read as ${quote(shownId)}, from ${id.via.join(', then ')}.`);
    const read = reads[tableIndex]!;
    if (dimension.isIndex !== (parsed.index !== undefined)) {
      r.note('warning', dp, `ScalableDimension is ${dimensionText} but ResourceId names ${parsed.index !== undefined ? 'an index' : 'a table'}; scalable target ${quote(logicalId)} was skipped.`);
      continue;
    }
    if (read.isGlobal) {
      r.note('warning', rp, `Scalable target ${quote(logicalId)} scales global table ${quote(read.table.name)}, whose auto scaling belongs in the GlobalTable resource itself (CloudFormation does not support both); it was skipped.`);
      continue;
    }
    let gsiIndex: number | undefined;
    if (parsed.index !== undefined) {
      gsiIndex = read.table.globalSecondaryIndexes.findIndex((g) => g.name === parsed.index);
      if (gsiIndex < 0) {
        r.note('warning', ip, `ResourceId names index ${quote(parsed.index)}, which table ${quote(read.table.name)} has no GSI of; scalable target ${quote(logicalId)} was skipped.`);
        continue;
      }
    }
    const min = r.optionalInteger(props, 'MinCapacity', pp, 'a whole number of capacity units', `scalable target ${quote(logicalId)} was skipped`);
    const max = r.optionalInteger(props, 'MaxCapacity', pp, 'a whole number of capacity units', `scalable target ${quote(logicalId)} was skipped`);
    if (min === undefined || max === undefined) {
      if (!Object.hasOwn(props, 'MinCapacity') || !Object.hasOwn(props, 'MaxCapacity')) r.note('warning', pp, `Scalable target ${quote(logicalId)} lacks MinCapacity or MaxCapacity; it was skipped.`);
      continue;
    }
    for (const key of ['ScheduledActions', 'SuspendedState']) {
      if (Object.hasOwn(props, key)) r.note('dropped', joinPath(pp, key), `Scalable target ${quote(logicalId)} sets ${key}, which a design does not keep; it was dropped.`);
    }
    const target: ScalingTarget = { logicalId, path: rp, tableIndex, direction: dimension.direction, minCapacity: min, maxCapacity: max };
    if (gsiIndex !== undefined) target.gsiIndex = gsiIndex;
    targets.push(target);
  }
  return targets;
}

/** Each target's scaling policies: by `ScalingTargetId` (a `Ref` to the target), or by the same resource and dimension. */
function policiesByTarget(r: Reader, resources: Json, targets: ScalingTarget[], reads: TableRead[]): Map<ScalingTarget, ScalingPolicy[]> {
  const out = new Map<ScalingTarget, ScalingPolicy[]>(targets.map((t) => [t, []]));
  for (const { logicalId, rp, props } of resourcesOfType(resources, SCALING_POLICY_TYPE)) {
    const ref = intrinsicOf(props.ScalingTargetId);
    let target: ScalingTarget | undefined;
    if (ref?.name === 'Ref' && typeof ref.arg === 'string') target = targets.find((t) => t.logicalId === ref.arg);
    else if (!Object.hasOwn(props, 'ScalingTargetId')) {
      const dimension = r.template.evaluate(props.ScalableDimension);
      const id = r.template.resourceIdParts(props.ResourceId);
      const parsed = id.ok ? parseResourceId(id.parts) : undefined;
      const d = dimension.ok && typeof dimension.value === 'string' ? DIMENSIONS[dimension.value] : undefined;
      if (parsed && d) {
        target = targets.find((t) => {
          const read = reads[t.tableIndex]!;
          const gsiName = t.gsiIndex === undefined ? undefined : read.table.globalSecondaryIndexes[t.gsiIndex]?.name;
          return isNamed(read, parsed) && gsiName === parsed.index && t.direction === d.direction;
        });
      }
    }
    if (target) out.get(target)!.push({ logicalId, path: rp, props });
  }
  return out;
}

/** The auto scaling of each target with its target tracking policy, set on the table's billing or the GSI's capacity. */
export function applyAutoScaling(r: Reader, resources: Json, reads: TableRead[], map: PathMap): void {
  const targets = readScalingTargets(r, resources, reads);
  const policies = policiesByTarget(r, resources, targets, reads);
  const done = new Map<string, string>();
  for (const target of targets) {
    const read = reads[target.tableIndex]!;
    const table = read.table;
    const gsi = target.gsiIndex === undefined ? undefined : table.globalSecondaryIndexes[target.gsiIndex];
    const owner = gsi ? `GSI ${quote(gsi.name)} of table ${quote(table.name)}` : `table ${quote(table.name)}`;
    const list = policies.get(target) ?? [];
    let chosen: { policy: ScalingPolicy; value: number } | undefined;
    for (const policy of list) {
      const pp = joinPath(policy.path, 'Properties');
      const type = r.template.evaluate(policy.props.PolicyType);
      const typeText = type.ok && typeof type.value === 'string' ? type.value : undefined;
      if (typeText !== 'TargetTrackingScaling') {
        r.note('dropped', joinPath(pp, 'PolicyType'), `Scaling policy ${quote(policy.logicalId)} on ${owner} is ${typeText ?? 'not target tracking'}; a design keeps target tracking auto scaling only, so it was dropped.`);
        continue;
      }
      if (chosen) {
        r.note('warning', policy.path, `Scaling policy ${quote(policy.logicalId)} is a second target tracking policy on scalable target ${quote(target.logicalId)}; only ${quote(chosen.policy.logicalId)} was kept.`);
        continue;
      }
      const config = r.record(policy.props, 'TargetTrackingScalingPolicyConfiguration', pp, true);
      const cp = joinPath(pp, 'TargetTrackingScalingPolicyConfiguration');
      if (!config) {
        if (!Object.hasOwn(policy.props, 'TargetTrackingScalingPolicyConfiguration')) r.note('warning', pp, `Scaling policy ${quote(policy.logicalId)} has no TargetTrackingScalingPolicyConfiguration; it was skipped.`);
        continue;
      }
      if (Object.hasOwn(config, 'CustomizedMetricSpecification')) {
        r.note('dropped', joinPath(cp, 'CustomizedMetricSpecification'), `Scaling policy ${quote(policy.logicalId)} tracks a customized metric; a design keeps auto scaling on ${METRICS[target.direction]} only, so it was dropped.`);
        continue;
      }
      const spec = r.record(config, 'PredefinedMetricSpecification', cp, true);
      const metric = spec ? r.template.evaluate(spec.PredefinedMetricType) : undefined;
      const metricText = metric?.ok && typeof metric.value === 'string' ? metric.value : undefined;
      if (metricText !== METRICS[target.direction]) {
        const mp = joinPath(joinPath(cp, 'PredefinedMetricSpecification'), 'PredefinedMetricType');
        r.note('warning', mp, `Scaling policy ${quote(policy.logicalId)} tracks ${metricText ?? 'no predefined metric'}, but its target scales ${target.direction} capacity; expected ${METRICS[target.direction]}, so it was skipped.`);
        continue;
      }
      const value = r.optionalNumber(config, 'TargetValue', cp, 'a target utilization in percent', `scaling policy ${quote(policy.logicalId)} was skipped`);
      if (value === undefined) {
        if (!Object.hasOwn(config, 'TargetValue')) r.note('warning', cp, `TargetTrackingScalingPolicyConfiguration has no TargetValue; scaling policy ${quote(policy.logicalId)} was skipped.`);
        continue;
      }
      noteCooldowns(r, config, cp);
      chosen = { policy, value };
    }
    if (!chosen) {
      if (list.length === 0) {
        r.note('dropped', target.path, `Scalable target ${quote(target.logicalId)} sets ${target.direction} capacity of ${owner} between ${target.minCapacity} and ${target.maxCapacity}, but no target tracking scaling policy uses it; a design keeps auto scaling with a target utilization only, so it was dropped.`);
      }
      continue;
    }
    if (table.billing.mode !== 'PROVISIONED') {
      r.note('dropped', target.path, `Scalable target ${quote(target.logicalId)} scales ${owner}, which is on-demand; auto scaling applies to provisioned capacity, so it was dropped.`);
      continue;
    }
    const key = `${target.tableIndex}/${target.gsiIndex ?? ''}/${target.direction}`;
    const earlier = done.get(key);
    if (earlier !== undefined) {
      r.note('warning', target.path, `Scalable target ${quote(target.logicalId)} scales ${target.direction} capacity of ${owner}, as ${quote(earlier)} does; only ${quote(earlier)} was kept.`);
      continue;
    }
    done.set(key, target.logicalId);
    const range: AutoScalingRange = { minCapacity: target.minCapacity, maxCapacity: target.maxCapacity, targetUtilizationPercent: chosen.value };
    const tp = joinPath('tables', target.tableIndex);
    const base = gsi ? joinPath(joinPath(joinPath(tp, 'globalSecondaryIndexes'), target.gsiIndex!), 'provisioned') : joinPath(tp, 'billing');
    const capacity = gsi ? gsi.provisioned : table.billing;
    if (!capacity) continue;
    capacity.autoScaling = { ...capacity.autoScaling, [target.direction]: range };
    const dp = joinPath(joinPath(base, 'autoScaling'), target.direction);
    const targetProps = joinPath(target.path, 'Properties');
    map.push(
      [dp, target.path],
      [joinPath(dp, 'minCapacity'), joinPath(targetProps, 'MinCapacity')],
      [joinPath(dp, 'maxCapacity'), joinPath(targetProps, 'MaxCapacity')],
      [joinPath(dp, 'targetUtilizationPercent'), joinPath(joinPath(joinPath(chosen.policy.path, 'Properties'), 'TargetTrackingScalingPolicyConfiguration'), 'TargetValue')],
    );
  }
}
