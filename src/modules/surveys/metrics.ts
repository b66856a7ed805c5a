// surveyMetrics: per survey type, the offers made in a window of days in the caller's time zone (from
// and to, YYYY-MM-DD, both included), how many were answered, and the type's figure: CSAT % satisfied
// (4-5), NPS (% promoters 9-10 minus % detractors 0-6), CES average. Statistics are numbers rounded to
// one decimal place; null when there is nothing to compute them from.
import type { Ctx, UserActor } from '../../context.ts'
import type { Condition } from '../../db/list.ts'
import { validationError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { type SurveyFilters, surveyFilterConditions } from './list-responses.ts'
import { surveyCounts, type TypeCounts } from './store.ts'

export interface MetricsInput extends SurveyFilters {
  from?: string
  to?: string
  time_zone?: string
}

const round1 = (value: number) => Math.round(value * 10) / 10
const percent = (part: number, whole: number) => (whole === 0 ? null : round1((part * 100) / whole))

function checkTimeZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
  } catch {
    throw validationError([{ field: 'time_zone', message: 'is not an IANA time zone (e.g. Europe/Paris)' }])
  }
}

/** The offset (ms) of `zone` from UTC at the instant `ms`. */
function offsetAt(zone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms))
  const field = (type: string) => Number(parts.find((p) => p.type === type)!.value)
  const local = Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'), field('second'))
  return local - Math.floor(ms / 1000) * 1000
}

/** The instant a day (YYYY-MM-DD) begins in `zone`: its local midnight, found through the zone's offset. */
export function startOfDay(field: string, date: string, zone: string): number {
  const midnight = Date.parse(`${date}T00:00:00Z`)
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== date)
    throw validationError([{ field, message: 'must be a real date, YYYY-MM-DD' }])
  // Twice: the offset at the guess may differ from the offset at the answer around a change of time.
  const guess = midnight - offsetAt(zone, midnight)
  return midnight - offsetAt(zone, guess)
}

function typeMetrics(counts: TypeCounts | undefined) {
  const offered = Number(counts?.offered ?? 0)
  const responded = Number(counts?.responded ?? 0)
  return { offered, responded, response_rate: percent(responded, offered) }
}

export async function surveyMetrics(ctx: Ctx<UserActor>, input: MetricsInput) {
  const zone = input.time_zone ?? 'UTC'
  checkTimeZone(zone)
  const where: Condition[] = surveyFilterConditions(input)
  const from = input.from === undefined ? null : startOfDay('from', input.from, zone)
  const to = input.to === undefined ? null : startOfDay('to', nextDay(input.to), zone)
  if (from !== null && to !== null && from >= to) throw validationError([{ field: 'to', message: 'must not be before from' }])
  if (from !== null) where.push({ sql: 'offered_at >= ?', params: [from] })
  if (to !== null) where.push({ sql: 'offered_at < ?', params: [to] })
  const rows = await surveyCounts(ctx.db, ctx.actor.organizationId, where)
  const of = (type: string) => rows.find((row) => row.survey_type === type)
  const csat = of('csat')
  const nps = of('nps')
  const ces = of('ces')
  const answered = (counts: TypeCounts | undefined) => Number(counts?.responded ?? 0)
  return {
    from: from === null ? null : isoTime(from),
    to: to === null ? null : isoTime(to),
    time_zone: zone,
    csat: { ...typeMetrics(csat), percent_satisfied: percent(Number(csat?.satisfied ?? 0), answered(csat)) },
    nps: {
      ...typeMetrics(nps),
      nps: answered(nps) === 0 ? null : round1(((Number(nps!.promoters) - Number(nps!.detractors)) * 100) / answered(nps)),
    },
    ces: { ...typeMetrics(ces), average: answered(ces) === 0 ? null : round1(Number(ces!.score_sum) / answered(ces)) },
  }
}

/** The day after a YYYY-MM-DD (validated as the field `to`). */
function nextDay(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`)
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date)
    throw validationError([{ field: 'to', message: 'must be a real date, YYYY-MM-DD' }])
  return new Date(ms + 86_400_000).toISOString().slice(0, 10)
}
