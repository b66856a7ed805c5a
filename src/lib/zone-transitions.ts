// Where a zone's offset changes between two instants: its transitions, found from the cached offsets and kept.
import { DAY_MS } from './civil-date.ts'
import { offsetsOf, QUARTER_HOUR_MS } from './zone-offset.ts'

type Offset = (instant: number) => number

/** The first instant in (lo, hi] whose offset differs from lo's, given that hi's does and one change lies between. */
export function findTransition(offset: Offset, lo: number, hi: number): number {
  const before = offset(lo)
  // Bisect on the quarter-hour grid first: today's transitions all lie on it, and its offsets are cached.
  const first = Math.floor(lo / QUARTER_HOUR_MS) + 1
  const last = Math.ceil(hi / QUARTER_HOUR_MS) - 1
  let left = first - 1
  let right = last + 1
  while (right - left > 1) {
    const mid = left + Math.floor((right - left) / 2)
    if (offset(mid * QUARTER_HOUR_MS) === before) left = mid
    else right = mid
  }
  let a = left < first ? lo : left * QUARTER_HOUR_MS
  let b = right > last ? hi : right * QUARTER_HOUR_MS
  if (b - a > 1 && offset(b - 1) === before) return b
  // A change between quarters: local mean time, or a caller's instant that is not on the grid.
  while (b - a > 1) {
    const mid = a + Math.floor((b - a) / 2)
    if (offset(mid) === before) a = mid
    else b = mid
  }
  return b
}

// Transitions are kept by 256-day window, so a month-long bucket costs a lookup of them, not a scan of its days.
const WINDOW_DAYS = 256
const WINDOW_MS = WINDOW_DAYS * DAY_MS
const EDGE = 8.64e15 - DAY_MS
const MAX_ZONES = 200
const MAX_WINDOWS = 400

export interface ZoneClock {
  offset: Offset
  /** The instants in (lo, hi] at which the offset changes, in order. */
  changes(lo: number, hi: number): number[]
}

const clocks = new Map<string, ZoneClock>()

/** A zone's offsets and transitions. Throws RangeError on a bad zone. */
export function clockOf(zone: string): ZoneClock {
  const known = clocks.get(zone)
  if (known) return known
  const offset = offsetsOf(zone)
  const windows = new Map<number, number[]>()
  // Window i holds the changes in (i * WINDOW_MS, (i + 1) * WINDOW_MS], probed a UTC day apart: the offset cache
  // already assumes no zone changes and changes back within a day.
  const inWindow = (index: number): number[] => {
    const cached = windows.get(index)
    if (cached) return cached
    const found: number[] = []
    for (let day = 0; day < WINDOW_DAYS; day++) {
      const lo = index * WINDOW_MS + day * DAY_MS
      if (Math.abs(lo) < EDGE && offset(lo) !== offset(lo + DAY_MS)) found.push(findTransition(offset, lo, lo + DAY_MS))
    }
    if (windows.size >= MAX_WINDOWS) windows.clear()
    windows.set(index, found)
    return found
  }
  const clock: ZoneClock = {
    offset,
    changes(lo, hi) {
      const found: number[] = []
      for (let i = Math.floor(lo / WINDOW_MS); i <= Math.ceil(hi / WINDOW_MS) - 1; i++)
        for (const change of inWindow(i)) if (lo < change && change <= hi) found.push(change)
      return found
    },
  }
  if (clocks.size >= MAX_ZONES) clocks.clear()
  clocks.set(zone, clock)
  return clock
}

export interface OffsetSpan {
  start: number
  end: number
  offset: number
}

/** [from, to) cut where the offset changes: within each span, local time is UTC plus one offset. */
export function offsetSpans(zone: string, from: number, to: number): OffsetSpan[] {
  const { offset, changes } = clockOf(zone)
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError(`not a span: ${from} to ${to}`)
  const spans: OffsetSpan[] = []
  let start = from
  for (const change of changes(from, to)) {
    if (change >= to) break
    spans.push({ start, end: change, offset: offset(start) })
    start = change
  }
  if (start < to) spans.push({ start, end: to, offset: offset(start) })
  return spans
}
