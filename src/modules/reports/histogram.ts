// Durations and scores as fixed-grid histograms, so the totals of any window add up to its percentiles:
// a value is kept in whole units up to 9,999 (2 h 46 min of seconds: every service-level threshold is
// exact), then at 4 significant figures (within 0.1 %); a percentile is the nearest-rank value of that
// grid. Means and sums stay exact (totals keep the sum). A histogram holds few cells as a map and turns
// into an array of every cell once it holds many: a year's sum adds hundreds of thousands of cells.

/** Cells of the grid kept in the array: 0..9,999, then 9,000 per decade up to 10^10. */
const GRID_CELLS = 10_000 + 6 * 9_000
/** How many cells a histogram holds as a map before it becomes an array. */
const ARRAY_FROM = 1_024

/** The grid value of `v` (whole, then rounded down to 4 significant figures; negative values count as 0). */
export function gridValue(v: number): number {
  if (!(v > 0)) return 0
  if (v < 10_000) return Math.floor(v)
  const scale = 10 ** (Math.floor(Math.log10(v)) - 3)
  return Math.floor(v / scale) * scale
}

/** A grid value's index: itself up to 9,999, then 10,000 + 9,000 per decade above 10^4 + its 4 digits - 1,000. */
function indexOf(cell: number): number {
  if (cell < 10_000) return cell
  const decade = Math.floor(Math.log10(cell)) - 3
  return 10_000 + (decade - 1) * 9_000 + (Math.round(cell / 10 ** decade) - 1_000)
}

function cellOf(index: number): number {
  if (index < 10_000) return index
  const decade = Math.floor((index - 10_000) / 9_000) + 1
  return (((index - 10_000) % 9_000) + 1_000) * 10 ** decade
}

/** Grid cell -> how many values. */
export class Histogram {
  /** Made on the first value: most sums of a grouped count never hold one. */
  private map: Map<number, number> | undefined
  private array: Float64Array | undefined
  /** Non-empty cells of the array. */
  private arrayCells = 0
  /** Cells past the array's grid (values of 317 years and more), kept apart. */
  private beyond: Map<number, number> | undefined

  /** Adds `count` (negative: takes out) values at the grid index `index`. */
  addIndex(index: number, count: number): void {
    const array = this.array
    if (array && index < GRID_CELLS) {
      const before = array[index]!
      const after = before + count
      array[index] = after
      if (before === 0 && after !== 0) this.arrayCells += 1
      else if (before !== 0 && after === 0) this.arrayCells -= 1
      return
    }
    const map = array ? (this.beyond ??= new Map()) : (this.map ??= new Map())
    const n = (map.get(index) ?? 0) + count
    if (n === 0) map.delete(index)
    else map.set(index, n)
    if (!array && map.size > ARRAY_FROM) this.toArray()
  }

  private toArray(): void {
    this.array = new Float64Array(GRID_CELLS)
    const map = this.map
    this.map = undefined
    if (map) for (const [index, count] of map) this.addIndex(index, count)
  }

  get empty(): boolean {
    return this.array ? this.arrayCells === 0 && (this.beyond?.size ?? 0) === 0 : (this.map?.size ?? 0) === 0
  }

  /** Calls `visit` with every non-empty cell, in no particular order (what adding up needs). */
  eachCell(visit: (index: number, count: number) => void): void {
    const array = this.array
    if (array && this.arrayCells > 0) for (let i = 0; i < GRID_CELLS; i++) if (array[i] !== 0) visit(i, array[i]!)
    const map = array ? this.beyond : this.map
    if (map) for (const [index, count] of map) visit(index, count)
  }

  /** Every non-empty cell as [index, count], by index. */
  entries(): [number, number][] {
    const out: [number, number][] = []
    const array = this.array
    if (array && this.arrayCells > 0) for (let i = 0; i < GRID_CELLS; i++) if (array[i] !== 0) out.push([i, array[i]!])
    const map = array ? this.beyond : this.map
    if (map && map.size > 0) for (const index of Float64Array.from(map.keys()).sort()) out.push([index, map.get(index)!])
    return out
  }
}

export function addToHistogram(h: Histogram, value: number, count = 1): void {
  h.addIndex(indexOf(gridValue(value)), count)
}

export function mergeHistograms(into: Histogram, from: Histogram): void {
  from.eachCell((index, count) => {
    into.addIndex(index, count)
  })
}

/** The nearest-rank `p`-th percentile (0 < p <= 100): the smallest grid value with at least p % of values at or below it. */
export function percentile(h: Histogram, p: number): number | null {
  return percentiles(h, [p])[0]!
}

/** Several percentiles of one histogram (ascending `ps`), in one pass over its cells. */
export function percentiles(h: Histogram, ps: readonly number[]): (number | null)[] {
  const cells = h.entries()
  let n = 0
  for (const [, count] of cells) n += count
  if (n === 0) return ps.map(() => null)
  const out: (number | null)[] = []
  let seen = 0
  let i = 0
  for (const p of ps) {
    const rank = Math.ceil((p / 100) * n)
    while (i < cells.length && seen + cells[i]![1] < rank) seen += cells[i++]![1]
    out.push(i < cells.length ? cellOf(cells[i]![0]) : null)
  }
  return out
}

/** How many values there are. */
export function countOf(h: Histogram): number {
  let n = 0
  h.eachCell((_, count) => {
    n += count
  })
  return n
}

/** How many values are at or below `limit` (exact for whole limits up to 9,999). */
export function countAtMost(h: Histogram, limit: number): number {
  let n = 0
  h.eachCell((index, count) => {
    if (cellOf(index) <= limit) n += count
  })
  return n
}

/**
 * As stored: base64 of little-endian 32-bit integers `index, count, index, count, …` by index (decoded
 * far faster than JSON). Stored totals never hold a negative count.
 */
export function histogramText(h: Histogram): string {
  const cells = h.entries()
  const ints = new Int32Array(cells.length * 2)
  cells.forEach(([index, count], i) => {
    ints[2 * i] = index
    ints[2 * i + 1] = count
  })
  return Buffer.from(ints.buffer).toString('base64')
}

export function parseHistogram(text: string): Histogram {
  const h = new Histogram()
  addHistogramText(h, text)
  return h
}

/** Adds a stored histogram to `into` without making a histogram of it first. */
export function addHistogramText(into: Histogram, text: string): void {
  if (text === '') return
  const bytes = Buffer.from(text, 'base64')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 0; at + 8 <= bytes.byteLength; at += 8) into.addIndex(view.getInt32(at, true), view.getInt32(at + 4, true))
}
