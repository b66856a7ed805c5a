// The session events (catalog group `engagement`), each recorded in the transaction of the change with
// the full session under data.engagement: engagement.created, engagement.closed, engagement.escalated
// (+ escalation). Other changes (assignment, snooze, PATCH) are audited only. Every change of a session's
// assignee or status also has the agents module recompute the load of the agents concerned.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { refreshAgentLoadInTx } from '../agents/index.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { type EventType, recordChange } from '../events/index.ts'
import { engagementJson } from './engagement-json.ts'
import type { EngagementRow } from './store.ts'

export type EngagementEventType = Extract<EventType, `engagement.${string}`>

export async function recordEngagementEvent(
  tx: Tx,
  ctx: Ctx,
  type: EngagementEventType,
  row: EngagementRow,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordChange(tx, ctx, {
    type,
    organizationId: row.organization_id,
    target: { type: 'engagement', id: row.id },
    data: { engagement: engagementJson(row), ...extra },
    now,
  })
}

/** An audit record only (no catalog event): `engagement.<what>` with its details. */
export async function auditEngagement(
  tx: Tx,
  ctx: Ctx,
  what: string,
  row: EngagementRow,
  now: number,
  details: Record<string, unknown> = {},
) {
  await appendAudit(tx, {
    organizationId: row.organization_id,
    actor: auditActorOf(ctx.actor),
    event: `engagement.${what}`,
    target: { type: 'engagement', id: row.id },
    details,
    request: ctx.actor.kind === 'user' ? ctx.actor.request : undefined,
    now,
  })
}

/** The agents' loads count their active and wrap-up sessions: recomputed when an assignee or status changes. */
export async function refreshAgentsOf(tx: Tx, ctx: Ctx, before: EngagementRow | undefined, after: EngagementRow, now: number) {
  if (before && before.assignee_id === after.assignee_id && before.status === after.status) return
  await refreshAgentLoadInTx(tx, ctx, {
    organizationId: after.organization_id,
    userIds: [before?.assignee_id ?? null, after.assignee_id],
    now,
  })
}
