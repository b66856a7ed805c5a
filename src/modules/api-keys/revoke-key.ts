// revokeApiKey: the caller's own key stops working at once (every request reads its state).
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { requireSession } from '../access/index.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { revokeApiKeyRow } from './store.ts'

/** Needs a sign-in: keys are credentials, managed with a sign-in, never with a personal access token. */
export async function revokeApiKey(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const actor = requireSession(ctx.actor)
  const now = ctx.clock.now()
  await ctx.db.write('api_key.revoke', async (tx) => {
    // Invariant: a key is revoked once (one record): the conditional UPDATE decides, the loser answers 404.
    const revoked = await revokeApiKeyRow(tx, { id: input.id, organizationId: actor.organizationId, userId: actor.userId }, now)
    if (!revoked) throw new AppError('NOT_FOUND', 'No such API key')
    const details = { name: revoked.name, prefix: revoked.prefix }
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'pat.revoked',
      target: { type: 'api_key', id: input.id },
      details,
      request: actor.request,
      now,
    })
  })
}
