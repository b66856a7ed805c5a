// endSession: ends one live session (its refresh tokens die, its access tokens are refused from now
// on). Your own, or, with session:delete, one of a user you may manage in your organization.
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { requirePermission } from '../access/index.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { assertCanManage, getUserInOrg } from '../users/index.ts'
import { findLiveSession, revokeSession } from './store.ts'

export async function endSession(ctx: Ctx<UserActor>, input: { sessionId: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const until = await ctx.db.write('session.end', async (tx) => {
    const session = await findLiveSession(tx, actor.organizationId, input.sessionId, now)
    if (!session) throw new AppError('NOT_FOUND', 'No such live session')
    if (session.user_id !== actor.userId) {
      requirePermission(actor, 'session:delete')
      assertCanManage(actor, await getUserInOrg(tx, actor.organizationId, session.user_id))
    }
    // Invariant: a session ends once. The conditional revoke decides: a request that lost the race answers 404.
    const until = await revokeSession(tx, session.id, 'ended', now)
    if (until === undefined) throw new AppError('NOT_FOUND', 'No such live session')
    const details = { user_id: session.user_id }
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'session.ended',
      target: { type: 'session', id: session.id },
      details,
      request: actor.request,
      now,
    })
    return until
  })
  ctx.ports.revocations.rememberSession(input.sessionId, until)
}
