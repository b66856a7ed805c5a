// deleteWebhook: removes the webhook and its delivery records; pending deliveries go with them.
import type { Ctx, UserActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { deleteWebhookRow, getWebhookInOrg } from './store/webhooks.ts'

export async function deleteWebhook(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('webhook.delete', async (tx) => {
    const row = await getWebhookInOrg(tx, actor.organizationId, input.id)
    await deleteWebhookRow(tx, row.id)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'webhook.deleted',
      target: { type: 'webhook', id: row.id },
      details: { url: row.url },
      request: actor.request,
      now,
    })
  })
}
