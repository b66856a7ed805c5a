// From a zone's local wall-clock time to instants, and the strict reading of report bounds (RFC 3339 or a local date).
import { DAY_MS, HOUR_MS, MINUTE_MS, parseLocalDate } from './civil-date.ts'
import { offsetsOf } from './zone-offset.ts'

/**
 * The first instant at which the zone's clocks read `wall` (a local date-time written as if it were UTC, in ms):
 * when clocks go back over it, the earlier of the two; when they jump over it, the first instant after the jump
 * (America/Santiago on 2026-09-06 starts at 01:00: its midnight never happens).
 */
export function wallToInstant(offset: (instant: number) => number, wall: number): number {
  // The instant lies within 16 hours of `wall` (no offset ever exceeded that): the offsets a day either side
  // are the ones in force before and after any change near it.
  const before = offset(wall - DAY_MS)
  const after = offset(wall + DAY_MS)
  if (before === after) return wall - before
  const earlier = wall - Math.max(before, after)
  const later = wall - Math.min(before, after)
  if (earlier + offset(earlier) === wall) return earlier
  if (later + offset(later) === wall) return later
  // In the gap the clocks jump over: find the first instant whose local time is at or past `wall`.
  let lo = earlier
  let hi = later
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2)
    if (mid + offset(mid) >= wall) hi = mid
    else lo = mid
  }
  return hi
}

/** The instant the local date 'YYYY-MM-DD' begins in `zone` (see wallToInstant), or undefined for a malformed or impossible date. */
export function localDateToInstant(zone: string, date: string): number | undefined {
  const offset = offsetsOf(zone)
  const days = typeof date === 'string' ? parseLocalDate(date) : undefined
  return days === undefined ? undefined : wallToInstant(offset, days * DAY_MS)
}

// RFC 3339 section 5.6 with a required offset ('T' and 'Z' in either case); leap seconds (:60) are refused, as
// epoch milliseconds cannot hold them. Fractions beyond milliseconds are cut, not rounded (never into the next ms).
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/**
 * A report bound: an RFC 3339 date-time with an offset or Z, or a plain 'YYYY-MM-DD' meaning the start of that
 * day in `zone`. Undefined for anything else, impossible fields included (month 13, 30 February, 24:00).
 */
export function parseInstantOrDate(zone: string, text: string): number | undefined {
  const offset = offsetsOf(zone)
  if (typeof text !== 'string') return undefined
  const date = parseLocalDate(text)
  if (date !== undefined) return wallToInstant(offset, date * DAY_MS)
  const match = DATE_TIME.exec(text)
  if (!match) return undefined
  const days = parseLocalDate(match[1]!)
  const [hour, minute, second, offsetHours, offsetMinutes] = [2, 3, 4, 7, 8].map((i) => Number(match[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ]
  if (days === undefined || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined
  const fraction = Number((match[5] ?? '').slice(0, 3).padEnd(3, '0'))
  const sign = match[6] === '-' ? -1 : 1
  const wall = days * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + fraction
  return wall - sign * (offsetHours * HOUR_MS + offsetMinutes * MINUTE_MS)
}
