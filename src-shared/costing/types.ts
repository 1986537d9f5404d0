/**
 * The shapes costing's parts hand each other: what a pattern consumes, what a table or GSI costs,
 * the warnings. Declared here, below the files that compute them, so those files import each
 * other's results without importing each other.
 */
import type { Figure, EffectiveWarmThroughput } from '../capacity/index.ts';
import type { OnDemandThroughput, ProvisionedThroughput } from '../model/index.ts';

/** Units one pattern consumes per second on one table or GSI (LSIs consume the table's). */
export interface Consumption {
  /** `table`, or a GSI's name. */
  target: 'table' | { gsi: string };
  readUnitsPerSecond: number;
  writeUnitsPerSecond: number;
}

/** Codes of the warnings this module raises (unioned into `CostWarningCode`). */
export type ThroughputWarningCode = 'cost.onDemandMaximum' | 'cost.warmThroughput';

/** A table's or GSI's warm throughput in effect, with the partitions it implies and the cost of pre-warming to it (estimates). */
export interface WarmThroughputCost {
  effective: EffectiveWarmThroughput;
  /** Whether the design sets a warm throughput (in either direction). */
  isSet: boolean;
  /** ceil(max(read ÷ 3,000, write ÷ 1,000)), or for a provisioned table with none set ceil(RCU ÷ 3,000 + WCU ÷ 1,000): an estimate. */
  partitions: Figure;
  /** The one-time charge of pre-warming above the free baseline: an estimate, USD. */
  preWarmUsd: Figure;
}

export type CostWarningCode =
  | 'cost.scan'
  | 'cost.filterWaste'
  | 'cost.hotPartitionWrites'
  | 'cost.underProvisioned'
  | 'cost.overProvisioned'
  | 'cost.plan'
  | 'cost.designProblem'
  | 'cost.needsKeyDesign'
  | 'cost.itemTooLarge'
  | 'cost.itemCollectionTooLarge'
  | ThroughputWarningCode;

export interface CostWarning {
  code: CostWarningCode;
  severity: 'error' | 'warning';
  message: string;
  patternId?: string;
  /** The entity the warning is about (the item-size limits), its first when several. */
  entityId?: string;
}

/** The table itself or one GSI: what its patterns consume and what it costs per month. */
export interface TargetCost {
  /** `table` or the GSI's name. */
  name: string;
  kind: 'table' | 'gsi';
  readUnitsPerSecond: Figure;
  writeUnitsPerSecond: Figure;
  /** Stored bytes, 100 B per item included (an LSI's storage is part of its table's). */
  storageBytes: Figure;
  /**
   * Provisioned capacity per month. A provisioned table: its bill, the capacity it holds (configured,
   * or what auto scaling holds for the load) × hours × price. An on-demand table: a what-if of
   * provisioning exactly the load in whole units (the same as `loadOnlyMonthly`).
   */
  provisionedMonthly: Figure;
  /** What the load alone would need provisioned: whole units (at least 1) × hours × price. */
  loadOnlyMonthly: Figure;
  /** The capacity units billed each hour (for an on-demand table, the load's whole units). */
  billed: { readCapacityUnits: number; writeCapacityUnits: number };
  /** The whole units the load alone needs: `max(1, ceil(units per second))`. */
  loadNeeds: { readCapacityUnits: number; writeCapacityUnits: number };
  /** What the design provisions (with its auto scaling), when the table is provisioned. */
  configured?: ProvisionedThroughput;
  /** The warm throughput in effect (the design's, or the baseline), its implied partitions and its one-time pre-warming cost: estimates. */
  warmThroughput: WarmThroughputCost;
  /** The on-demand maximum the design sets on this on-demand table or GSI. */
  onDemandMaximum?: OnDemandThroughput;
}
