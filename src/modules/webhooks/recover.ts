// recoverWebhook: POST /webhooks/{id}/recover {since}: queues again every event since `since` (at
// most 14 days back) that matched this webhook and was not delivered — failed for good, or skipped
// while the webhook was disabled. Each starts a fresh schedule. The webhook must be on.
import type { Ctx, UserActor } from '../../context.ts'
import { AppError, validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { deliveryRow } from './queue-delivery.ts'
import { insertDeliveries, undeliveredEvents } from './store/deliveries.ts'
import { lockWebhookInOrg } from './store/webhooks.ts'

export const RECOVER_WINDOW_MS = 14 * 86_400_000

export async function recoverWebhook(
  ctx: Ctx<UserActor>,
  input: { webhookId: string; since: string },
): Promise<{ queued: number; since: string }> {
  const { actor } = ctx
  const { webhookId } = input
  const now = ctx.clock.now()
  const since = parseDateTime(input.since)
  if (since === undefined) throw validationError([{ field: 'since', message: DATE_TIME_EXPECTED }])
  if (since < now - RECOVER_WINDOW_MS) throw validationError([{ field: 'since', message: 'must be at most 14 days ago' }])
  if (since > now) throw validationError([{ field: 'since', message: 'must not be in the future' }])
  const queued = await ctx.db.write('webhook.recover', async (tx) => {
    // Locked: two recoveries at once would each queue every undelivered event (each sent twice); the
    // second reads the first's pending rows instead, and queues nothing more.
    const webhook = await lockWebhookInOrg(tx, actor.organizationId, webhookId, 'change')
    if (!webhook.enabled) throw new AppError('CONFLICT', 'The webhook is disabled: turn it back on first (PATCH {"enabled": true})')
    const events = await undeliveredEvents(tx, actor.organizationId, webhookId, since)
    // 14 days of events can be 100,000 rows: written many to a statement.
    const rows = events.map((event) =>
      deliveryRow({
        organizationId: actor.organizationId,
        webhookId,
        eventId: event.event_id,
        eventType: event.event_type,
        attempt: 1,
        trigger: 'recover',
        status: 'pending',
        nextAttemptAt: now,
        now,
      }),
    )
    await insertDeliveries(tx, rows)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'webhook.recovered',
      target: { type: 'webhook', id: webhookId },
      details: { since: input.since, queued: events.length },
      request: actor.request,
      now,
    })
    if (rows.length > 0) tx.afterCommit(() => ctx.ports.wakeups.deliveriesQueued())
    return rows.length
  })
  return { queued, since: new Date(since).toISOString() }
}
