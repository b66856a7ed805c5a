// deleteOAuthClient: removes a client; its secret stops working at once.
import type { Ctx, UserActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { AppError } from '../../errors.ts'
import { deleteClientRow } from './store.ts'

export async function deleteOAuthClient(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('oauth_client.delete', async (tx) => {
    // Invariant: a client is deleted once (one record): the DELETE's returned row decides, the loser answers 404.
    const row = await deleteClientRow(tx, actor.organizationId, input.id)
    if (!row) throw new AppError('NOT_FOUND', 'No such OAuth client')
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
