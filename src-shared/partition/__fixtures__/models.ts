/** Hand-built simulation models, for tests that need exact control over what lands where. */
import type { LoadSource, ModelKey, SimulationModel, TargetCapacity, TargetModel } from '../model.ts';

export interface HandTarget {
  name?: string;
  kind?: 'table' | 'gsi';
  capacity: TargetCapacity;
  partitionCount: number;
  keys?: ModelKey[];
  sources: LoadSource[];
  canSplitCollections?: boolean;
  canIsolateItems?: boolean;
}

export function handTarget(t: HandTarget): TargetModel {
  const kind = t.kind ?? 'table';
  const name = t.name ?? (kind === 'table' ? 'table' : 'GSI1');
  return {
    name,
    kind,
    label: kind === 'table' ? 'Table' : name,
    capacity: t.capacity,
    partitions: { partitionsForSize: 0, partitionsForThroughput: t.partitionCount, partitionCount: t.partitionCount },
    keys: t.keys ?? [],
    background: { items: 0, bytes: 0, keys: 0 },
    sources: t.sources,
    canSplitCollections: t.canSplitCollections ?? true,
    canIsolateItems: t.canIsolateItems ?? true,
  };
}

export function handModel(targets: HandTarget[], patterns: { kind: 'read' | 'write'; ratePerSecond: number }[]): SimulationModel {
  return {
    tableName: 'Hand',
    hash: 'positions given by the test',
    targets: targets.map(handTarget),
    patterns: patterns.map((p, i) => ({ id: `p${i}`, name: `Pattern ${i}`, ...p })),
    assumptions: [],
  };
}

/** A key at a chosen position of the hash space. */
export const keyAt = (position: number, name = `K@${position}`, items = 1000): ModelKey => ({ key: name, position, items, bytes: items * 1000 });
