// deleteOAuthClient: removes a client; its secret stops working at once.
import type { Ctx, UserActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { deleteClientRow, getClientInOrg } from './store.ts'

export async function deleteOAuthClient(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('oauth_client.delete', async (tx) => {
    const row = await getClientInOrg(tx, actor.organizationId, input.id)
    await deleteClientRow(tx, row.id)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'oauth_client.deleted',
      target: { type: 'oauth_client', id: row.id },
      details: { name: row.name, client_type: row.client_type },
      request: actor.request,
      now,
    })
  })
}
