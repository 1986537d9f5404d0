/**
 * Provisioned capacity proposed from the load: what a table and each GSI would need if the table
 * switched to provisioned billing now, `max(1, ceil(peak units ÷ target utilization))` per direction,
 * with the target of its auto scaling or 70 %. The Table & indexes screen applies it when billing is
 * switched to provisioned, and says where the numbers came from.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html
 */
import {
  figure,
  formatNumber,
  type Figure,
  DEFAULT_PRICING,
  MIN_PROVISIONED_UNITS,
  AWS_DOCS,
} from '../capacity/index.ts';
import { setBilling, updateGsi, updateTable } from '../model/index.ts';
import type { AutoScaling, Design, OnDemandThroughput, Pricing, Table } from '../model/index.ts';
import { costTable } from './design-cost.ts';
import type { TargetCost } from './types.ts';

/**
 * The utilization a proposal aims the peak at when no auto scaling says otherwise: 70 %, the target
 * AWS's console suggests for auto scaling, so the peak leaves 30 % headroom.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html
 */
export const PROPOSAL_TARGET_UTILIZATION_PERCENT = 70;

/** The proposed capacity of the table or one GSI: RCU and WCU, each a figure with its derivation. */
export interface TargetProposal {
  /** `table` or the GSI's name. */
  name: string;
  kind: 'table' | 'gsi';
  /** The GSI's id (absent for the table). */
  gsiId?: string;
  readCapacityUnits: Figure;
  writeCapacityUnits: Figure;
  /** The utilization each direction aims the peak at, in percent (its auto scaling target, else 70). */
  targetUtilizationPercent: { read: number; write: number };
}

export interface CapacityProposal {
  tableId: string;
  /** The table first, then each GSI in the table's order. */
  targets: TargetProposal[];
}

/** Auto scaling to keep per target: the table's (`table`) and each GSI's by id. Their targets drive the proposal. */
export interface KeptAutoScaling {
  table?: AutoScaling;
  gsis?: Record<string, AutoScaling>;
}

function directionFigure(where: string, unit: 'RCU' | 'WCU', load: Figure | undefined, targetPercent: number, isAutoScaled: boolean): Figure {
  const peak = load?.value ?? 0;
  const units = Math.max(MIN_PROVISIONED_UNITS, Math.ceil((peak * 100) / targetPercent - 1e-9));
  const what = unit === 'RCU' ? 'read' : 'write';
  return figure([
    {
      label: load
        ? `Peak ${what} units per second on ${where}: the sum of the access patterns that use it`
        : `Peak ${what} units per second on ${where}: none known, the costs cannot be computed yet`,
      expression: `${formatNumber(peak, 4)} ${unit}/s`,
      value: peak,
      unit: unit === 'RCU' ? 'RCU/s' : 'WCU/s',
    },
    {
      label: isAutoScaled ? `Target utilization: the ${what} auto scaling target` : 'Target utilization: the peak uses 70 % of the capacity, leaving 30 % headroom',
      expression: `${formatNumber(targetPercent)} %`,
      value: targetPercent / 100,
      unit: 'ratio',
      source: AWS_DOCS.autoScaling,
    },
    {
      label: `Proposed ${unit}: the peak ÷ the target, in whole units, at least 1`,
      expression: `max(1, ceil(${formatNumber(peak, 4)} ÷ ${formatNumber(targetPercent)} %))`,
      value: units,
      unit,
      source: AWS_DOCS.provisionedMode,
    },
  ]);
}

/**
 * Proposes provisioned capacity for a table and each GSI from the load its access patterns put on
 * them (their peak rates): per direction `max(1, ceil(peak ÷ target))`, the target being the
 * direction's auto scaling target in `kept` (or the table's own, when it is provisioned), else 70 %.
 */
export function proposeProvisionedCapacity(table: Table, pricing: Pricing = DEFAULT_PRICING, kept: KeptAutoScaling = keptAutoScalingOf(table)): CapacityProposal {
  return proposeFromLoad(table, costTable(table, pricing).targets, kept);
}

/**
 * `proposeProvisionedCapacity` from loads already costed (a `TableCost`'s targets, as the screens
 * hold them), so a screen showing the proposal does not cost the table twice. A table or GSI with no
 * load in `loads` (its costs could not be computed) is proposed the minimum, 1 unit, and its
 * derivation says why.
 */
