// Tests of src/lib/business-hours.ts: hand-computed business time and schedule checks, then a minute-by-minute count.
import { describe, expect, test } from 'bun:test'
import { businessMs, checkSchedule, isOpen, type Schedule, WEEKDAYS, type Weekday } from '../../src/lib/business-hours.ts'
import { H, type Hours, office, REFUSED, SPANS, schedule, VALID, week } from './business-hours.cases.ts'
import { bruteTransitions, seeded, wallOf } from './zoned-brute.ts'

const at = (iso: string) => Date.parse(iso)

describe('businessMs', () => {
  test.each(SPANS)('%s', (_, hours, from, to, expected) => {
    expect(businessMs(hours, at(from), at(to))).toBe(expected)
  })

  test('isOpen', () => {
    const open = (iso: string) => isOpen(office, at(iso))
    expect(open('2026-03-09T12:59:59.999Z')).toBe(false) // Monday 08:59:59.999 EDT
    expect(open('2026-03-09T13:00:00Z')).toBe(true)
    expect(open('2026-03-09T20:59:59.999Z')).toBe(true)
    expect(open('2026-03-09T21:00:00Z')).toBe(false)
    expect(open('2026-11-26T15:00:00Z')).toBe(false) // the holiday, 10:00 EST
    expect(open('2026-11-01T05:30:00Z')).toBe(true) // Sunday 01:30 EDT
    expect(open('2026-11-01T06:30:00Z')).toBe(true) // Sunday 01:30 EST, the second time
    expect(open('2026-03-08T07:00:00Z')).toBe(false) // Sunday 03:00 EDT, an hour after 01:00
    const late = schedule('Asia/Kolkata', { sat: [['20:00', '24:00']] })
    expect(isOpen(late, at('2026-06-13T18:29:59.999Z'))).toBe(true) // Saturday 23:59:59.999
    expect(isOpen(late, at('2026-06-13T18:30:00Z'))).toBe(false) // Sunday 00:00
  })

  test('a schedule not from checkSchedule is checked on first use, then frozen', () => {
    const plain: Schedule = {
      zone: 'UTC',
      weekly: { mon: [{ start: '09:00', end: '10:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      holidays: [],
    }
    expect(businessMs(plain, at('2026-03-09T00:00:00Z'), at('2026-03-10T00:00:00Z'))).toBe(H)
    expect(Object.isFrozen(plain.weekly.mon[0])).toBe(true)
    expect(() => plain.weekly.mon.push({ start: '11:00', end: '12:00' })).toThrow(TypeError)
    const bad = { ...plain, weekly: { ...plain.weekly, tue: [{ start: '10:00', end: '09:00' }] } }
    expect(() => businessMs(bad, 0, 1)).toThrow('weekly.tue[0].end')
    expect(() => businessMs(plain, 0, Number.NaN)).toThrow(RangeError)
  })
})

describe('checkSchedule', () => {
  test('a valid schedule comes back frozen, each day in order', () => {
    const result = checkSchedule(VALID)
    if (!result.ok) throw new Error(result.message)
    expect(result.schedule.weekly.mon).toEqual([
      { start: '09:00', end: '13:00' },
      { start: '13:00', end: '17:00' },
    ])
    expect(Object.isFrozen(result.schedule.weekly.mon)).toBe(true)
    expect(checkSchedule({ ...VALID, weekly: week([{ start: '00:00', end: '24:00' }]) }).ok).toBe(true)
  })

  test.each(REFUSED)('%j: %s', (input, field, message) => {
    const result = checkSchedule(input)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.field).toBe(field)
      expect(result.message).toContain(message)
    }
  })
})

// Random schedules (minute-exact times, '24:00' ends, holidays) and spans of up to 10 days, mostly around a DST
// change, against a count of every minute the wall clock (read straight from Intl) says is open.
describe('against a minute-by-minute count', () => {
  const zones = [
    'America/New_York',
    'Europe/London',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/Santiago',
    'Asia/Beirut',
    'America/Havana',
  ]
  const MINUTE = 60_000
  const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

  test('businessMs and isOpen', () => {
    const random = seeded(20261101)
    for (let i = 0; i < 24; i++) {
      const zone = random.pick(zones)
      const transitions = bruteTransitions(zone, random.int(2000, 2035))
      const from =
        Math.floor(((transitions.length > 0 ? random.pick(transitions) : Date.UTC(2030, 0, 1)) - random.int(0, 5 * 86_400_000)) / MINUTE) *
        MINUTE
      const to = from + random.int(0, 10 * 1440) * MINUTE
      const hours: Hours = {}
      for (const day of WEEKDAYS) {
        // Up to three intervals: cut points in order, every other gap open.
        const cuts = Array.from({ length: 2 * random.int(0, 4) }, () => random.int(0, 1441)).sort((a, b) => a - b)
        hours[day] = []
        for (let c = 0; c < cuts.length; c += 2) if (cuts[c]! < cuts[c + 1]!) hours[day]!.push([hhmm(cuts[c]!), hhmm(cuts[c + 1]!)])
      }
      const holidays = Array.from({ length: random.int(0, 3) }, () => wallOf(zone, from + random.int(0, 10 * 86_400_000)).date)
      const hoursOf = schedule(zone, hours, holidays)
      let expected = 0
      for (let minute = from; minute < to; minute += MINUTE) {
        const wall = wallOf(zone, minute)
        const now = wall.hour * 60 + wall.minute
        const open =
          !holidays.includes(wall.date) &&
          (hours[wall.weekday as Weekday] ?? []).some(([s, e]) => toMinutes(s) <= now && now < toMinutes(e))
        if (open) expected += MINUTE
        if (minute % (97 * MINUTE) === 0) expect(isOpen(hoursOf, minute)).toBe(open)
      }
      expect(`${zone} ${new Date(from).toISOString()}: ${businessMs(hoursOf, from, to)}`).toBe(
        `${zone} ${new Date(from).toISOString()}: ${expected}`,
      )
    }
  }, 60_000)
})

function toMinutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))
}
