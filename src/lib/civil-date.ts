// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), for local dates in any zone.

export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000

export interface CivilDate {
  year: number
  month: number
  day: number
}

/** The day number of a calendar date (month 1-12), after H. Hinnant's days_from_civil. */
// Integer maths rather than Date: Date.UTC reads years 0-99 as 1900-1999 and rolls impossible fields over.
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

/** The calendar date of a day number. */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - Math.floor((153 * mp + 2) / 5) + 1 }
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}

/** ISO weekday: 1 = Monday ... 7 = Sunday (day 0, 1970-01-01, was a Thursday). */
export function isoWeekday(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1
}

/** ISO 8601 week: the week belongs to the year of its Thursday, week 1 holding the year's first Thursday. */
export function isoWeek(days: number): { year: number; week: number } {
  const thursday = days - isoWeekday(days) + 4
  const year = civilFromDays(thursday).year
  return { year, week: Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1 }
}

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The day number of a strict 'YYYY-MM-DD' (a real date: no month 13, no 30 February), or undefined. */
export function parseLocalDate(text: string): number | undefined {
  const match = LOCAL_DATE.exec(text)
  if (!match) return undefined
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  return daysFromCivil(year, month, day)
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n)
}

/** 'YYYY' with at least four digits, as ISO 8601 writes years 0-9999. */
export function padYear(year: number): string {
  return year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0')
}

/** 'YYYY-MM-DD' of a day number. */
export function formatLocalDate(days: number): string {
  const { year, month, day } = civilFromDays(days)
  return `${padYear(year)}-${pad2(month)}-${pad2(day)}`
}
