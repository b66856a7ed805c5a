// The cover of a window by day and hour totals and facts (spans.ts): checked quarter hour by quarter hour
// against the definition (every instant read exactly once, no total across a group's edge, an hour total
// wherever a whole hour fits beside the day totals), for random windows, cuts and zones, and on two hand-worked windows.
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { bucketsBetween } from '../../../src/lib/zoned-time.ts'
import { coverOf, daySpan, HOUR_SPAN, inRanges, type Span, spansOf } from '../../../src/modules/reports/spans.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const Q = 900_000
const iso = (ms: number) => new Date(ms).toISOString()

describe('a window covered by totals and facts', () => {
  test('90 days in New York from mid-afternoon: two partial days in hours, the rest in days, minutes in facts', () => {
    const from = Date.UTC(2026, 0, 10, 20, 10)
    const to = from + 90 * DAY
    const cover = coverOf(from, to, [], spansOf('America/New_York'))
    // New York is at -5 in January and -4 from 8 March: its midnights are 05:00 and 04:00 UTC.
    expect(cover.totals.get('day')!.map(([a, b]) => [iso(a), iso(b)])).toEqual([['2026-01-11T05:00:00.000Z', '2026-04-10T04:00:00.000Z']])
    expect(cover.totals.get('hour')!.map(([a, b]) => [iso(a), iso(b)])).toEqual([
      ['2026-01-10T21:00:00.000Z', '2026-01-11T05:00:00.000Z'],
      ['2026-04-10T04:00:00.000Z', '2026-04-10T20:00:00.000Z'],
    ])
    expect(cover.facts.map(([a, b]) => [iso(a), iso(b)])).toEqual([
      ['2026-01-10T20:10:00.000Z', '2026-01-10T21:00:00.000Z'],
      ['2026-04-10T20:00:00.000Z', '2026-04-10T20:10:00.000Z'],
    ])
  })

  test('a daily series in Kolkata with day totals in Kolkata: only days; in UTC: only hours', () => {
    const from = Date.UTC(2026, 2, 1) - 5.5 * HOUR
    const to = from + 7 * DAY
    const cuts = bucketsBetween('Asia/Kolkata', from, to, 'day')
    const kolkata = coverOf(from, to, cuts, spansOf('Asia/Kolkata'))
    expect([kolkata.totals.get('day'), kolkata.totals.get('hour'), kolkata.facts]).toEqual([[[from, to]], [], []])
    // Kolkata's days begin at 18:30 UTC: no UTC day fits, the hours between do, and a half hour at each end is facts.
    const utc = coverOf(from, to, cuts, spansOf('UTC'))
    expect(utc.totals.get('day')).toEqual([])
    expect(utc.facts[0]).toEqual([from, from + 30 * 60_000])
    expect(utc.facts.length).toBe(7 + 1)
  })
})

const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe']

test('random windows, cuts and zones: every quarter hour read once, no total across a cut, whole totals used', () => {
  const base = Date.UTC(2026, 2, 1)
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 40 * 96 }),
      fc.integer({ min: 1, max: 20 * 96 }),
      fc.constantFrom(...ZONES),
      fc.constantFrom(...ZONES),
      fc.constantFrom('hour' as const, 'day' as const, 'week' as const),
      (startQ, widthQ, dayZone, seriesZone, granularity) => {
        const from = base + startQ * Q
        const to = from + widthQ * Q
        const cuts = bucketsBetween(seriesZone, from, to, granularity)
        const spans = spansOf(dayZone)
        const cover = coverOf(from, to, cuts, spans)
        const groupOf = (t: number) => cuts.filter((c) => c <= t).at(-1) ?? from
        const bySpan = new Map<string, Span>([
          ['day', daySpan(dayZone)],
          ['hour', HOUR_SPAN],
        ])
        for (let t = from; t < to; t += Q) {
          const inTotals = [...cover.totals].filter(([, ranges]) => inRanges(ranges, t)).map(([name]) => name)
          const read = inTotals.length + (inRanges(cover.facts, t) ? 1 : 0)
          expect({ at: iso(t), read }).toEqual({ at: iso(t), read: 1 })
          const name = inTotals[0]
          if (name === undefined) {
            // Facts only where no whole hour fits inside the quarter's group beside the day totals.
            const hour = HOUR_SPAN.startOf(t)
            const days = cover.totals.get('day')!
            const whole =
              hour >= from &&
              hour + HOUR <= to &&
              groupOf(hour) === groupOf(t) &&
              groupOf(hour + HOUR - 1) === groupOf(t) &&
              !inRanges(days, hour) &&
              !inRanges(days, hour + HOUR - 1)
            expect({ at: iso(t), wholeHourFits: whole }).toEqual({ at: iso(t), wholeHourFits: false })
            continue
          }
          const span = bySpan.get(name)!
          const start = span.startOf(t)
          const end = span.next(start)
          expect({ at: iso(t), total: [iso(start), iso(end)], inside: start >= from && end <= to }).toEqual({
            at: iso(t),
            total: [iso(start), iso(end)],
            inside: true,
          })
          expect({ at: iso(t), sameGroup: groupOf(start) === groupOf(end - 1) }).toEqual({ at: iso(t), sameGroup: true })
        }
      },
    ),
    { numRuns: 150 },
  )
})
