// Tests of src/lib/zoned-time.ts: hand-computed offsets, buckets, labels and parses, then a brute-force comparison.
import { describe, expect, spyOn, test } from 'bun:test'
import type { Granularity } from '../../src/lib/zoned-time.ts'
import * as zt from '../../src/lib/zoned-time.ts'
import { ACCEPTED, BUCKETS, OFFSETS, REFUSED } from './zoned-time.cases.ts'
import { bruteBucketStart, bruteNextStart, bruteTransitions, seeded } from './zoned-brute.ts'

const at = (iso: string) => Date.parse(iso)
const iso = (instant: number) => new Date(instant).toISOString()

describe('zones and offsets', () => {
  test.each(['UTC', 'utc', 'America/New_York', 'Asia/Kathmandu', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'Asia/Calcutta'])(
    '%p is a time zone',
    (name) => expect(zt.isTimeZone(name)).toBe(true),
  )
  test.each(['', 'Mars/Olympus_Mons', '+05:30', '-04:00', 'GMT+5', 'Z', 'America/New York', ' UTC', 'UTC/', 'America/../UTC'])(
    '%p is not',
    (name) => expect(zt.isTimeZone(name)).toBe(false),
  )

  test('a bad zone or instant throws RangeError', () => {
    expect(() => zt.zoneOffsetMs('+05:30', 0)).toThrow(RangeError)
    expect(() => zt.bucketStart('Mars/Base', 0, 'day')).toThrow(RangeError)
    expect(() => zt.zoneOffsetMs('UTC', Number.NaN)).toThrow(RangeError)
    expect(() => zt.bucketStart('UTC', 0, 'year' as Granularity)).toThrow(RangeError)
  })

  test.each(OFFSETS)('%s at %s: %d', (zone, when, offset) => expect(zt.zoneOffsetMs(zone, at(when))).toBe(offset))

  test('quarter hours', () => {
    expect(zt.QUARTER_HOUR_MS).toBe(900_000)
    expect([at('2026-03-08T07:15:00Z'), 0, -900_000].every(zt.isQuarterAligned)).toBe(true)
    expect([at('2026-03-08T07:15:01Z'), 1, 450_000, 0.5, Number.NaN].some(zt.isQuarterAligned)).toBe(false)
  })
})

describe('buckets', () => {
  test.each(BUCKETS)('%s %s %s', (zone, when, granularity, start, next, label) => {
    const instant = at(when)
    expect(iso(zt.bucketStart(zone, instant, granularity))).toBe(iso(at(start)))
    expect(iso(zt.nextBucketStart(zone, at(start), granularity))).toBe(iso(at(next)))
    expect(zt.localLabel(zone, instant, granularity)).toBe(label)
    if (granularity === 'day') expect(zt.startOfLocalDay(zone, instant)).toBe(at(start))
  })

  test('the hours of a 23-hour and a 25-hour day', () => {
    const hours = (zone: string, from: string, to: string) => zt.bucketsBetween(zone, at(from), at(to), 'hour')
    const spring = hours('America/New_York', '2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z')
    expect(spring.length).toBe(23)
    expect(spring.slice(0, 3).map((h) => zt.localLabel('America/New_York', h, 'hour'))).toEqual([
      '2026-03-08T00:00-05:00',
      '2026-03-08T01:00-05:00',
      '2026-03-08T03:00-04:00',
    ])
    expect(hours('America/New_York', '2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z').length).toBe(25)
    const lordHowe = hours('Australia/Lord_Howe', '2026-04-04T13:00:00Z', '2026-04-04T16:00:00Z')
    expect(lordHowe.map(iso)).toEqual([
      '2026-04-04T13:00:00.000Z',
      '2026-04-04T14:00:00.000Z',
      '2026-04-04T15:00:00.000Z',
      '2026-04-04T15:30:00.000Z',
    ])
  })

  test('bucketsBetween: every bucket meeting [from, to), the first from before `from`', () => {
    const weeks = zt.bucketsBetween('UTC', at('2026-12-20T00:00:00Z'), at('2027-01-10T00:00:00Z'), 'week')
    expect(weeks.map((w) => zt.localLabel('UTC', w, 'week'))).toEqual(['2026-W51', '2026-W52', '2026-W53', '2027-W01'])
    expect(iso(weeks[0]!)).toBe('2026-12-14T00:00:00.000Z')
    const months = zt.bucketsBetween('America/New_York', at('2026-01-15T00:00:00Z'), at('2026-04-01T04:00:00Z'), 'month')
    expect(months.map(iso)).toEqual(['2026-01-01T05:00:00.000Z', '2026-02-01T05:00:00.000Z', '2026-03-01T05:00:00.000Z'])
    expect(zt.bucketsBetween('UTC', 5, 5, 'day')).toEqual([])
    expect(zt.bucketsBetween('UTC', 6, 5, 'day')).toEqual([])
    expect(() => zt.bucketsBetween('UTC', 0, Number.POSITIVE_INFINITY, 'day')).toThrow(RangeError)
    expect(zt.bucketsBetween('Asia/Kathmandu', at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'day').length).toBe(366)
  })
})

