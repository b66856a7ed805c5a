// retryDelivery: POST /webhooks/{id}/deliveries/{delivery_id}/retry: the same event to the same
// webhook once more, now, as the next attempt; not retried further if it fails. A delivery still
// pending is already on its way: 409.
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { insertClaimedAttempt, sendClaimed } from './send-now.ts'
import { type DeliveryRow, findDeliveryOfWebhook, lastAttemptOf } from './store/deliveries.ts'
import { lockWebhookInOrg } from './store/webhooks.ts'

export async function retryDelivery(ctx: Ctx<UserActor>, input: { webhookId: string; deliveryId: string }): Promise<DeliveryRow> {
  const { actor } = ctx
  const { webhookId } = input
  const now = ctx.clock.now()
  const claimed = await ctx.db.write('webhook.retry', async (tx) => {
    // Locked: the next attempt's number is read then written; retries at once each get their own.
    await lockWebhookInOrg(tx, actor.organizationId, webhookId, 'change')
    const original = await findDeliveryOfWebhook(tx, actor.organizationId, webhookId, input.deliveryId)
    if (!original) throw new AppError('NOT_FOUND', 'No such delivery of this webhook')
    if (original.status === 'pending') throw new AppError('CONFLICT', 'This delivery is pending: it will be sent at its time')
    const last = await lastAttemptOf(tx, webhookId, original.event_id)
    return insertClaimedAttempt(
      tx,
      ctx,
      {
        organizationId: actor.organizationId,
        webhookId,
        eventId: original.event_id,
        eventType: original.event_type,
        attempt: last + 1,
        trigger: 'retry',
      },
      now,
    )
  })
  return sendClaimed(ctx, claimed)
}
