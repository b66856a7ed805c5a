// Business-hours schedules: their shape, and the check of one a client sent, naming the field at fault.
import { MINUTE_MS, parseLocalDate } from './civil-date.ts'
import { isTimeZone } from './zone-offset.ts'

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** Opening hours within one local day: 'HH:MM', `start` 00:00-23:59, `end` later and at most '24:00'. */
export interface OpeningInterval {
  start: string
  end: string
}

export interface Schedule {
  /** The IANA time zone whose wall clocks the opening hours and holidays are read on. */
  zone: string
  /** Each day's intervals, none overlapping; [] when closed. A night shift is 22:00-24:00 and 00:00-06:00 the next day. */
  weekly: Record<Weekday, OpeningInterval[]>
  /** Local dates 'YYYY-MM-DD' closed all day. */
  holidays: string[]
}

export type ScheduleCheck = { ok: true; schedule: Schedule } | { ok: false; field: string; message: string }

// Bounds on what a client may send: far above any real rota, low enough that a schedule stays cheap.
export const MAX_INTERVALS_PER_DAY = 48
export const MAX_HOLIDAYS = 5000

/** A schedule as computed with: by ISO weekday - 1, flat [start, end, ...] in ms after local midnight, in order. */
export interface CompiledSchedule {
  zone: string
  week: number[][]
  /** Local day numbers (days since 1970-01-01) closed all day. */
  holidays: Set<number>
}

const TIME = /^(\d{2}):(\d{2})$/

/** Minutes after midnight of 'HH:MM' (24:00 only as an end), or undefined. */
function minutesOf(text: unknown, end: boolean): number | undefined {
  const match = typeof text === 'string' ? TIME.exec(text) : null
  if (!match) return undefined
  const minutes = Number(match[1]) * 60 + Number(match[2])
  if (Number(match[2]) > 59 || minutes > 24 * 60 || (minutes === 24 * 60 && !end)) return undefined
  return minutes
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function unknownKey(value: Record<string, unknown>, known: readonly string[]): string | undefined {
  return Object.keys(value).find((key) => !known.includes(key))
}

// Schedules this module checked, with their compiled form: reused without checking again, which is safe as they
// are frozen (changing one throws a TypeError rather than leaving a stale compiled form).
const checked = new WeakMap<Schedule, CompiledSchedule>()

type Failure = { ok: false; field: string; message: string }
const fail = (field: string, message: string): Failure => ({ ok: false, field, message })

/** Checks a schedule from outside; on success a frozen copy, each day's intervals in order of start. */
export function checkSchedule(input: unknown): ScheduleCheck {
  if (!isRecord(input)) return fail('schedule', 'must be an object with zone, weekly and holidays')
  const extra = unknownKey(input, ['zone', 'weekly', 'holidays'])
  if (extra !== undefined) return fail(extra, 'is not a schedule field: zone, weekly, holidays')
  const { zone, weekly, holidays } = input
  if (typeof zone !== 'string' || !isTimeZone(zone)) return fail('zone', 'must be an IANA time zone, e.g. Europe/London')
  if (!isRecord(weekly)) return fail('weekly', 'must be an object with a list of intervals for each of mon, tue, wed, thu, fri, sat, sun')
  const extraDay = unknownKey(weekly, WEEKDAYS)
  if (extraDay !== undefined) return fail(`weekly.${extraDay}`, 'is not a day: mon, tue, wed, thu, fri, sat, sun')
  const week: number[][] = []
  const days = {} as Record<Weekday, OpeningInterval[]>
  for (const day of WEEKDAYS) {
    const checkedDay = checkDay(weekly[day], `weekly.${day}`)
    if (!Array.isArray(checkedDay)) return checkedDay
    const sorted = checkedDay.sort((a, b) => a.from - b.from)
    days[day] = Object.freeze(
      sorted.map(({ interval }) => Object.freeze({ start: interval.start, end: interval.end })),
    ) as OpeningInterval[]
    week.push(sorted.flatMap(({ from, to }) => [from * MINUTE_MS, to * MINUTE_MS]))
  }
  if (!Array.isArray(holidays)) return fail('holidays', "must be a list of local dates 'YYYY-MM-DD' ([] for none)")
  if (holidays.length > MAX_HOLIDAYS) return fail('holidays', `must have at most ${MAX_HOLIDAYS} dates`)
  const closed = new Set<number>()
  for (const [i, date] of holidays.entries()) {
    const day = typeof date === 'string' ? parseLocalDate(date) : undefined
    if (day === undefined) return fail(`holidays[${i}]`, "must be a real date 'YYYY-MM-DD'")
    closed.add(day)
  }
  const schedule: Schedule = Object.freeze({
    zone,
    weekly: Object.freeze(days),
    holidays: Object.freeze([...holidays]) as string[],
  })
  checked.set(schedule, { zone, week, holidays: closed })
  return { ok: true, schedule }
}

type Checked = { interval: OpeningInterval; from: number; to: number }

function checkDay(list: unknown, field: string): Checked[] | Failure {
  if (!Array.isArray(list)) return fail(field, 'must be a list of opening intervals { start, end } ([] when closed)')
  if (list.length > MAX_INTERVALS_PER_DAY) return fail(field, `must have at most ${MAX_INTERVALS_PER_DAY} intervals`)
  const done: Checked[] = []
  for (const [i, interval] of list.entries()) {
    const at = `${field}[${i}]`
    if (!isRecord(interval)) return fail(at, "must be an object { start: 'HH:MM', end: 'HH:MM' }")
    const extra = unknownKey(interval, ['start', 'end'])
    if (extra !== undefined) return fail(`${at}.${extra}`, 'is not an interval field: start, end')
    const from = minutesOf(interval.start, false)
    if (from === undefined) return fail(`${at}.start`, "must be a time 'HH:MM' from 00:00 to 23:59")
    const to = minutesOf(interval.end, true)
    if (to === undefined) return fail(`${at}.end`, "must be a time 'HH:MM' from 00:01 to 24:00")
    if (to <= from) return fail(`${at}.end`, `must be after start ${interval.start}: past midnight, end at 24:00 and go on the next day`)
    for (const [j, other] of done.entries()) {
      if (from < other.to && other.from < to) {
        const which = other.from <= from ? 'start' : 'end'
        return fail(`${at}.${which}`, `overlaps ${field}[${j}] (${other.interval.start}-${other.interval.end})`)
      }
    }
    done.push({ interval: { start: interval.start as string, end: interval.end as string }, from, to })
  }
  return done
}

/**
 * The compiled form of a schedule, kept by object. One not from checkSchedule (e.g. JSON read from the database)
 * is checked on first use (RangeError when invalid) and then frozen: a schedule is a value, and changing it after
 * use throws a TypeError instead of being silently ignored by the kept form.
 */
export function compileSchedule(schedule: Schedule): CompiledSchedule {
  const known = checked.get(schedule)
  if (known) return known
  const result = checkSchedule(schedule)
  if (!result.ok) throw new RangeError(`invalid schedule: ${result.field} ${result.message}`)
  for (const day of WEEKDAYS) {
    for (const interval of schedule.weekly[day]) Object.freeze(interval)
    Object.freeze(schedule.weekly[day])
  }
  Object.freeze(schedule.weekly)
  Object.freeze(schedule.holidays)
  Object.freeze(schedule)
  const compiled = checked.get(result.schedule)!
  checked.set(schedule, compiled)
  return compiled
}
