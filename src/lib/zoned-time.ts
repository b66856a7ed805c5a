// Report buckets in any IANA time zone: the local hour, day, ISO week or month holding an instant, and its label.
import { civilFromDays, DAY_MS, daysFromCivil, formatLocalDate, HOUR_MS, isoWeek, isoWeekday, pad2, padYear } from './civil-date.ts'
import { clockOf, type ZoneClock } from './zone-transitions.ts'

export { localDateToInstant, parseInstantOrDate } from './local-time.ts'
export { isQuarterAligned, isTimeZone, QUARTER_HOUR_MS, zoneOffsetMs } from './zone-offset.ts'
export { type OffsetSpan, offsetSpans } from './zone-transitions.ts'

/** Bucket sizes. Instants, here as everywhere in src/lib, are epoch milliseconds. */
export type Granularity = 'hour' | 'day' | 'week' | 'month'

/** The local wall-clock bounds [from, until) (ms, read as UTC) of the hour, day, week or month holding local time `wall`. */
function wallBucket(wall: number, granularity: Granularity): [number, number] {
  if (granularity === 'hour') {
    const from = Math.floor(wall / HOUR_MS) * HOUR_MS
    return [from, from + HOUR_MS]
  }
  const days = Math.floor(wall / DAY_MS)
  if (granularity === 'day') return [days * DAY_MS, (days + 1) * DAY_MS]
  if (granularity === 'week') {
    const monday = days - isoWeekday(days) + 1
    return [monday * DAY_MS, (monday + 7) * DAY_MS]
  }
  if (granularity !== 'month') throw new RangeError(`not a granularity: ${JSON.stringify(granularity)}`)
  const { year, month } = civilFromDays(days)
  const next = month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, month + 1, 1)
  return [daysFromCivil(year, month, 1) * DAY_MS, next * DAY_MS]
}

// A bucket is a stretch of time whose wall clock stays in one local hour, date, ISO week or month, so buckets cut
// time into pieces without gaps or overlaps. Days, weeks and months run across an offset change (23- and 25-hour
// days; a day whose midnight is skipped starts at 01:00); an hour ends at one, so the two 01:00 hours of a fall-back
// night are two buckets (labelled -04:00 and -05:00) and Australia/Lord_Howe's 30-minute change cuts an hour in two.
// (Only where clocks went back across midnight, as in St. John's before 2011, does a date come back after it ended:
// it is then a second bucket with the same label.)

function startIn({ offset, changes }: ZoneClock, instant: number, granularity: Granularity): number {
  const [from, until] = wallBucket(instant + offset(instant), granularity)
  for (let t = instant; ; ) {
    // The bucket's start if the offset in force at t held all along; else step back over the last change.
    const start = from - offset(t)
    const change = changes(start - 1, t).at(-1)
    if (change === undefined) return start
    const before = change - 1 + offset(change - 1)
    if (granularity === 'hour' || before < from || before >= until) return change
    t = change - 1
  }
}

function nextIn({ offset, changes }: ZoneClock, instant: number, granularity: Granularity): number {
  const [from, until] = wallBucket(instant + offset(instant), granularity)
  for (let t = instant; ; ) {
    const end = until - offset(t)
    const change = changes(t, end)[0]
    if (change === undefined) return end
    const after = change + offset(change)
    if (granularity === 'hour' || after < from || after >= until) return change
    t = change
  }
}

/** The instant at which the local hour, day, ISO week (from Monday) or month holding `instant` begins. */
export function bucketStart(zone: string, instant: number, granularity: Granularity): number {
  return startIn(clockOf(zone), instant, granularity)
}

export function startOfLocalDay(zone: string, instant: number): number {
  return startIn(clockOf(zone), instant, 'day')
}

/** The start of the bucket following the one holding `start` (usually itself a bucket start). */
export function nextBucketStart(zone: string, start: number, granularity: Granularity): number {
  return nextIn(clockOf(zone), start, granularity)
}

/** The starts of every bucket meeting [from, to), the first possibly before `from`; empty when to <= from. Unbounded: the caller limits the span. */
export function bucketsBetween(zone: string, from: number, to: number, granularity: Granularity): number[] {
  const clock = clockOf(zone)
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError(`not a span: ${from} to ${to}`)
  const starts: number[] = []
  if (to <= from) return starts
  for (let start = startIn(clock, from, granularity); start < to; start = nextIn(clock, start, granularity)) starts.push(start)
  return starts
}

/** '+05:45', '-04:00', '+00:00'; seconds only for the historic offsets that have them ('+05:53:28'). */
function formatOffset(offset: number): string {
  const abs = Math.abs(offset) / 1000
  const seconds = abs % 60
  const text = `${offset < 0 ? '-' : '+'}${pad2(Math.floor(abs / 3600))}:${pad2(Math.floor(abs / 60) % 60)}`
  return seconds === 0 ? text : `${text}:${pad2(seconds)}`
}

/**
 * The bucket's ISO label in local time: hour '2026-03-08T03:00-04:00' (its start: local date-time and offset, so
 * the two 01:00 hours of a fall-back night differ), day '2026-03-08', week '2026-W10' (ISO week-year), month '2026-03'.
 */
export function localLabel(zone: string, instant: number, granularity: Granularity): string {
  const clock = clockOf(zone)
  const { offset } = clock
  if (granularity === 'hour') {
    const start = startIn(clock, instant, 'hour')
    const current = offset(start)
    const days = Math.floor((start + current) / DAY_MS)
    const seconds = Math.floor((start + current - days * DAY_MS) / 1000)
    const time = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}`
    return `${formatLocalDate(days)}T${seconds % 60 === 0 ? time : `${time}:${pad2(seconds % 60)}`}${formatOffset(current)}`
  }
  const days = Math.floor((instant + offset(instant)) / DAY_MS)
  if (granularity === 'day') return formatLocalDate(days)
  if (granularity === 'week') {
    const { year, week } = isoWeek(days)
    return `${padYear(year)}-W${pad2(week)}`
  }
  const { year, month } = civilFromDays(days)
  return `${padYear(year)}-${pad2(month)}`
}
