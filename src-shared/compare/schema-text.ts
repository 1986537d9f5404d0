/**
 * Key schema, projection and billing in words, as the comparison rows and its summary show them.
 */
import { formatNumber } from '../capacity/index.ts';
import type { AutoScaling, Billing, KeyAttribute, Projection, ProvisionedThroughput } from '../model/index.ts';

/** `PK (S)`; undefined for no key. */
/** `PK (S)`; a multi-attribute key part `tournamentId (S) + region (S)`; undefined when absent. */
export const keyText = (k: KeyAttribute | readonly KeyAttribute[] | undefined): string | undefined => {
  const parts = k === undefined ? [] : Array.isArray(k) ? k : [k as KeyAttribute];
  return parts.length > 0 ? parts.map((a) => `${a.name} (${a.type})`).join(' + ') : undefined;
};

/** `ALL`, `KEYS_ONLY`, `INCLUDE userId, total`. */
export function projectionText(p: Projection): string {
  return p.type === 'INCLUDE' ? `INCLUDE ${p.nonKeyAttributes.join(', ')}` : p.type;
}

function autoScalingText(a: AutoScaling | undefined): string {
  const parts = (['read', 'write'] as const).flatMap((d) => {
    const r = a?.[d];
    return r ? [`${d}s auto scale ${formatNumber(r.minCapacity)}–${formatNumber(r.maxCapacity)} at ${formatNumber(r.targetUtilizationPercent)}%`] : [];
  });
  return parts.length === 0 ? '' : `, ${parts.join(', ')}`;
}

/** `5 RCU, 5 WCU` with any auto scaling: `5 RCU, 5 WCU, reads auto scale 5–100 at 70%`. */
export function capacityText(c: ProvisionedThroughput): string {
  return `${formatNumber(c.readCapacityUnits)} RCU, ${formatNumber(c.writeCapacityUnits)} WCU${autoScalingText(c.autoScaling)}`;
}

/** `on-demand`, or `provisioned 5 RCU, 5 WCU` (with any auto scaling). */
export function billingText(b: Billing): string {
  return b.mode === 'ON_DEMAND' ? 'on-demand' : `provisioned ${capacityText(b)}`;
}
