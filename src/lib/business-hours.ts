// Business time: how much of a span falls within a schedule's opening hours, on the wall clocks of its zone.
import { compileSchedule, type Schedule } from './business-schedule.ts'
import { DAY_MS, isoWeekday } from './civil-date.ts'
import { offsetsOf } from './zone-offset.ts'
import { offsetSpans } from './zone-transitions.ts'

export {
  checkSchedule,
  MAX_HOLIDAYS,
  MAX_INTERVALS_PER_DAY,
  type OpeningInterval,
  type Schedule,
  type ScheduleCheck,
  WEEKDAYS,
  type Weekday,
} from './business-schedule.ts'

/**
 * Milliseconds of [from, to) during which the schedule is open: the measure of the instants whose local
 * wall-clock time falls in an opening interval of a working day. So on the spring-forward night 01:00-03:00 counts
 * 1 h, and on the fall-back night 01:00-02:00 counts 2 h. 0 when to <= from.
 */
export function businessMs(schedule: Schedule, from: number, to: number): number {
  const { zone, week, holidays } = compileSchedule(schedule)
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new RangeError(`not a span: ${from} to ${to}`)
  let total = 0
  if (to <= from) return total
  // Within a span of one offset, local time is UTC plus that offset: lengths of local time are lengths of real
  // time, so each local day's intervals can be clipped to the span and added up, a day at a time.
  for (const { start, end, offset } of offsetSpans(zone, from, to)) {
    const lo = start + offset
    const hi = end + offset
    for (let day = Math.floor(lo / DAY_MS); day * DAY_MS < hi; day++) {
      if (holidays.has(day)) continue
      const midnight = day * DAY_MS
      const intervals = week[isoWeekday(day) - 1]!
      for (let i = 0; i < intervals.length; i += 2) {
        const overlap = Math.min(hi, midnight + intervals[i + 1]!) - Math.max(lo, midnight + intervals[i]!)
        if (overlap > 0) total += overlap
      }
    }
  }
  return total
}

/** Whether the schedule is open at `instant`: its local time lies in an interval of its local date, not a holiday. */
export function isOpen(schedule: Schedule, instant: number): boolean {
  const { zone, week, holidays } = compileSchedule(schedule)
  const wall = instant + offsetsOf(zone)(instant)
  const day = Math.floor(wall / DAY_MS)
  if (holidays.has(day)) return false
  const time = wall - day * DAY_MS
  const intervals = week[isoWeekday(day) - 1]!
  for (let i = 0; i < intervals.length; i += 2) if (intervals[i]! <= time && time < intervals[i + 1]!) return true
  return false
}
