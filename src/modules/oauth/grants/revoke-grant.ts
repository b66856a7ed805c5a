// revokeGrant: the caller withdraws a consent: the grant is revoked and every token family of theirs with
// that client ends at once (refresh tokens refused, access tokens refused from now on). The client must
// ask for consent again. Another user's grant, or one already revoked, is 404.
import type { Ctx, SessionActor } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { findGrantById, revokeClientSessions, revokeGrant } from '../store.ts'

export async function revokeUserGrant(ctx: Ctx<SessionActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  // Ids are ogr_ and base32: anything else is no grant, without asking the database (PostgreSQL text cannot hold NUL).
  if (!/^[A-Za-z0-9_]{1,64}$/.test(input.id)) throw new AppError('NOT_FOUND', 'No such OAuth grant')
  const ended = await ctx.db.write('oauth.grant.revoke', async (tx) => {
    const grant = await findGrantById(tx, actor.organizationId, input.id)
    if (!grant || grant.user_id !== actor.userId || grant.revoked_at !== null) throw new AppError('NOT_FOUND', 'No such OAuth grant')
    // Invariant: a grant is revoked once (one record): the conditional UPDATE decides, the loser answers 404.
    if (!(await revokeGrant(tx, grant.id, now))) throw new AppError('NOT_FOUND', 'No such OAuth grant')
    const sessions = await revokeClientSessions(tx, actor.userId, grant.client_id, 'grant_revoked', now)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'oauth.grant.revoked',
      target: { type: 'oauth_grant', id: grant.id },
      details: { client_id: grant.client_id, scope: grant.scope, sessions_ended: sessions.length },
      request: actor.request,
      now,
    })
    return sessions
  })
  for (const [sessionId, until] of ended) ctx.ports.revocations.rememberSession(sessionId, until)
}
