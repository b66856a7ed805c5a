// GET /api/v1/reports/agents: one row per agent over the window: tickets solved, calls answered and their
// handle time, sessions closed, logged-in time, time per status and occupancy. An agent gets its own row.
import type { Ctx, UserActor } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import { aggregate } from './aggregate.ts'
import type { Agg } from './facts.ts'
import type { MetricValue } from './metric.ts'
import { findMetric } from './registry.ts'
import { isAgent } from './records.ts'
import type { ReportWindow } from './request.ts'

/** Column -> the metric and the dimension naming the agent in it. */
const COLUMNS = {
  tickets_solved: ['tickets.solved', 'assignee'],
  calls_answered: ['calls.answered', 'agent'],
  handle_time: ['calls.handle_time', 'agent'],
  sessions_closed: ['engagements.closed', 'agent'],
  logged_in_seconds: ['agents.logged_in_time', 'agent'],
  occupancy: ['agents.occupancy', 'agent'],
} as const

export type AgentRow = { agent_id: string; status_seconds: Record<string, number> } & Record<keyof typeof COLUMNS, MetricValue>

export function agentRows(ctx: Ctx<UserActor>, window: ReportWindow): Promise<AgentRow[]> {
  // One snapshot for every column: a fold committing meanwhile moves no fact between the reads.
  return ctx.db.admin.snapshot((view) => rowsIn(view, ctx, window))
}

async function rowsIn(view: Queries, ctx: Ctx<UserActor>, window: ReportWindow): Promise<AgentRow[]> {
  const base = { organizationId: ctx.actor.organizationId, from: window.from, to: window.to, schedule: window.schedule, now: window.now }
  const byAgent = new Map<string, Map<string, ReadonlyMap<string, Agg>>>()
  const keep = (column: string, agentId: string, sums: ReadonlyMap<string, Agg>) => {
    if (agentId === 'none') return
    if (!byAgent.has(agentId)) byAgent.set(agentId, new Map())
    byAgent.get(agentId)!.set(column, sums)
  }
  for (const [column, [id, dim]] of Object.entries(COLUMNS)) {
    const metric = findMetric(id)!
    for (const [key, sums] of await aggregate(view, { ...base, streams: metric.streams, dim })) keep(column, key.split('\u0000')[1]!, sums)
  }
  const statusSeconds = new Map<string, Record<string, number>>()
  for (const [key, sums] of await aggregate(view, { ...base, streams: ['agent.status_time'], dim: 'agent_status' })) {
    const [agentId, status] = key.split('\u0000')[1]!.split(':') as [string, string]
    if (!byAgent.has(agentId)) byAgent.set(agentId, new Map())
    const seconds = statusSeconds.get(agentId) ?? {}
    seconds[status] = Math.round(sums.get('agent.status_time')?.total ?? 0)
    statusSeconds.set(agentId, seconds)
  }
  const agents = [...byAgent.keys()].filter((id) => !isAgent(ctx) || id === ctx.actor.userId).sort()
  if (isAgent(ctx) && agents.length === 0) agents.push(ctx.actor.userId)
  return agents.map((agentId) => {
    const sums = byAgent.get(agentId) ?? new Map()
    const row = { agent_id: agentId, status_seconds: statusSeconds.get(agentId) ?? {} } as AgentRow
    for (const [column, [id]] of Object.entries(COLUMNS))
      (row as Record<string, unknown>)[column] = findMetric(id)!.value(sums.get(column) ?? new Map(), window.params)
    return row
  })
}
