// listDeliveries: a webhook's delivery records, one per attempt, newest first; filters status and event_id.
import type { Ctx, UserActor } from '../../context.ts'
import { type ListRequest, listBody } from '../../db/list.ts'
import { deliveryJson } from './delivery-json.ts'
import { DELIVERY_LIST, deliveryConditions } from './store/deliveries.ts'
import { getWebhookInOrg } from './store/webhooks.ts'
import type { DeliveryStatus } from './table.ts'

export interface DeliveryFilters {
  status?: DeliveryStatus
  event_id?: string
}

export async function listDeliveries(ctx: Ctx<UserActor>, input: { webhookId: string; filters: DeliveryFilters; request: ListRequest }) {
  const { actor } = ctx
  const { webhookId, filters } = input
  await getWebhookInOrg(ctx.db, actor.organizationId, webhookId)
  const page = await DELIVERY_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: actor.organizationId,
    filters: { webhook_id: webhookId, ...filters },
    where: deliveryConditions(webhookId, filters),
  })
  return listBody('deliveries', page, deliveryJson)
}
