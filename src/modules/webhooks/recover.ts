// recoverWebhook: POST /webhooks/{id}/recover {since}: queues again every event since `since` (at
// most 14 days back) that matched this webhook and was not delivered — failed for good, or skipped
// while the webhook was disabled. Each starts a fresh schedule. The webhook must be on.
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError, validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { actorOf, audit } from '../audit/record.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { queueDelivery } from './queue-delivery.ts'
import { deliveriesQueued } from './signal.ts'

export const RECOVER_WINDOW_MS = 14 * 86_400_000

const UNDELIVERED = `SELECT event_id, event_type FROM webhook_deliveries d
  WHERE webhook_id = ?1 AND organization_id = ?2 AND created_at >= ?3 AND trigger <> 'test'
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries s WHERE s.webhook_id = d.webhook_id AND s.event_id = d.event_id AND s.status IN ('success', 'pending'))
  GROUP BY event_id ORDER BY min(created_at)`

export function recoverWebhook(deps: Pick<AppDeps, 'db' | 'sqlite' | 'clock'>, actor: UserActor, webhookId: string, sinceText: string): { queued: number; since: string } {
  const now = deps.clock.now()
  const since = parseDateTime(sinceText)
  if (since === undefined) throw validationError([{ field: 'since', message: DATE_TIME_EXPECTED }])
  if (since < now - RECOVER_WINDOW_MS) throw validationError([{ field: 'since', message: 'must be at most 14 days ago' }])
  if (since > now) throw validationError([{ field: 'since', message: 'must not be in the future' }])
  const queued = write(deps.db, (tx) => {
    const webhook = getWebhookInOrg(tx, actor.organizationId, webhookId)
    if (!webhook.enabled) throw new AppError('CONFLICT', 'The webhook is disabled: turn it back on first (PATCH {"enabled": true})')
    const events = deps.sqlite.query<{ event_id: string; event_type: string }, [string, string, number]>(UNDELIVERED).all(webhookId, actor.organizationId, since)
    // 14 days of events can be 100,000 rows: queueDelivery's prepared insert, not the query builder.
    for (const event of events) {
      queueDelivery(deps.sqlite, { organizationId: actor.organizationId, webhookId, eventId: event.event_id, eventType: event.event_type, attempt: 1, trigger: 'recover', status: 'pending', nextAttemptAt: now, now })
    }
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'webhook.recovered', target: { type: 'webhook', id: webhookId }, details: { since: sinceText, queued: events.length }, request: actor.request, now })
    return events.length
  })
  if (queued > 0) deliveriesQueued()
  return { queued, since: new Date(since).toISOString() }
}
