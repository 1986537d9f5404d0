/**
 * Warm throughput and on-demand maximums in words, as the design sheet and the export notes write
 * them. Internal to `formats`.
 */
import { formatNumber } from '../../numbers/index.ts';
import type { OnDemandThroughput, WarmThroughput } from '../../model/index.ts';

/** `24,000 read / 8,000 write units per second`; `24,000 read units per second (write as DynamoDB sets it)`. */
export function warmThroughputText(w: WarmThroughput): string {
  const parts = [w.readUnitsPerSecond !== undefined ? `${formatNumber(w.readUnitsPerSecond)} read` : undefined, w.writeUnitsPerSecond !== undefined ? `${formatNumber(w.writeUnitsPerSecond)} write` : undefined];
  const missing = parts[0] === undefined ? 'read' : parts[1] === undefined ? 'write' : undefined;
  return `${parts.filter((p) => p !== undefined).join(' / ')} units per second${missing ? ` (${missing} as DynamoDB sets it)` : ''}`;
}

/** `at most 5,000 read / 1,000 write request units per second`; `at most 5,000 read request units per second (no write maximum)`. */
export function onDemandMaximumText(o: OnDemandThroughput): string {
  const parts = [o.maxReadRequestUnits !== undefined ? `${formatNumber(o.maxReadRequestUnits)} read` : undefined, o.maxWriteRequestUnits !== undefined ? `${formatNumber(o.maxWriteRequestUnits)} write` : undefined];
  const missing = parts[0] === undefined ? 'read' : parts[1] === undefined ? 'write' : undefined;
  return `at most ${parts.filter((p) => p !== undefined).join(' / ')} request units per second${missing ? ` (no ${missing} maximum)` : ''}`;
}
