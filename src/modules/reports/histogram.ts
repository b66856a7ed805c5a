// Durations and scores as fixed-grid histograms, so the 15-minute buckets of any window add up to its
// percentiles: a value is kept in whole units up to 9,999 (2 h 46 min of seconds: every service-level
// threshold is exact), then at 4 significant figures (within 0.1 %); a percentile is the nearest-rank
// value of that grid. Means and sums stay exact (buckets keep the sum).

/** Histogram cell -> count. Cells are the rounded values themselves (as strings, for JSON). */
export type Histogram = Map<number, number>

/** The grid value of `v` (whole, then rounded down to 4 significant figures; negative values count as 0). */
export function gridValue(v: number): number {
  if (!(v > 0)) return 0
  if (v < 10_000) return Math.floor(v)
  const scale = 10 ** (Math.floor(Math.log10(v)) - 3)
  return Math.floor(v / scale) * scale
}

export function addToHistogram(h: Histogram, value: number, count = 1): void {
  addToCell(h, gridValue(value), count)
}

/** A cell back at 0 (a value taken out) leaves the histogram. */
function addToCell(h: Histogram, cell: number, count: number): void {
  const n = (h.get(cell) ?? 0) + count
  if (n === 0) h.delete(cell)
  else h.set(cell, n)
}

export function mergeHistograms(into: Histogram, from: Histogram): void {
  for (const [cell, count] of from) addToCell(into, cell, count)
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

/** How many values are at or below `limit` (exact for whole limits up to 9,999). */
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
