// GET /api/v1/reports/timeseries: one metric per local hour, day, ISO week or month of `tz`, optionally
// one series per value of a dimension: the `top` values by the metric over the window, the rest as `other`.
import type { Ctx, UserActor } from '../../context.ts'
import { isoTime } from '../../lib/clock.ts'
import { bucketsBetween, bucketStart, type Granularity, localLabel } from '../../lib/zoned-time.ts'
import { aggregate, windowFacts } from './aggregate.ts'
import { type Agg, addFact, dimValues, emptyAgg, mergeAgg } from './facts.ts'
import { slotOf } from './fold.ts'
import type { MetricDef, MetricValue } from './metric.ts'
import { DEFINITIONS_VERSION, SPREAD_STREAMS } from './registry.ts'
import { AGENT_DIMENSION, isAgent } from './records.ts'
import type { ReportWindow } from './request.ts'
import { headline } from './summary.ts'

export const OTHER = 'other'

/** Dimensions a record may have several values of (a ticket's tags). */
const MULTI_VALUED = new Set(['tag'])

export interface Series {
  readonly group: string | null
  readonly total: MetricValue
  readonly points: readonly { start: number; label: string; value: MetricValue }[]
}

type Sums = Map<string, Agg>

function addSums(into: Sums, from: ReadonlyMap<string, Agg>): void {
  for (const [stream, agg] of from) {
    let sum = into.get(stream)
    if (!sum) into.set(stream, (sum = emptyAgg()))
    mergeAgg(sum, agg)
  }
}

export async function reportTimeseries(
  ctx: Ctx<UserActor>,
  input: { metric: MetricDef; window: ReportWindow; granularity: Granularity; groupBy: string; top: number },
) {
  const { metric, window, granularity, groupBy } = input
  const starts = bucketsBetween(window.zone, window.from, window.to, granularity)
  // Every instant of one 15-minute UTC bucket is in the same local bucket (offsets are whole quarter hours).
  const memo = new Map<number, number>()
  const bucketOf = (instant: number) => {
    const slot = slotOf(instant)
    let start = memo.get(slot)
    if (start === undefined) memo.set(slot, (start = bucketStart(window.zone, slot, granularity)))
    return start
  }
  const query = {
    organizationId: ctx.actor.organizationId,
    streams: metric.streams,
    from: window.from,
    to: window.to,
    dim: groupBy,
    bucketOf,
    cuts: starts,
    schedule: window.schedule,
    now: window.now,
  }
  // One snapshot: a fold committing meanwhile moves no fact between the reads (aggregate.ts). A record
  // with several values of the dimension (a ticket's tags) counts once under `other`: that needs its facts.
  const [grouped, facts] = await ctx.db.admin.snapshot(async (view) => [
    await aggregate(view, query),
    MULTI_VALUED.has(groupBy) ? await windowFacts(view, query) : [],
  ])
  // Per group: its sums per bucket and over the window.
  const groups = new Map<string, { perBucket: Map<number, Sums>; total: Sums }>()
  for (const [key, sums] of grouped) {
    const [bucket, dimValue] = key.split('\u0000') as [string, string]
    let group = groups.get(dimValue)
    if (!group) groups.set(dimValue, (group = { perBucket: new Map(), total: new Map() }))
    const start = Number(bucket)
    if (!group.perBucket.has(start)) group.perBucket.set(start, new Map())
    addSums(group.perBucket.get(start)!, sums)
    addSums(group.total, sums)
  }
  let names = [...groups.keys()]
  // An agent grouping by the agent dimension sees its own series only (as the agents report shows it its row).
  if (isAgent(ctx) && groupBy !== '' && groupBy === AGENT_DIMENSION[metric.family])
    names = names.filter((name) => name === ctx.actor.userId)
  if (groupBy !== '') {
    const rank = (name: string) => headline(metric.value(groups.get(name)!.total, window.params)) ?? -Infinity
    names.sort((a, b) => rank(b) - rank(a) || (a < b ? -1 : 1))
    if (names.length > input.top) {
      const other = { perBucket: new Map<number, Sums>(), total: new Map() as Sums }
      if (MULTI_VALUED.has(groupBy)) {
        const shown = new Set(names.slice(0, input.top))
        for (const fact of facts) {
          if (dimValues(fact, groupBy).every((value) => shown.has(value))) continue
          const start = bucketOf(SPREAD_STREAMS.has(fact.stream) ? fact.startedAt! : fact.at)
          if (!other.perBucket.has(start)) other.perBucket.set(start, new Map())
          for (const sums of [other.perBucket.get(start)!, other.total]) {
            let sum = sums.get(fact.stream)
            if (!sum) sums.set(fact.stream, (sum = emptyAgg()))
            addFact(sum, fact)
          }
        }
      } else
        for (const name of names.slice(input.top)) {
          const group = groups.get(name)!
          for (const [start, sums] of group.perBucket) {
            if (!other.perBucket.has(start)) other.perBucket.set(start, new Map())
            addSums(other.perBucket.get(start)!, sums)
          }
          addSums(other.total, group.total)
        }
      names = [...names.slice(0, input.top), OTHER]
      groups.set(OTHER, other)
    }
  } else if (names.length === 0) names = ['']
  const series: Series[] = names.map((name) => {
    const group = groups.get(name) ?? { perBucket: new Map(), total: new Map() }
    return {
      group: groupBy === '' ? null : name,
      total: metric.value(group.total, window.params),
      points: starts.map((start) => ({
        start,
        label: localLabel(window.zone, start, granularity),
        value: metric.value(group.perBucket.get(start) ?? new Map(), window.params),
      })),
    }
  })
  return {
    metric,
    granularity,
    group_by: groupBy === '' ? null : groupBy,
    from: isoTime(window.from),
    to: isoTime(window.to),
    tz: window.zone,
    hours: window.params.hours,
    as_of: isoTime(window.now),
    definitions_version: DEFINITIONS_VERSION,
    series,
  }
}
