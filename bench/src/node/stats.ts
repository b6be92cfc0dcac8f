/** Summary of one set of timings, in milliseconds. */
export interface Summary {
  runs: number;
  median: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/**
 * Median (the mean of the two middle values for an even count), p95 (nearest rank), min, max, mean.
 * @example
 * summarize([3, 1, 2]); // { runs: 3, median: 2, p95: 3, min: 1, max: 3, mean: 2 }
 */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median =
    sorted.length === 0
      ? Number.NaN
      : sorted.length % 2 === 1
        ? (sorted[Math.floor(mid)] as number)
        : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    runs: sorted.length,
    median: round(median),
    p95: round(percentile(sorted, 95)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1)),
  };
}
