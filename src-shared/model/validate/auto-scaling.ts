/**
 * Auto scaling of provisioned capacity, on a table's billing or a GSI's provisioned throughput: per
 * direction, a minimum of at least 1, a maximum no lower than the minimum, and a target utilization
 * DynamoDB accepts (20–90 %). https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
 */
import { MAX_TARGET_UTILIZATION_PERCENT, MIN_TARGET_UTILIZATION_PERCENT, type AutoScaling } from '../schema.ts';
import type { Collector } from './collector.ts';
import { describeValue, joinPath } from './wording.ts';

/**
 * Checks the auto scaling of one table or GSI (`what` names it, e.g. `Table "Shop"`), adding every
 * problem to `c` at its field's path under `path` (`tables[0].billing.autoScaling`). Codes:
 * `model.invalidNumber` (a minimum or maximum below 1, a target outside 20–90), `model.billing` (a
 * maximum below the minimum).
 */
export function checkAutoScaling(autoScaling: AutoScaling, path: string, what: string, c: Collector): void {
  for (const direction of ['read', 'write'] as const) {
    const range = autoScaling[direction];
    if (!range) continue;
    const dp = joinPath(path, direction);
    const units = direction === 'read' ? 'RCU' : 'WCU';
    const label = `${what}: ${direction} auto scaling`;
    c.number(range.minCapacity, joinPath(dp, 'minCapacity'), 1, `${label} minimum capacity`);
    c.number(range.maxCapacity, joinPath(dp, 'maxCapacity'), 1, `${label} maximum capacity`);
    if (Number.isFinite(range.minCapacity) && Number.isFinite(range.maxCapacity) && range.maxCapacity < range.minCapacity) {
      c.add(
        'model.billing',
        joinPath(dp, 'maxCapacity'),
        `${label} has a maximum of ${range.maxCapacity} ${units}, below its minimum of ${range.minCapacity} ${units}; expected a maximum at least the minimum.`,
        `${range.maxCapacity} ${units}`,
        `at least ${range.minCapacity} ${units}`,
      );
    }
    const target = range.targetUtilizationPercent;
    if (!Number.isFinite(target) || target < MIN_TARGET_UTILIZATION_PERCENT || target > MAX_TARGET_UTILIZATION_PERCENT) {
      const shown = Number.isFinite(target) ? `${target} %` : describeValue(target);
      const expected = `a target utilization from ${MIN_TARGET_UTILIZATION_PERCENT} to ${MAX_TARGET_UTILIZATION_PERCENT} %`;
      c.add('model.invalidNumber', joinPath(dp, 'targetUtilizationPercent'), `${label} targets ${shown} utilization; expected ${expected}.`, shown, expected);
    }
  }
}
