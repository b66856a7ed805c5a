// logout: the presented access token is revoked until its expiry and its session ends (refresh tokens
// included); remembered in the database and in memory, so it survives a restart.
import type { Ctx, SessionActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { insertRevokedToken, revokeSession } from './store.ts'

export async function logout(ctx: Ctx<SessionActor>): Promise<void> {
  const { actor } = ctx
  const { credential } = actor
  const now = ctx.clock.now()
  const until = await ctx.db.write('logout', async (tx) => {
    await insertRevokedToken(tx, credential.tokenId, credential.tokenExpiresAt)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'logout',
      target: { type: 'session', id: credential.id },
      request: actor.request,
      now,
    })
    return revokeSession(tx, credential.id, 'logout', now)
  })
  ctx.ports.revocations.rememberToken(credential.tokenId, credential.tokenExpiresAt)
  if (until !== undefined) ctx.ports.revocations.rememberSession(credential.id, until)
}
