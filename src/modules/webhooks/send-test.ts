// sendTestEvent: POST /webhooks/{id}/test: an event of the asked type carrying its documented example
// data (the event-data module's, as /openapi.json shows it) marked `test: true`, sent to this webhook only
// (whatever its events filter), through the real pipeline; returns its delivery record. A test never
// counts toward disabling, and is not retried.
import type { Ctx, UserActor } from '../../context.ts'
import { validationError } from '../../errors.ts'
import { testEventData } from '../event-data/index.ts'
import { isEventType, recordEvent } from '../events/index.ts'
import { insertClaimedAttempt, sendClaimed } from './send-now.ts'
import type { DeliveryRow } from './store/deliveries.ts'
import { lockWebhookInOrg } from './store/webhooks.ts'

export async function sendTestEvent(ctx: Ctx<UserActor>, input: { webhookId: string; eventType: string }): Promise<DeliveryRow> {
  const { actor } = ctx
  const { webhookId, eventType } = input
  if (!isEventType(eventType))
    throw validationError([{ field: 'event_type', message: `${JSON.stringify(eventType)} is not an event type of the catalog` }])
  const now = ctx.clock.now()
  const claimed = await ctx.db.write('webhook.test', async (tx) => {
    // Held (KEY SHARE) until commit: a delete at once waits, so the delivery row never names a webhook
    // that is gone (404, not the foreign key's 500); test sends at once do not wait for each other.
    await lockWebhookInOrg(tx, actor.organizationId, webhookId, 'exist')
    // The event row only: no audit record, and no fan-out to the organization's other webhooks.
    const event = await recordEvent(tx, {
      organizationId: actor.organizationId,
      type: eventType,
      data: testEventData(eventType),
      now,
    })
    return insertClaimedAttempt(
      tx,
      ctx,
      { organizationId: actor.organizationId, webhookId, eventId: event.id, eventType, attempt: 1, trigger: 'test' },
      now,
    )
  })
  return sendClaimed(ctx, claimed)
}
