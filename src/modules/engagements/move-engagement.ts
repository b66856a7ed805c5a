// Moving a session through its lifecycle, the one way every verb, message and cron run does it: the
// table's check, the fields each status sets or clears (snoozed_until while snoozed; closed_at and
// close_reason while closed, waiting_since cleared on closing; last_activity_at on becoming active), saved with the loads recomputed, and
// engagement.closed on closing (the other moves are audited only). The API's operations follow.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { validationError } from '../../errors.ts'
import { auditEngagement, recordEngagementEvent, refreshAgentsOf } from './events.ts'
import { assertEngagementTransition, type EngagementMove, type EngagementStatus } from './lifecycle.ts'
import { type EngagementRow, saveEngagement } from './store.ts'
import type { CloseReason } from './table.ts'
import { lockVisibleEngagement } from './visibility.ts'

export interface EngagementStep {
  to: EngagementStatus
  /** The operation making it (the table names one per move). */
  move: EngagementMove
  now: number
  /** Audit name of the move: snoozed, unsnoozed, woken, wrap_up, reopened (closed has its event). */
  what: string
  snoozedUntil?: number
  closeReason?: CloseReason
}

export async function moveInTx(tx: Tx, ctx: Ctx, row: EngagementRow, step: EngagementStep): Promise<EngagementRow> {
  assertEngagementTransition(row.status, step.to, step.move)
  const { now, to } = step
  const after: EngagementRow = { ...row, status: to, updated_at: now }
  after.snoozed_until = to === 'snoozed' ? (step.snoozedUntil ?? null) : null
  // Becoming active (assigned, woken, reopened, back from wrap-up) starts the inactivity clock afresh:
  // otherwise a session snoozed or closed for longer than ENGAGEMENT_AUTO_CLOSE_MINUTES would be closed
  // again by the next cron run, under the agent's hands.
  if (to === 'active' && row.status !== 'active') after.last_activity_at = now
  if (to === 'closed') {
    after.closed_at = now
    after.close_reason = step.closeReason ?? 'agent'
    after.waiting_since = null
  } else {
    after.closed_at = null
    after.close_reason = null
  }
  await saveEngagement(tx, after)
  await refreshAgentsOf(tx, ctx, row, after, now)
  if (to === 'closed') await recordEngagementEvent(tx, ctx, 'engagement.closed', after, now)
  else await auditEngagement(tx, ctx, step.what, after, now, { from: row.status, to })
  return after
}

/** Where a reopening goes: back to its agent (active), or to the queue when it has none. */
export function reopenedStatus(row: EngagementRow): EngagementStatus {
  return row.status === 'closed' && row.assignee_id === null ? 'queued' : 'active'
}

async function operate(ctx: Ctx<UserActor>, id: string, name: string, step: (row: EngagementRow, now: number) => EngagementStep) {
  const now = ctx.clock.now()
  return ctx.db.write(`engagement.${name}`, async (tx) => {
    // One move from the status read: the row is locked (a concurrent move waits, then finds the new status).
    const row = await lockVisibleEngagement(tx, ctx.actor, id)
    return moveInTx(tx, ctx, row, step(row, now))
  })
}

/** active -> snoozed until `until` (in the future: 400 otherwise). */
export function snoozeEngagement(ctx: Ctx<UserActor>, input: { id: string; until: number }) {
  if (input.until <= ctx.clock.now()) throw validationError([{ field: 'until', message: 'must be in the future' }])
  return operate(ctx, input.id, 'snooze', (_row, now) => ({
    to: 'snoozed',
    move: 'snooze',
    now,
    what: 'snoozed',
    snoozedUntil: input.until,
  }))
}

export function unsnoozeEngagement(ctx: Ctx<UserActor>, input: { id: string }) {
  return operate(ctx, input.id, 'unsnooze', (_row, now) => ({ to: 'active', move: 'unsnooze', now, what: 'unsnoozed' }))
}

export function wrapUpEngagement(ctx: Ctx<UserActor>, input: { id: string }) {
  return operate(ctx, input.id, 'wrap_up', (_row, now) => ({ to: 'wrap_up', move: 'wrap_up', now, what: 'wrap_up' }))
}

export function closeEngagement(ctx: Ctx<UserActor>, input: { id: string; reason?: 'agent' | 'customer' }) {
  return operate(ctx, input.id, 'close', (_row, now) => ({
    to: 'closed',
    move: 'close',
    now,
    what: 'closed',
    closeReason: input.reason ?? 'agent',
  }))
}

/** closed -> active (its agent) or queued (none); wrap_up -> active. */
export function reopenEngagement(ctx: Ctx<UserActor>, input: { id: string }) {
  return operate(ctx, input.id, 'reopen', (row, now) => ({ to: reopenedStatus(row), move: 'reopen', now, what: 'reopened' }))
}
