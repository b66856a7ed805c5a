// GET /api/v1/reports/records: the records behind a figure of the other reports (the same window and
// parameters, plus the metric, and optionally one bucket and one group), one row per fact, so a person can
// open a number and see what it counts. An agent sees only its own records.
import type { Ctx, UserActor } from '../../context.ts'
import { isoTime } from '../../lib/clock.ts'
import { type Granularity, nextBucketStart } from '../../lib/zoned-time.ts'
import { windowFacts } from './aggregate.ts'
import { dimValues, type Fact } from './facts.ts'
import type { Family, MetricDef } from './metric.ts'
import { DEFINITIONS_VERSION } from './registry.ts'
import { badParameter, type ReportWindow } from './request.ts'

/** The dimension that names the agent a family's record belongs to (an agent sees only those). */
export const AGENT_DIMENSION: Readonly<Record<Family, string | null>> = {
  tickets: 'assignee',
  calls: 'agent',
  agents: 'agent',
  engagements: 'agent',
  surveys: 'agent',
  crm: 'owner',
  billing: null,
}

export const isAgent = (ctx: Ctx<UserActor>) => ctx.actor.role === 'agent'

export interface RecordsInput {
  metric: MetricDef
  window: ReportWindow
  /** A bucket of a time series: its start (as `start` answered it) and granularity. */
  bucket?: { start: number; granularity: Granularity }
  group?: { dim: string; value: string }
}

/** The facts of the figure, oldest first (then by record), the agent's own only for an agent. */
export async function recordsOf(ctx: Ctx<UserActor>, input: RecordsInput): Promise<Fact[]> {
  const { metric, window } = input
  let { from, to } = window
  if (input.bucket) {
    const end = nextBucketStart(window.zone, input.bucket.start, input.bucket.granularity)
    if (end <= from || input.bucket.start >= to) throw badParameter('bucket', 'The bucket is outside the window')
    from = Math.max(from, input.bucket.start)
    to = Math.min(to, end)
  }
  const facts = await ctx.db.admin.snapshot((view) =>
    windowFacts(view, {
      organizationId: ctx.actor.organizationId,
      streams: [metric.streams[0]!],
      from,
      to,
      dim: '',
      schedule: window.schedule,
      now: window.now,
    }),
  )
  const own = AGENT_DIMENSION[metric.family]
  return facts
    .filter((fact) => !input.group || dimValues(fact, input.group.dim).includes(input.group.value))
    .filter((fact) => !isAgent(ctx) || (own !== null && dimValues(fact, own).includes(ctx.actor.userId)))
    .sort((a, b) => a.at - b.at || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : a.seq - b.seq))
}

export function recordJson(fact: Fact) {
  return {
    record_type: fact.recordType,
    record_id: fact.recordId,
    at: isoTime(fact.at),
    started_at: fact.startedAt === null ? null : isoTime(fact.startedAt),
    value: fact.value,
    business_value: fact.businessValue ?? null,
    dimensions: fact.dims,
  }
}

export { DEFINITIONS_VERSION }