describe('parsing', () => {
  test.each(ACCEPTED)('%s: %s is %s', (zone, text, expected) => {
    expect(iso(zt.parseInstantOrDate(zone, text)!)).toBe(expected)
  })

  test.each(REFUSED)('%p is refused', (text) => {
    expect(zt.parseInstantOrDate('America/New_York', text)).toBeUndefined()
  })

  test('localDateToInstant', () => {
    expect(iso(zt.localDateToInstant('Asia/Beirut', '2026-03-29')!)).toBe('2026-03-28T22:00:00.000Z')
    expect(iso(zt.localDateToInstant('Asia/Beirut', '2026-10-25')!)).toBe('2026-10-24T22:00:00.000Z')
    expect(iso(zt.localDateToInstant('America/Havana', '2026-11-01')!)).toBe('2026-11-01T04:00:00.000Z')
    expect(zt.localDateToInstant('UTC', '2026-02-29')).toBeUndefined()
    expect(zt.localDateToInstant('UTC', '2026-03-08T00:00:00Z')).toBeUndefined()
  })
})

// Random instants, half of them within two days of a DST change, against a walk on Intl's wall clock.
describe('against brute force', () => {
  const zones = [
    'UTC',
    'America/New_York',
    'Europe/London',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/Santiago',
    'Asia/Beirut',
    'America/Havana',
    'America/Sao_Paulo',
    'Africa/Casablanca',
    'Antarctica/Troll',
    'Asia/Tehran',
    'Pacific/Apia',
  ]
  const granularities: Granularity[] = ['hour', 'hour', 'day', 'day', 'day', 'week', 'month']

  test('bucketStart, nextBucketStart and bucketsBetween', () => {
    const random = seeded(20260308)
    for (let i = 0; i < 160; i++) {
      const zone = random.pick(zones)
      const granularity = random.pick(granularities)
      const transitions = random.next() < 0.5 ? bruteTransitions(zone, random.int(1990, 2040)) : []
      const instant =
        transitions.length > 0
          ? random.pick(transitions) + random.int(-2 * 86_400_000, 2 * 86_400_000)
          : random.int(Date.UTC(1990, 0, 1), Date.UTC(2040, 0, 1))
      const label = `${zone} ${granularity} ${iso(instant)}`
      const start = zt.bucketStart(zone, instant, granularity)
      expect(`${label}: ${iso(start)}`).toBe(`${label}: ${iso(bruteBucketStart(zone, instant, granularity))}`)
      const next = zt.nextBucketStart(zone, start, granularity)
      expect(`${label}: next ${iso(next)}`).toBe(`${label}: next ${iso(bruteNextStart(zone, instant, granularity))}`)
      expect(zt.bucketStart(zone, next - 1, granularity)).toBe(start)
      expect(zt.bucketStart(zone, next, granularity)).toBe(next)
      expect(zt.bucketsBetween(zone, instant, next, granularity)).toEqual([start])
    }
  }, 30_000)
})

// Speed is measured by test/bench/zoned-time.ts; this checks, without timing, what makes it: the cache answers.
test('100,000 bucket starts 15 minutes apart ask Intl a few thousand times, then never', () => {
  const spy = spyOn(Intl.DateTimeFormat.prototype, 'formatToParts')
  try {
    const from = Date.UTC(2024, 0, 1)
    const starts = () => {
      for (let i = 0; i < 100_000; i++) zt.bucketStart('Europe/Paris', from + i * zt.QUARTER_HOUR_MS, 'day')
    }
    starts()
    const cold = spy.mock.calls.length
    expect(cold).toBeLessThan(5_000)
    starts()
    expect(spy.mock.calls.length).toBe(cold)
  } finally {
    spy.mockRestore()
  }
})
