// recordOutcome: after an attempt, in one short transaction: close its delivery row, update the
// webhook's failure state, and queue the next attempt by WEBHOOK_RETRY_SCHEDULE (with a jitter that
// only delays, and a receiver's Retry-After honoured up to twice the scheduled delay), or disable the
// webhook: at once on 410 Gone, or when the last attempt of an event fails with no success since
// that event's first attempt was made. Test sends never count; manual retries are not retried.
import type { Database } from 'bun:sqlite'
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/tx.ts'
import { isoTime } from '../../lib/clock.ts'
import { audit, SYSTEM_ACTOR } from '../audit/record.ts'
import { queueDelivery } from './queue-delivery.ts'
import type { AttemptOutcome } from './send-attempt.ts'
import { webhooks, type DeliveryTrigger } from './table.ts'

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

interface WebhookState {
  id: string
  organization_id: string
  enabled: number
  consecutive_failures: number
  failing_since: number | null
}

// Prepared statements (bun:sqlite caches them per connection): this runs for every attempt, and
// drizzle's builder would cost ~80 µs a query.
const CLOSE = `UPDATE webhook_deliveries SET status = ?, lease_until = NULL, next_attempt_at = NULL, response_code = ?, response_time_ms = ?,
  response_body = ?, error_class = ?, error_message = ?, delivered_at = ? WHERE id = ?`
const WEBHOOK = 'SELECT id, organization_id, enabled, consecutive_failures, failing_since FROM webhooks WHERE id = ?'
const SUCCEEDED = 'UPDATE webhooks SET consecutive_failures = 0, failing_since = NULL, last_success_at = ? WHERE id = ?'
const FAILED = 'UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, failing_since = ? WHERE id = ?'
// When this run of attempts began: its attempt 1 as recorded (delivered_at), not as queued (created_at),
// which on a real clock comes before the first failure and so before failing_since, every time. The
// latest such row of the trigger: a recovery starts a run of its own after the event's first one.
const FIRST_ATTEMPT = `SELECT delivered_at AS at FROM webhook_deliveries
  WHERE event_id = ? AND webhook_id = ? AND trigger = ? AND attempt = 1 AND delivered_at IS NOT NULL ORDER BY delivered_at DESC LIMIT 1`

/**
 * Records one attempt's outcome. Runs inside the caller's write transaction (`tx`, used for the rare
 * audit record), on the same connection as `sqlite`. `succeeded` spans one transaction's outcomes (one
 * `now`): the webhooks whose failure state a success already reset in it, which another success leaves as is.
 */
export function recordOutcome(tx: Tx, sqlite: Database, delivery: ClaimedDelivery, outcome: AttemptOutcome, scheduleMs: readonly number[], now: number, succeeded = new Set<string>()): OutcomeResult {
  sqlite
    .query(CLOSE)
    .run(outcome.ok ? 'success' : 'failed', outcome.responseCode, outcome.responseTimeMs, outcome.responseBody, outcome.errorClass, outcome.errorMessage, now, delivery.id)
  if (delivery.trigger === 'test') return { disabled: null, nextAttemptAt: null }
  if (outcome.ok) {
    if (!succeeded.has(delivery.webhook_id)) sqlite.query(SUCCEEDED).run(now, delivery.webhook_id)
    succeeded.add(delivery.webhook_id)
    return { disabled: null, nextAttemptAt: null }
  }
  succeeded.delete(delivery.webhook_id)
  const webhook = sqlite.query<WebhookState, [string]>(WEBHOOK).get(delivery.webhook_id)
  if (!webhook) return { disabled: null, nextAttemptAt: null }
  const failingSince = webhook.failing_since ?? now
  sqlite.query(FAILED).run(failingSince, webhook.id)
  if (webhook.enabled !== 1) return { disabled: null, nextAttemptAt: null }
  if (outcome.responseCode === 410) {
    disable(tx, webhook.id, webhook.organization_id, 'gone', `the receiver answered 410 Gone to delivery ${delivery.id}`, now)
    return { disabled: 'gone', nextAttemptAt: null }
  }
  if (delivery.trigger === 'retry') return { disabled: null, nextAttemptAt: null }
  const next = delivery.attempt + 1
  if (next > scheduleMs.length) {
    const first = sqlite.query<{ at: number }, [string, string, string]>(FIRST_ATTEMPT).get(delivery.event_id, delivery.webhook_id, delivery.trigger)?.at ?? now
    // Failing since that attempt or before: no success was recorded since the run began.
    if (failingSince <= first) {
      disable(tx, webhook.id, webhook.organization_id, 'exhausted', `all ${scheduleMs.length} attempts of event ${delivery.event_id} failed`, now)
      return { disabled: 'exhausted', nextAttemptAt: null }
    }
    return { disabled: null, nextAttemptAt: null }
  }
  let delay = scheduledDelay(scheduleMs, next)
  if (outcome.retryAfterS !== null) delay = Math.min(Math.max(delay, outcome.retryAfterS * 1000), 2 * (scheduleMs[next - 1] ?? 0))
  const nextAttemptAt = now + delay
  queueDelivery(sqlite, {
    organizationId: delivery.organization_id,
    webhookId: delivery.webhook_id,
    eventId: delivery.event_id,
    eventType: delivery.event_type,
    attempt: next,
    trigger: delivery.trigger,
    status: 'pending',
    nextAttemptAt,
    now,
  })
  return { disabled: null, nextAttemptAt }
}

function disable(tx: Tx, webhookId: string, organizationId: string, reason: 'exhausted' | 'gone', detail: string, now: number): void {
  tx.update(webhooks).set({ enabled: false, disabled_reason: reason, disabled_at: now, updated_at: now }).where(eq(webhooks.id, webhookId)).run()
  audit(tx, { organizationId, actor: SYSTEM_ACTOR, event: 'webhook.disabled', reason, target: { type: 'webhook', id: webhookId }, details: { detail, at: isoTime(now) }, now })
}
