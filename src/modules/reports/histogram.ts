// Durations and scores as fixed-grid histograms, so the 15-minute buckets of any window add up to its
// percentiles: a value is kept at 3 significant figures (exact up to 999, then within 1 %), and a
// percentile is the nearest-rank value of that grid. Means and sums stay exact (buckets keep the sum).

/** Histogram cell -> count. Cells are the rounded values themselves (as strings, for JSON). */
export type Histogram = Map<number, number>

/** The grid value of `v` (rounded down to 3 significant figures; negative values count as 0). */
export function gridValue(v: number): number {
  if (!(v > 0)) return 0
  if (v < 1000) return Math.floor(v)
  const scale = 10 ** (Math.floor(Math.log10(v)) - 2)
  return Math.floor(v / scale) * scale
}

export function addToHistogram(h: Histogram, value: number, count = 1): void {
  const cell = gridValue(value)
  h.set(cell, (h.get(cell) ?? 0) + count)
}

export function mergeHistograms(into: Histogram, from: Histogram): void {
  for (const [cell, count] of from) into.set(cell, (into.get(cell) ?? 0) + count)
}

/** The nearest-rank `p`-th percentile (0 < p <= 100): the smallest grid value with at least p % of values at or below it. */
export function percentile(h: Histogram, p: number): number | null {
  let n = 0
  for (const count of h.values()) n += count
  if (n === 0) return null
  const rank = Math.ceil((p / 100) * n)
  let seen = 0
  for (const cell of [...h.keys()].sort((a, b) => a - b)) {
    seen += h.get(cell)!
    if (seen >= rank) return cell
  }
  return null
}

/** How many values are at or below `limit` (exact for whole limits up to 999). */
export function countAtMost(h: Histogram, limit: number): number {
  let n = 0
  for (const [cell, count] of h) if (cell <= limit) n += count
  return n
}

export function histogramText(h: Histogram): string {
  const cells = [...h.entries()].sort((a, b) => a[0] - b[0])
  return JSON.stringify(Object.fromEntries(cells))
}

export function parseHistogram(text: string): Histogram {
  const h: Histogram = new Map()
  for (const [cell, count] of Object.entries(JSON.parse(text) as Record<string, number>)) h.set(Number(cell), count)
  return h
}
