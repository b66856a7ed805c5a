// Hand-computed cases for test/lib/business-hours.test.ts: schedules, spans with their business time, refused input.
import { checkSchedule, type Schedule, WEEKDAYS, type Weekday } from '../../src/lib/business-hours.ts'

export const H = 3_600_000
export type Hours = Partial<Record<Weekday, Array<[string, string]>>>

/** A checked schedule; days not named are closed. */
export function schedule(zone: string, hours: Hours, holidays: string[] = []): Schedule {
  const weekly = Object.fromEntries(WEEKDAYS.map((day) => [day, (hours[day] ?? []).map(([start, end]) => ({ start, end }))]))
  const result = checkSchedule({ zone, weekly, holidays })
  if (!result.ok) throw new Error(`${result.field} ${result.message}`)
  return result.schedule
}

const nineToFive: Array<[string, string]> = [['09:00', '17:00']]
export const office = schedule(
  'America/New_York',
  {
    mon: nineToFive,
    tue: nineToFive,
    wed: nineToFive,
    thu: nineToFive,
    fri: nineToFive,
    sat: [['10:00', '14:00']],
    sun: [['01:00', '03:00']],
  },
  ['2026-11-26'],
)
const nights = Object.fromEntries(
  WEEKDAYS.map((day) => [
    day,
    [
      ['00:00', '06:00'],
      ['22:00', '24:00'],
    ],
  ]),
) as Hours
const allDay = Object.fromEntries(WEEKDAYS.map((day) => [day, [['00:00', '24:00']]])) as Hours

// [what, schedule, from, to, business ms]
export const SPANS: Array<[string, Schedule, string, string, number]> = [
  // Friday 16:00 EST to Monday 10:00 EDT: 1 h + Saturday 4 h + Sunday 01:00-03:00 on the spring-forward day (1 h) + 1 h.
  ['a weekend over spring forward', office, '2026-03-06T21:00:00Z', '2026-03-09T14:00:00Z', 7 * H],
  // Wednesday 12:00 to Friday 12:00, Thursday a holiday: 5 h + 0 + 3 h.
  ['a holiday', office, '2026-11-25T17:00:00Z', '2026-11-27T17:00:00Z', 8 * H],
  // Sunday 01:00-03:00 on the fall-back day is 3 hours long (01:00-02:00 happens twice).
  ['the fall-back Sunday', office, '2026-11-01T04:00:00Z', '2026-11-02T05:00:00Z', 3 * H],
  ['part of an interval', office, '2026-03-09T15:30:00Z', '2026-03-09T16:15:00Z', 0.75 * H],
  ['nothing when to <= from', office, '2026-03-09T16:00:00Z', '2026-03-09T15:00:00Z', 0],
  // 2026: 261 weekdays (it starts and ends on a Thursday), one a holiday: 260 x 8 h, plus 52 Saturdays x 4 h,
  // plus 52 Sundays x 2 h, less 1 h on the spring-forward Sunday and plus 1 h on the fall-back one.
  ['a whole year', office, '2026-01-01T05:00:00Z', '2027-01-01T05:00:00Z', (260 * 8 + 52 * 4 + 52 * 2) * H],
  // Night shifts in London, 22:00-24:00 and 00:00-06:00.
  ['overnight', schedule('Europe/London', nights), '2026-06-10T19:00:00Z', '2026-06-11T07:00:00Z', 8 * H],
  ['overnight, spring forward', schedule('Europe/London', nights), '2026-03-28T21:00:00Z', '2026-03-29T07:00:00Z', 7 * H],
  ['overnight, fall back', schedule('Europe/London', nights), '2026-10-24T20:00:00Z', '2026-10-25T07:00:00Z', 9 * H],
  // '24:00' ends the day; Sunday's 00:00-02:00 follows on without a gap.
  [
    '24:00',
    schedule('Asia/Kolkata', { sat: [['20:00', '24:00']], sun: [['00:00', '02:00']] }),
    '2026-06-12T18:30:00Z',
    '2026-06-14T06:30:00Z',
    6 * H,
  ],
  // Kathmandu, Monday to Friday 09:00-18:00: a week, and 45 minutes from 09:00 local (03:15 UTC).
  [
    'Kathmandu week',
    schedule('Asia/Kathmandu', { mon: [['09:00', '18:00']], fri: [['09:00', '18:00']] }),
    '2026-03-01T18:15:00Z',
    '2026-03-08T18:15:00Z',
    18 * H,
  ],
  [
    'Kathmandu morning',
    schedule('Asia/Kathmandu', { mon: [['09:00', '18:00']] }),
    '2026-03-02T03:15:00Z',
    '2026-03-02T04:00:00Z',
    0.75 * H,
  ],
  // Lord Howe's 30-minute change: its days last 24.5 and 23.5 hours, and 01:00-03:00 lasts 2.5 and 1.5.
  ['Lord Howe 24.5 h', schedule('Australia/Lord_Howe', allDay), '2026-04-04T13:00:00Z', '2026-04-05T13:30:00Z', 24.5 * H],
  ['Lord Howe 23.5 h', schedule('Australia/Lord_Howe', allDay), '2026-10-03T13:30:00Z', '2026-10-04T13:00:00Z', 23.5 * H],
  [
    'Lord Howe 01-03 back',
    schedule('Australia/Lord_Howe', { sun: [['01:00', '03:00']] }),
    '2026-04-04T00:00:00Z',
    '2026-04-06T00:00:00Z',
    2.5 * H,
  ],
  [
    'Lord Howe 01-03 fwd',
    schedule('Australia/Lord_Howe', { sun: [['01:00', '03:00']] }),
    '2026-10-03T00:00:00Z',
    '2026-10-05T00:00:00Z',
    1.5 * H,
  ],
  // Santiago's 6 September starts at 01:00: open all day, it has 23 hours.
  ['midnight skipped', schedule('America/Santiago', allDay), '2026-09-06T04:00:00Z', '2026-09-07T03:00:00Z', 23 * H],
]

