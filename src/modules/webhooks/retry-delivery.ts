// retryDelivery: POST /webhooks/{id}/deliveries/{delivery_id}/retry: the same event to the same
// webhook once more, now, as the next attempt; not retried further if it fails. A delivery still
// pending is already on its way: 409.
import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { insertClaimedAttempt, sendClaimed } from './send-now.ts'
import { webhookDeliveries } from './table.ts'

export async function retryDelivery(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'webhooks'>, actor: UserActor, webhookId: string, deliveryId: string) {
  const now = deps.clock.now()
  const claimed = write(deps.db, (tx) => {
    getWebhookInOrg(tx, actor.organizationId, webhookId)
    const original = tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhook_id, webhookId), eq(webhookDeliveries.organization_id, actor.organizationId)))
      .get()
    if (!original) throw new AppError('NOT_FOUND', 'No such delivery of this webhook')
    if (original.status === 'pending') throw new AppError('CONFLICT', 'This delivery is pending: it will be sent at its time')
    const last = tx
      .select({ attempt: sql<number>`max(${webhookDeliveries.attempt})` })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.event_id, original.event_id), eq(webhookDeliveries.webhook_id, webhookId)))
      .get()!.attempt
    return insertClaimedAttempt(
      tx,
      deps,
      { organizationId: actor.organizationId, webhookId, eventId: original.event_id, eventType: original.event_type, attempt: last + 1, trigger: 'retry' },
      now,
    )
  })
  return sendClaimed(deps, claimed)
}
