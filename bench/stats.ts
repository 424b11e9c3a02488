// Small statistics helpers: percentiles of raw latencies, medians across rounds.

/** The q-quantile (0..1) of `values` by the nearest-rank method; NaN when empty. */
export function percentile(values: ArrayLike<number>, q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function median(values: number[]): number {
  const finite = values.filter(Number.isFinite);
  return finite.length ? percentile(finite, 0.5) : Number.NaN;
}

export const round = (value: number, digits = 1) => (Number.isFinite(value) ? Math.round(value * 10 ** digits) / 10 ** digits : value);
