// Durations and scores as fixed-grid histograms, so the 15-minute buckets of any window add up to its
// percentiles: a value is kept in whole units up to 9,999 (2 h 46 min of seconds: every service-level
// threshold is exact), then at 4 significant figures (within 0.1 %); a percentile is the nearest-rank
// value of that grid. Means and sums stay exact (buckets keep the sum).

/** Histogram cell -> count. Cells are the rounded values themselves; stored as a flat JSON array (histogramText). */
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
  return percentiles(h, [p])[0]!
}

/** Several percentiles of one histogram (ascending `ps`), its cells sorted once. */
export function percentiles(h: Histogram, ps: readonly number[]): (number | null)[] {
  let n = 0
  for (const count of h.values()) n += count
  if (n === 0) return ps.map(() => null)
  // A typed array sorts numbers natively: a year's histogram can hold some 20,000 cells.
  const cells = Float64Array.from(h.keys()).sort()
  const out: (number | null)[] = []
  let seen = 0
  let i = 0
  for (const p of ps) {
    const rank = Math.ceil((p / 100) * n)
    while (i < cells.length && seen + h.get(cells[i]!)! < rank) seen += h.get(cells[i++]!)!
    out.push(i < cells.length ? cells[i]! : null)
  }
  return out
}

/** How many values are at or below `limit` (exact for whole limits up to 9,999). */
export function countAtMost(h: Histogram, limit: number): number {
  let n = 0
  for (const [cell, count] of h) if (cell <= limit) n += count
  return n
}

/** As stored: `[cell, count, cell, count, …]` by cell (a flat array of numbers parses fast). */
export function histogramText(h: Histogram): string {
  const flat: number[] = []
  for (const cell of Float64Array.from(h.keys()).sort()) flat.push(cell, h.get(cell)!)
  return JSON.stringify(flat)
}

export function parseHistogram(text: string): Histogram {
  const h: Histogram = new Map()
  addHistogramText(h, text)
  return h
}

/** Adds a stored histogram to `into` without making a histogram of it first. */
export function addHistogramText(into: Histogram, text: string): void {
  if (text === '[]') return
  const flat = JSON.parse(text) as number[]
  for (let i = 0; i < flat.length; i += 2) addToCell(into, flat[i]!, flat[i + 1]!)
}