/** A week open only on Mondays, at the intervals given (checked or not). */
export const week = (mon: unknown[] = []) => ({ mon, tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] })
export const VALID = {
  zone: 'Europe/London',
  weekly: week([
    { start: '13:00', end: '17:00' },
    { start: '09:00', end: '13:00' },
  ]),
  holidays: ['2026-12-25'],
}

// [input, field, part of the message]
export const REFUSED: Array<[unknown, string, string]> = [
  [null, 'schedule', 'must be an object'],
  [[], 'schedule', 'must be an object'],
  [{ ...VALID, name: 'x' }, 'name', 'is not a schedule field'],
  [{ ...VALID, zone: undefined }, 'zone', 'IANA time zone'],
  [{ ...VALID, zone: 'Mars/Olympus_Mons' }, 'zone', 'IANA time zone'],
  [{ ...VALID, zone: '+01:00' }, 'zone', 'IANA time zone'],
  [{ ...VALID, weekly: undefined }, 'weekly', 'mon, tue, wed'],
  [{ ...VALID, weekly: { ...week(), monday: [] } }, 'weekly.monday', 'is not a day'],
  [{ ...VALID, weekly: { ...week(), sun: undefined } }, 'weekly.sun', 'must be a list'],
  [{ ...VALID, weekly: week(['09:00-17:00']) }, 'weekly.mon[0]', 'must be an object'],
  [{ ...VALID, weekly: week([{ start: '09:00', end: '17:00', note: 'x' }]) }, 'weekly.mon[0].note', 'is not an interval field'],
  [{ ...VALID, weekly: week([{ start: '9:00', end: '17:00' }]) }, 'weekly.mon[0].start', "'HH:MM'"],
  [{ ...VALID, weekly: week([{ start: '24:00', end: '24:00' }]) }, 'weekly.mon[0].start', '00:00 to 23:59'],
  [{ ...VALID, weekly: week([{ start: '09:60', end: '17:00' }]) }, 'weekly.mon[0].start', "'HH:MM'"],
  [{ ...VALID, weekly: week([{ start: '09:00', end: '24:01' }]) }, 'weekly.mon[0].end', '00:01 to 24:00'],
  [{ ...VALID, weekly: week([{ start: '09:00', end: 1700 }]) }, 'weekly.mon[0].end', "'HH:MM'"],
  [{ ...VALID, weekly: week([{ start: '09:00' }]) }, 'weekly.mon[0].end', "'HH:MM'"],
  [{ ...VALID, weekly: week([{ start: '22:00', end: '06:00' }]) }, 'weekly.mon[0].end', 'must be after start 22:00'],
  [{ ...VALID, weekly: week([{ start: '09:00', end: '09:00' }]) }, 'weekly.mon[0].end', 'must be after start'],
  [
    {
      ...VALID,
      weekly: week([
        { start: '09:00', end: '12:00' },
        { start: '11:00', end: '13:00' },
      ]),
    },
    'weekly.mon[1].start',
    'overlaps weekly.mon[0] (09:00-12:00)',
  ],
  [
    {
      ...VALID,
      weekly: week([
        { start: '10:00', end: '12:00' },
        { start: '09:00', end: '10:30' },
      ]),
    },
    'weekly.mon[1].end',
    'overlaps weekly.mon[0] (10:00-12:00)',
  ],
  [{ ...VALID, weekly: week(Array.from({ length: 49 }, () => ({}))) }, 'weekly.mon', 'at most 48'],
  [{ ...VALID, holidays: '2026-12-25' }, 'holidays', "'YYYY-MM-DD'"],
  [{ ...VALID, holidays: ['2026-12-25', '2026-02-30'] }, 'holidays[1]', 'real date'],
  [{ ...VALID, holidays: ['2026-12-25T00:00:00Z'] }, 'holidays[0]', 'real date'],
]
