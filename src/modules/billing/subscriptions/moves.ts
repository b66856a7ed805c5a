// A subscription moved to a new status, with the times each status stamps: past_due starts the grace
// period (past_due_since), active ends it, canceled and incomplete_expired end the subscription
// (ended_at; canceled_at and the reason). Checked against the lifecycle table; the caller saves it.
import type { SubscriptionStatus } from '../table.ts'
import { assertSubscriptionTransition } from './lifecycle.ts'
import type { SubscriptionRow } from './store.ts'

export type CancellationReason = 'requested' | 'payment_failed' | 'incomplete_expired'

export function withStatus(row: SubscriptionRow, to: SubscriptionStatus, now: number, reason?: CancellationReason): SubscriptionRow {
  assertSubscriptionTransition(row.status, to)
  const next: SubscriptionRow = { ...row, status: to, updated_at: now }
  if (to === 'past_due') next.past_due_since = row.past_due_since ?? now
  if (to === 'active') next.past_due_since = null
  if (to === 'canceled') {
    next.canceled_at = row.canceled_at ?? now
    next.ended_at = now
    next.cancellation_reason = reason ?? 'requested'
    next.cancel_at_period_end = false
  }
  if (to === 'incomplete_expired') {
    next.ended_at = now
    next.cancellation_reason = 'incomplete_expired'
  }
  return next
}
