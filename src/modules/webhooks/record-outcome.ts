// recordOutcome: after an attempt, in the dispatcher's write transaction: close its delivery row, update
// the webhook's failure state, and queue the next attempt by WEBHOOK_RETRY_SCHEDULE (with a jitter that
// only delays, and a receiver's Retry-After honoured up to twice the scheduled delay), or disable the
// webhook: at once on 410 Gone, or when the last attempt of an event fails with no success since
// that event's first attempt was made. Test sends never count; manual retries are not retried.
import type { Tx } from '../../db/database.ts'
import { isoTime } from '../../lib/clock.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { queueDelivery } from './queue-delivery.ts'
import type { AttemptOutcome } from './send-attempt.ts'
import { type AttemptRecord, closeDeliveries, closeDelivery, firstAttemptAt } from './store/deliveries.ts'
import type { ClaimedDelivery } from './store/dispatch.ts'
import { disableWebhookRow, markFailed, markSucceeded } from './store/webhooks.ts'

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

const NOTHING: OutcomeResult = Object.freeze({ disabled: null, nextAttemptAt: null })

/**
 * Records one attempt's outcome in `tx`. `succeeded` spans one transaction's outcomes (one `now`): the
 * webhooks whose failure state a success already reset in it, which another success leaves as is.
 */
export async function recordOutcome(
  tx: Tx,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  scheduleMs: readonly number[],
  now: number,
  succeeded = new Set<string>(),
): Promise<OutcomeResult> {
  await closeDelivery(tx, delivery.id, { status: outcome.ok ? 'success' : 'failed', ...outcome }, now)
  if (delivery.trigger === 'test') return NOTHING
  if (outcome.ok) {
    if (!succeeded.has(delivery.webhook_id)) await markSucceeded(tx, delivery.webhook_id, now)
    succeeded.add(delivery.webhook_id)
    return NOTHING
  }
  succeeded.delete(delivery.webhook_id)
  // Counted and read in one statement that keeps the webhook locked to the end: what follows decides on
  // a state no other dispatcher changes meanwhile (at most one of them disables it, once).
  const webhook = await markFailed(tx, delivery.webhook_id, now)
  // Deleted meanwhile: no next attempt (its row would name a webhook that is gone).
  if (!webhook) return NOTHING
  const failingSince = Number(webhook.failing_since)
  if (!webhook.enabled) return NOTHING
  if (outcome.responseCode === 410) {
    if (!(await disable(tx, webhook, 'gone', `the receiver answered 410 Gone to delivery ${delivery.id}`, now))) return NOTHING
    return { disabled: 'gone', nextAttemptAt: null }
  }
  if (delivery.trigger === 'retry') return NOTHING
  const next = delivery.attempt + 1
  if (next > scheduleMs.length) {
    const first = (await firstAttemptAt(tx, delivery)) ?? now
    // Failing since that attempt or before: no success was recorded since the run began.
    if (failingSince <= first) {
      if (!(await disable(tx, webhook, 'exhausted', `all ${scheduleMs.length} attempts of event ${delivery.event_id} failed`, now)))
        return NOTHING
      return { disabled: 'exhausted', nextAttemptAt: null }
    }
    return NOTHING
  }
  let delay = scheduledDelay(scheduleMs, next)
  if (outcome.retryAfterS !== null) delay = Math.min(Math.max(delay, outcome.retryAfterS * 1000), 2 * (scheduleMs[next - 1] ?? 0))
  const nextAttemptAt = now + delay
  await queueDelivery(tx, {
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

/** An outcome whose recording only closes its delivery row: a success, or any answer to a test send. */
export function closesOnly(f: { delivery: Pick<ClaimedDelivery, 'trigger'>; outcome: Pick<AttemptOutcome, 'ok'> }): boolean {
  return f.outcome.ok || f.delivery.trigger === 'test'
}

/**
 * Records the outcomes of many attempts in `tx`, in order, with the same result as recordOutcome on each
 * in turn: what only closes its row (a success, a test send) is gathered and written together — one
 * statement for the closes on PostgreSQL, the webhooks' success marks started together — before the
 * next failure, whose bookkeeping reads what those wrote.
 */
export async function recordOutcomes(
  tx: Tx,
  finished: ReadonlyArray<{ delivery: ClaimedDelivery; outcome: AttemptOutcome }>,
  scheduleMs: readonly number[],
  now: number,
): Promise<OutcomeResult[]> {
  const results: OutcomeResult[] = []
  const succeeded = new Set<string>()
  let closes: Array<{ id: string; record: AttemptRecord }> = []
  let marks: string[] = []
  const flush = async () => {
    if (closes.length === 0) return
    // Webhook rows in id order: two dispatchers marking the same webhooks lock them in one order.
    await Promise.all([closeDeliveries(tx, closes, now), ...marks.sort().map((id) => markSucceeded(tx, id, now))])
    closes = []
    marks = []
  }
  for (const f of finished) {
    const { delivery, outcome } = f
    if (!closesOnly(f)) {
      await flush()
      results.push(await recordOutcome(tx, delivery, outcome, scheduleMs, now, succeeded))
      continue
    }
    closes.push({ id: delivery.id, record: { status: outcome.ok ? 'success' : 'failed', ...outcome } })
    if (outcome.ok && delivery.trigger !== 'test' && !succeeded.has(delivery.webhook_id)) {
      marks.push(delivery.webhook_id)
      succeeded.add(delivery.webhook_id)
    }
    results.push(NOTHING)
  }
  await flush()
  return results
}

/**
 * Disabled by the system, with its audit record (webhook.disabled is not an event of the catalog); false,
 * and nothing recorded, when it was off already.
 */
async function disable(
  tx: Tx,
  webhook: { id: string; organization_id: string },
  reason: 'exhausted' | 'gone',
  detail: string,
  now: number,
): Promise<boolean> {
  // Conditional on being on: the one transaction that turns it off records it.
  if (!(await disableWebhookRow(tx, webhook.id, reason, now))) return false
  await appendAudit(tx, {
    organizationId: webhook.organization_id,
    actor: auditActorOf({ kind: 'system', id: 'cron' }),
    event: 'webhook.disabled',
    reason,
    target: { type: 'webhook', id: webhook.id },
    details: { detail, at: isoTime(now) },
    now,
  })
  return true
}
