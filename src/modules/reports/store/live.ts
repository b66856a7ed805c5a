// The live report's SQL: tickets, calls, sessions and agents as they are now.
import type { Queries } from '../../../db/database.ts'

/** Live: open tickets by status and priority, and how many have nobody assigned. */
export function openTickets(db: Queries, organizationId: string) {
  return db.raw.all<{ status: string; priority: number; unassigned: number; n: number }>(
    "SELECT status, priority, CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END AS unassigned, count(*) AS n FROM tickets WHERE organization_id = ? AND status IN ('new', 'open', 'pending', 'on_hold') GROUP BY status, priority, CASE WHEN assignee_id IS NULL THEN 1 ELSE 0 END",
    [organizationId],
  )
}

/** Live: calls not answered yet, and since when the oldest waits. */
export function waitingCalls(db: Queries, organizationId: string) {
  return db.raw.get<{ n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(initialized_at) AS oldest FROM calls WHERE organization_id = ? AND status IN ('queued', 'ringing')",
    [organizationId],
  )
}

/** Live: sessions waiting for an agent, and since when the oldest waits. */
export function queuedSessions(db: Queries, organizationId: string) {
  return db.raw.get<{ n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_at) AS oldest FROM engagements WHERE organization_id = ? AND status = 'queued'",
    [organizationId],
  )
}

/** Live: agents per status. */
export function agentsByStatus(db: Queries, organizationId: string) {
  return db.raw.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM agents WHERE organization_id = ? GROUP BY status', [
    organizationId,
  ])
}
