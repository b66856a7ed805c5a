// The report's window and zone as the API's query. A preset is the N × 24 hours before the moment it was
// applied (the API's own default window, so the figures match a plain `curl`); a custom range is whole days
// on the wall clocks of the chosen zone, its last day included. The end is fixed when applied, so the
// summary, the series, the records and the CSV all read the very same window.

export type Range = '7' | '30' | '90' | 'custom'

export const RANGES: { value: Range; label: string }[] = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'custom', label: 'Custom dates' },
]

/** The query every report of the screen shares; no `tz`: the organization's zone. */
export interface WindowQuery {
  from: string
  to: string
  tz?: string
}

const DAY_MS = 86_400_000

// Chromium (ICU) still lists these zones by their old names; people look for the names the tz database
// uses now. Both are IANA names the API accepts.
const RENAMED: Record<string, string> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
}

/** The zones the picker offers: the browser's list by today's names, and UTC (Chromium leaves it out). */
export function allZones(): string[] {
  const zones = new Set(Intl.supportedValuesOf('timeZone').map((zone) => RENAMED[zone] ?? zone))
  zones.delete('UTC')
  return ['UTC', ...[...zones].sort()]
}

/** A zone by today's name. */
export const currentName = (zone: string) => RENAMED[zone] ?? zone

export function browserZone(): string {
  return currentName(Intl.DateTimeFormat().resolvedOptions().timeZone)
}

/** A calendar date moved by `days` (dates only: no zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10)
}

/** Why a custom range cannot be asked for, or undefined. */
export function customProblem(from: string, to: string): string | undefined {
  if (!from || !to) return 'Choose both the first and the last day.'
  if (from > to) return 'The first day must not be after the last day.'
  return undefined
}

/** The query of a choice made now; `tz` '' is the organization's zone. */
export function windowOf(range: Range, from: string, to: string, tz: string, now = Date.now()): WindowQuery {
  const zone = tz === '' ? {} : { tz }
  if (range === 'custom') return { from, to: addDays(to, 1), ...zone }
  return { from: new Date(now - Number(range) * DAY_MS).toISOString(), to: new Date(now).toISOString(), ...zone }
}
