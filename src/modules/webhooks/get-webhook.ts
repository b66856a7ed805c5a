// getWebhook: one webhook of the caller's organization; another organization's is NOT_FOUND, like a missing one.
import type { Ctx, UserActor } from '../../context.ts'
import { getWebhookInOrg, type WebhookRow } from './store/webhooks.ts'

export async function getWebhook(ctx: Ctx<UserActor>, input: { id: string }): Promise<WebhookRow> {
  return getWebhookInOrg(ctx.db, ctx.actor.organizationId, input.id)
}
