// listWebhooks: the organization's webhooks, newest first, paginated like every list.
import type { Ctx, UserActor } from '../../context.ts'
import { type ListRequest, listBody } from '../../db/list.ts'
import { WEBHOOK_LIST } from './store/webhooks.ts'
import { webhookJson } from './webhook-json.ts'

export async function listWebhooks(ctx: Ctx<UserActor>, input: { request: ListRequest }) {
  const page = await WEBHOOK_LIST.page(ctx.db, ctx.pageTokens, input.request, { organizationId: ctx.actor.organizationId, filters: {} })
  return listBody('webhooks', page, webhookJson)
}
