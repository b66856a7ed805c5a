// The spans the fold keeps totals for (UTC hours, and days in the organization's zone as it was when
// the totals were first made), and how a window cut at its groups' edges is covered by the fewest totals:
// whole days, then whole hours, then stored facts for what neither covers (parts of an hour at the edges).
import { startOfLocalDay, nextBucketStart } from '../../lib/zoned-time.ts'

const HOUR_MS = 3_600_000

export type SpanName = 'hour' | 'day'

export interface Span {
  readonly name: SpanName
  /** The start of the span holding `instant`. */
  startOf(instant: number): number
  /** The start of the span after the one starting at `start`. */
  next(start: number): number
}

export const HOUR_SPAN: Span = {
  name: 'hour',
  startOf: (instant) => Math.floor(instant / HOUR_MS) * HOUR_MS,
  next: (start) => start + HOUR_MS,
}

export function daySpan(zone: string): Span {
  return { name: 'day', startOf: (instant) => startOfLocalDay(zone, instant), next: (start) => nextBucketStart(zone, start, 'day') }
}

/** Every span the fold adds a fact to, coarsest first. */
export const spansOf = (dayZone: string): readonly Span[] => [daySpan(dayZone), HOUR_SPAN]

/** Time ranges to read: the totals of a span starting in [from, to), or facts in [from, to). */
export interface Cover {
  readonly totals: Map<SpanName, Array<[number, number]>>
  readonly facts: Array<[number, number]>
}

/**
 * The cover of [from, to) cut at `cuts` (the groups' starts): no total read crosses a cut, so every total
 * falls in one group; adjacent ranges are merged.
 */
export function coverOf(from: number, to: number, cuts: readonly number[], spans: readonly Span[]): Cover {
  const cover: Cover = { totals: new Map(spans.map((span) => [span.name, []])), facts: [] }
  const edges = [from, ...cuts.filter((cut) => cut > from && cut < to).sort((a, b) => a - b), to]
  for (let i = 0; i + 1 < edges.length; i++) coverSegment(edges[i]!, edges[i + 1]!, spans, cover)
  return cover
}

function coverSegment(a: number, b: number, spans: readonly Span[], cover: Cover): void {
  if (a >= b) return
  const [span, ...finer] = spans
  if (!span) {
    append(cover.facts, a, b)
    return
  }
  const startA = span.startOf(a)
  const first = startA === a ? a : span.next(startA)
  const last = span.startOf(b)
  if (first >= last) {
    coverSegment(a, b, finer, cover)
    return
  }
  coverSegment(a, first, finer, cover)
  append(cover.totals.get(span.name)!, first, last)
  coverSegment(last, b, finer, cover)
}

function append(ranges: Array<[number, number]>, from: number, to: number): void {
  const previous = ranges.at(-1)
  if (previous && previous[1] === from) previous[1] = to
  else ranges.push([from, to])
}

/** Whether `instant` lies in one of the (sorted, disjoint) ranges. */
export function inRanges(ranges: readonly (readonly [number, number])[], instant: number): boolean {
  let lo = 0
  let hi = ranges.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [from, to] = ranges[mid]!
    if (instant < from) hi = mid - 1
    else if (instant >= to) lo = mid + 1
    else return true
  }
  return false
}
