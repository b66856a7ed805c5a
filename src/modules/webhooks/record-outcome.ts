// recordOutcome: after an attempt, in one short transaction: close its delivery row, update the
// webhook's failure state, and queue the next attempt by WEBHOOK_RETRY_SCHEDULE (with a jitter that
// only delays, and a receiver's Retry-After honoured up to twice the scheduled delay), or disable the
// webhook: at once on 410 Gone, or when the last attempt of an event fails with no success since
// before that event's first attempt. Test sends never count; manual retries are not retried.
import { and, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/tx.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import { audit, SYSTEM_ACTOR } from '../audit/record.ts'
import type { AttemptOutcome } from './send-attempt.ts'
import { webhookDeliveries, webhooks, type DeliveryTrigger } from './table.ts'

export interface ClaimedDelivery {
  id: string
  organization_id: string
  webhook_id: string
  event_id: string
  event_type: string
  attempt: number
  trigger: DeliveryTrigger
  created_at: number
}

export interface OutcomeResult {
  /** The webhook was disabled by this outcome. */
  disabled: 'exhausted' | 'gone' | null
  nextAttemptAt: number | null
}

/** The delay before attempt `attempt` (1-based), plus a jitter of up to 10% (at most 10 minutes) that only delays. */
export function scheduledDelay(scheduleMs: readonly number[], attempt: number, random = Math.random): number {
  const base = scheduleMs[attempt - 1] ?? 0
  return base + Math.floor(random() * Math.min(base * 0.1, 10 * 60_000))
}

function firstAttemptAt(tx: Db, delivery: ClaimedDelivery): number {
  const row = tx
    .select({ at: sql<number>`min(${webhookDeliveries.created_at})` })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.event_id, delivery.event_id), eq(webhookDeliveries.webhook_id, delivery.webhook_id)))
    .get()
  return row?.at ?? delivery.created_at
}

export function recordOutcome(tx: Tx, delivery: ClaimedDelivery, outcome: AttemptOutcome, scheduleMs: readonly number[], now: number): OutcomeResult {
  tx.update(webhookDeliveries)
    .set({
      status: outcome.ok ? 'success' : 'failed',
      lease_until: null,
      next_attempt_at: null,
      response_code: outcome.responseCode,
      response_time_ms: outcome.responseTimeMs,
      response_body: outcome.responseBody,
      error_class: outcome.errorClass,
      error_message: outcome.errorMessage,
      delivered_at: now,
    })
    .where(eq(webhookDeliveries.id, delivery.id))
    .run()
  if (delivery.trigger === 'test') return { disabled: null, nextAttemptAt: null }
  const webhook = tx.select().from(webhooks).where(eq(webhooks.id, delivery.webhook_id)).get()
  if (!webhook) return { disabled: null, nextAttemptAt: null }
  if (outcome.ok) {
    tx.update(webhooks).set({ consecutive_failures: 0, failing_since: null, last_success_at: now }).where(eq(webhooks.id, webhook.id)).run()
    return { disabled: null, nextAttemptAt: null }
  }
  const failingSince = webhook.failing_since ?? now
  tx.update(webhooks)
    .set({ consecutive_failures: webhook.consecutive_failures + 1, failing_since: failingSince })
    .where(eq(webhooks.id, webhook.id))
    .run()
  if (!webhook.enabled) return { disabled: null, nextAttemptAt: null }
  if (outcome.responseCode === 410) {
    disable(tx, webhook.id, webhook.organization_id, 'gone', `the receiver answered 410 Gone to delivery ${delivery.id}`, now)
    return { disabled: 'gone', nextAttemptAt: null }
  }
  if (delivery.trigger === 'retry') return { disabled: null, nextAttemptAt: null }
  const next = delivery.attempt + 1
  if (next > scheduleMs.length) {
    if (failingSince <= firstAttemptAt(tx, delivery)) {
      disable(tx, webhook.id, webhook.organization_id, 'exhausted', `all ${scheduleMs.length} attempts of event ${delivery.event_id} failed`, now)
      return { disabled: 'exhausted', nextAttemptAt: null }
    }
    return { disabled: null, nextAttemptAt: null }
  }
  let delay = scheduledDelay(scheduleMs, next)
  if (outcome.retryAfterS !== null) delay = Math.min(Math.max(delay, outcome.retryAfterS * 1000), 2 * (scheduleMs[next - 1] ?? 0))
  const nextAttemptAt = now + delay
  tx.insert(webhookDeliveries)
    .values({
      id: prefixedId('dlv'),
      organization_id: delivery.organization_id,
      webhook_id: delivery.webhook_id,
      event_id: delivery.event_id,
      event_type: delivery.event_type,
      attempt: next,
      trigger: delivery.trigger,
      status: 'pending',
      next_attempt_at: nextAttemptAt,
      created_at: now,
    })
    .run()
  return { disabled: null, nextAttemptAt }
}

function disable(tx: Tx, webhookId: string, organizationId: string, reason: 'exhausted' | 'gone', detail: string, now: number): void {
  tx.update(webhooks).set({ enabled: false, disabled_reason: reason, disabled_at: now, updated_at: now }).where(eq(webhooks.id, webhookId)).run()
  audit(tx, { organizationId, actor: SYSTEM_ACTOR, event: 'webhook.disabled', reason, target: { type: 'webhook', id: webhookId }, details: { detail, at: isoTime(now) }, now })
}
