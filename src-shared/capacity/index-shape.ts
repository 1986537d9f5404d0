/** The indexes of a table as the size and share estimates need them: kind, key attribute names, projection. */
import { gsiKeyAttributes } from '../model/index.ts';
import type { Projection, Table } from '../model/index.ts';

/** An index of the table by kind and name, with its key attribute names (base keys included for an LSI; every attribute of a multi-attribute GSI key). */
export interface IndexShape {
  kind: 'gsi' | 'lsi';
  name: string;
  keyNames: string[];
  projection: Projection;
}

export function findIndex(table: Table, name: string, kind?: 'gsi' | 'lsi'): IndexShape | undefined {
  if (kind !== 'lsi') {
    const g = table.globalSecondaryIndexes.find((x) => x.name === name);
    if (g) return { kind: 'gsi', name, keyNames: gsiKeyAttributes(g).map((k) => k.name), projection: g.projection };
  }
  if (kind !== 'gsi') {
    const l = table.localSecondaryIndexes.find((x) => x.name === name);
    if (l) return { kind: 'lsi', name, keyNames: [table.partitionKey.name, l.sortKey.name], projection: l.projection };
  }
  return undefined;
}
