// deleteWebhook: removes the webhook and its delivery records; pending deliveries go with them.
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { deleteWebhookRow, getWebhookInOrg } from './store/webhooks.ts'

export async function deleteWebhook(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('webhook.delete', async (tx) => {
    const row = await getWebhookInOrg(tx, actor.organizationId, input.id)
    // Two deletes at once: the one whose DELETE removed the row answers 204, the other 404.
    if (!(await deleteWebhookRow(tx, row.id))) throw new AppError('NOT_FOUND', 'No such webhook')
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
