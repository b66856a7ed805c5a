// UTC offsets of IANA time zones, read from the built-in Intl data and cached per zone.
import { DAY_MS, daysFromCivil, HOUR_MS, MINUTE_MS } from './civil-date.ts'

/** Every offset in use today is a multiple of 15 minutes, so every transition falls on a quarter hour (UTC). */
export const QUARTER_HOUR_MS = 900_000

export function isQuarterAligned(instant: number): boolean {
  return Number.isInteger(instant) && instant % QUARTER_HOUR_MS === 0
}

// An IANA name: Intl also takes offsets such as '+05:30', which name no zone and have no rules.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/
// No zone changes offset before 1800 (local mean time until then), and Intl needs an era for years <= 0: clamp.
const EARLIEST = daysFromCivil(1800, 1, 1) * DAY_MS
const LATEST = 8.64e15
// Bounds of the caches: forgetting only costs recomputing (a day's offset takes two Intl calls).
const MAX_ZONES = 200
const MAX_DAYS = 20_000
const MAX_SLOTS = 10_000

interface Zone {
  format: Intl.DateTimeFormat
  /** By UTC day number: the day's one offset, or NaN when it changes that day. */
  days: Map<number, number>
  /** By quarter-hour slot, on the days it changes: the slot's one offset, or NaN when it changes inside it. */
  slots: Map<number, number>
}

// One Intl call costs a few microseconds, reports ask for offsets hundreds of thousands of times, and an offset
// changes a few times a year: one formatter per zone, and each offset asked of it once.
const zones = new Map<string, Zone>()

export function isTimeZone(name: string): boolean {
  if (typeof name !== 'string' || name.length > 64 || !ZONE_NAME.test(name)) return false
  if (zones.has(name)) return true
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

function zoneNamed(name: string): Zone {
  const known = zones.get(name)
  if (known) return known
  if (!isTimeZone(name)) throw new RangeError(`not an IANA time zone: ${JSON.stringify(name)}`)
  if (zones.size >= MAX_ZONES) zones.clear()
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: name,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  })
  const zone = { format, days: new Map<number, number>(), slots: new Map<number, number>() }
  zones.set(name, zone)
  return zone
}

/** The offset at one instant, straight from Intl: wall-clock fields read as UTC, minus the instant (whole seconds). */
function measure(zone: Zone, instant: number): number {
  const at = Math.floor(Math.min(Math.max(instant, EARLIEST), LATEST) / 1000) * 1000
  let [year, month, day, wall] = [0, 0, 0, 0]
  for (const { type, value } of zone.format.formatToParts(at)) {
    if (type === 'year') year = Number(value)
    else if (type === 'month') month = Number(value)
    else if (type === 'day') day = Number(value)
    else if (type === 'hour') wall += (Number(value) % 24) * HOUR_MS
    else if (type === 'minute') wall += Number(value) * MINUTE_MS
    else if (type === 'second') wall += Number(value) * 1000
  }
  return daysFromCivil(year, month, day) * DAY_MS + wall - at
}

function remember(map: Map<number, number>, key: number, value: number, limit: number): void {
  if (map.size >= limit) map.clear()
  map.set(key, value)
}

// Offsets are known per UTC day, and per quarter hour only on the days they change: equal offsets at both
// ends of a day (of a slot) mean none in between, as no zone has ever changed and changed back within a day.
function offsetIn(zone: Zone, instant: number): number {
  const day = Math.floor(instant / DAY_MS)
  let known = zone.days.get(day)
  if (known === undefined) {
    const start = measure(zone, day * DAY_MS)
    known = start === measure(zone, (day + 1) * DAY_MS - 1000) ? start : Number.NaN
    remember(zone.days, day, known, MAX_DAYS)
  }
  if (!Number.isNaN(known)) return known
  const slot = Math.floor(instant / QUARTER_HOUR_MS)
  known = zone.slots.get(slot)
  if (known === undefined) {
    const start = measure(zone, slot * QUARTER_HOUR_MS)
    known = start === measure(zone, (slot + 1) * QUARTER_HOUR_MS - 1000) ? start : Number.NaN
    remember(zone.slots, slot, known, MAX_SLOTS)
  }
  // A slot changing inside itself: only historic offsets (local mean time) that are not whole quarters.
  return Number.isNaN(known) ? measure(zone, instant) : known
}

function checkInstant(instant: number): void {
  if (!Number.isFinite(instant) || Math.abs(instant) > LATEST) throw new RangeError(`not an instant: ${instant}`)
}

/** The zone's offset from UTC at `instant`, in milliseconds (Asia/Kathmandu: 20_700_000). Throws RangeError on a bad zone. */
export function zoneOffsetMs(zone: string, instant: number): number {
  checkInstant(instant)
  return offsetIn(zoneNamed(zone), instant)
}

/** The offset function of one zone, its lookup done once: for loops. Throws RangeError on a bad zone. */
export function offsetsOf(zone: string): (instant: number) => number {
  const found = zoneNamed(zone)
  return (instant) => {
    checkInstant(instant)
    return offsetIn(found, instant)
  }
}
