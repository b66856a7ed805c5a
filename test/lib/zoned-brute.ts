// Brute-force references for the zoned-time and business-hours tests (straight Intl, no cache), and a seeded random source.

const QUARTER = 900_000
const formats = new Map<string, Intl.DateTimeFormat>()

export interface Wall {
  /** 'YYYY-MM-DD' */
  date: string
  year: number
  month: number
  day: number
  hour: number
  minute: number
  /** 'mon' ... 'sun' */
  weekday: string
  /** 'GMT+05:45', 'GMT' for zero */
  offset: string
}

/** The zone's wall clock at `instant`, as Intl prints it. */
export function wallOf(zone: string, instant: number): Wall {
  let format = formats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      timeZoneName: 'longOffset',
    })
    formats.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]))
  const date = `${parts.year}-${parts.month}-${parts.day}`
  const [year, month, day, hour, minute] = [parts.year, parts.month, parts.day, parts.hour, parts.minute].map(Number) as number[]
  return {
    date,
    year: year!,
    month: month!,
    day: day!,
    hour: hour!,
    minute: minute!,
    weekday: parts.weekday!.toLowerCase(),
    offset: parts.timeZoneName!,
  }
}

/** ISO week 'YYYY-Www' of a calendar date, the textbook way (move to the Thursday, count from 1 January). */
export function isoWeekLabel(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(2000, 0, 1))
  d.setUTCFullYear(year, month - 1, day)
  d.setUTCDate(d.getUTCDate() + 4 - (d.getUTCDay() || 7))
  const start = new Date(Date.UTC(2000, 0, 1))
  start.setUTCFullYear(d.getUTCFullYear(), 0, 1)
  const week = Math.ceil(((d.getTime() - start.getTime()) / 86_400_000 + 1) / 7)
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`
}

export type Granularity = 'hour' | 'day' | 'week' | 'month'

/** What makes two instants share a bucket: local date and hour and offset; date; ISO week; year and month. */
export function bucketKey(zone: string, instant: number, granularity: Granularity): string {
  const w = wallOf(zone, instant)
  if (granularity === 'hour') return `${w.date}T${w.hour} ${w.offset}`
  if (granularity === 'day') return w.date
  if (granularity === 'week') return isoWeekLabel(w.year, w.month, w.day)
  return w.date.slice(0, 7)
}

// Walking a quarter hour at a time is exact since 1986: every offset and transition is a whole quarter hour.
export function bruteBucketStart(zone: string, instant: number, granularity: Granularity): number {
  const key = bucketKey(zone, instant, granularity)
  let start = Math.floor(instant / QUARTER) * QUARTER
  while (bucketKey(zone, start - QUARTER, granularity) === key) start -= QUARTER
  return start
}

export function bruteNextStart(zone: string, instant: number, granularity: Granularity): number {
  const key = bucketKey(zone, instant, granularity)
  let next = Math.floor(instant / QUARTER) * QUARTER + QUARTER
  while (bucketKey(zone, next, granularity) === key) next += QUARTER
  return next
}

/** The instants in `year` at which the zone's offset changes, found a day and then a quarter hour at a time. */
export function bruteTransitions(zone: string, year: number): number[] {
  const found: number[] = []
  const end = Date.UTC(year + 1, 0, 1)
  for (let day = Date.UTC(year, 0, 1); day < end; day += 86_400_000) {
    if (wallOf(zone, day).offset === wallOf(zone, day + 86_400_000).offset) continue
    let t = day
    while (wallOf(zone, t + QUARTER).offset === wallOf(zone, day).offset) t += QUARTER
    found.push(t + QUARTER)
  }
  return found
}

/** mulberry32: a small seeded generator, so every run tries the same cases. */
export function seeded(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  /** An integer in [lo, hi). */
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo))
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length)]!
  return { next, int, pick }
}
