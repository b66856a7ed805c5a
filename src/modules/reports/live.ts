// GET /api/v1/reports/live: now, read from the records themselves (never from the fold, so never behind):
// open tickets by status and priority, unassigned ones, calls waiting and the longest wait, sessions
// queued and the longest wait, agents per status.
import type { Ctx, UserActor } from '../../context.ts'
import { isoTime } from '../../lib/clock.ts'
import { agentsByStatus, openTickets, queuedSessions, waitingCalls } from './store.ts'

const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const

export async function liveReport(ctx: Ctx<UserActor>) {
  const organizationId = ctx.actor.organizationId
  const now = ctx.clock.now()
  const [tickets, calls, sessions, agents] = await Promise.all([
    openTickets(ctx.db, organizationId),
    waitingCalls(ctx.db, organizationId),
    queuedSessions(ctx.db, organizationId),
    agentsByStatus(ctx.db, organizationId),
  ])
  const byStatus: Record<string, number> = { new: 0, open: 0, pending: 0, on_hold: 0 }
  const byPriority: Record<string, number> = { low: 0, normal: 0, high: 0, urgent: 0 }
  let unassigned = 0
  for (const row of tickets) {
    const n = Number(row.n)
    byStatus[row.status] = (byStatus[row.status] ?? 0) + n
    const priority = PRIORITIES[Number(row.priority)] ?? 'normal'
    byPriority[priority] = (byPriority[priority] ?? 0) + n
    if (Number(row.unassigned) === 1) unassigned += n
  }
  const waited = (oldest: number | null | undefined) =>
    oldest === null || oldest === undefined ? null : Math.max(0, Math.round((now - Number(oldest)) / 1000))
  return {
    as_of: isoTime(now),
    tickets: {
      backlog: Object.values(byStatus).reduce((a, b) => a + b, 0),
      by_status: byStatus,
      by_priority: byPriority,
      unassigned,
    },
    calls: { waiting: Number(calls?.n ?? 0), longest_wait_seconds: waited(calls?.oldest) },
    sessions: { queued: Number(sessions?.n ?? 0), longest_wait_seconds: waited(sessions?.oldest) },
    agents: { by_status: Object.fromEntries(agents.map((row) => [row.status, Number(row.n)])) },
  }
}
