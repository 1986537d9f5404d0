/** What every benchmark reports, and the one median they all take. */

/** One measured figure: its median, its target (null: recorded only), and the baseline it is set beside. */
export interface BenchResult {
  name: string;
  median: number;
  unit: string;
  target: number | null;
  baseline?: { name: string; median: number };
  ratio?: number;
}

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