export function proposeFromLoad(table: Table, loads: readonly Pick<TargetCost, 'name' | 'kind' | 'readUnitsPerSecond' | 'writeUnitsPerSecond'>[], kept: KeptAutoScaling = keptAutoScalingOf(table)): CapacityProposal {
  const owners = [{ name: 'table', kind: 'table' as const, gsiId: undefined }, ...table.globalSecondaryIndexes.map((g) => ({ name: g.name, kind: 'gsi' as const, gsiId: g.id }))];
  const targets = owners.map((o): TargetProposal => {
    const load = loads.find((l) => l.kind === o.kind && l.name === o.name);
    const scaling = o.gsiId === undefined ? kept.table : kept.gsis?.[o.gsiId];
    const where = o.kind === 'table' ? `table ${table.name}` : `GSI ${o.name}`;
    const read = scaling?.read?.targetUtilizationPercent;
    const write = scaling?.write?.targetUtilizationPercent;
    return {
      name: o.name,
      kind: o.kind,
      ...(o.gsiId !== undefined ? { gsiId: o.gsiId } : {}),
      targetUtilizationPercent: { read: read ?? PROPOSAL_TARGET_UTILIZATION_PERCENT, write: write ?? PROPOSAL_TARGET_UTILIZATION_PERCENT },
      readCapacityUnits: directionFigure(where, 'RCU', load?.readUnitsPerSecond, read ?? PROPOSAL_TARGET_UTILIZATION_PERCENT, read !== undefined),
      writeCapacityUnits: directionFigure(where, 'WCU', load?.writeUnitsPerSecond, write ?? PROPOSAL_TARGET_UTILIZATION_PERCENT, write !== undefined),
    };
  });
  return { tableId: table.id, targets };
}

/** The auto scaling a provisioned table and its GSIs have now (none on an on-demand table). */
export function keptAutoScalingOf(table: Table): KeptAutoScaling {
  if (table.billing.mode !== 'PROVISIONED') return {};
  const gsis: Record<string, AutoScaling> = {};
  for (const g of table.globalSecondaryIndexes) if (g.provisioned?.autoScaling) gsis[g.id] = g.provisioned.autoScaling;
  return { ...(table.billing.autoScaling ? { table: table.billing.autoScaling } : {}), gsis };
}

/**
 * Switches a table to provisioned billing with the proposed capacity on the table and every GSI (and
 * the auto scaling in `kept`), dropping the on-demand maximums, which a provisioned table cannot have.
 * One pure edit, so one undo step.
 */
export function switchToProvisioned(design: Design, proposal: CapacityProposal, kept: KeptAutoScaling = {}): Design {
  const tableTarget = proposal.targets.find((t) => t.kind === 'table');
  if (!tableTarget) return design;
  let next = setBilling(design, proposal.tableId, {
    mode: 'PROVISIONED',
    readCapacityUnits: tableTarget.readCapacityUnits.value,
    writeCapacityUnits: tableTarget.writeCapacityUnits.value,
    ...(kept.table ? { autoScaling: kept.table } : {}),
  });
  next = updateTable(next, proposal.tableId, { onDemandThroughput: undefined });
  for (const t of proposal.targets) {
    if (t.gsiId === undefined) continue;
    const autoScaling = kept.gsis?.[t.gsiId];
    next = updateGsi(next, proposal.tableId, t.gsiId, {
      provisioned: { readCapacityUnits: t.readCapacityUnits.value, writeCapacityUnits: t.writeCapacityUnits.value, ...(autoScaling ? { autoScaling } : {}) },
      onDemandThroughput: undefined,
    });
  }
  return next;
}

/** On-demand maximums to restore per target: the table's and each GSI's by id. */
export interface KeptMaximums {
  table?: OnDemandThroughput;
  gsis?: Record<string, OnDemandThroughput>;
}

/** The on-demand maximums an on-demand table and its GSIs have now. */
export function keptMaximumsOf(table: Table): KeptMaximums {
  const gsis: Record<string, OnDemandThroughput> = {};
  for (const g of table.globalSecondaryIndexes) if (g.onDemandThroughput) gsis[g.id] = g.onDemandThroughput;
  return { ...(table.onDemandThroughput ? { table: table.onDemandThroughput } : {}), gsis };
}

/** Switches a table to on-demand billing (its GSIs lose their provisioned capacity), restoring the maximums in `kept`. One pure edit. */
export function switchToOnDemand(design: Design, tableId: string, kept: KeptMaximums = {}): Design {
  let next = setBilling(design, tableId, { mode: 'ON_DEMAND' });
  if (kept.table) next = updateTable(next, tableId, { onDemandThroughput: kept.table });
  const table = next.tables.find((t) => t.id === tableId);
  for (const g of table?.globalSecondaryIndexes ?? []) {
    const max = kept.gsis?.[g.id];
    if (max) next = updateGsi(next, tableId, g.id, { onDemandThroughput: max });
  }
  return next;
}
