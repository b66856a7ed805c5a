// endSession: ends one live session (its refresh tokens die, its access tokens are refused from now
// on). Your own, or, with session:delete, one of a user you may manage in your organization.
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { requirePermission } from '../access/require.ts'
import { actorOf, audit } from '../audit/record.ts'
import { getUserInOrg } from '../users/get-user.ts'
import { assertCanManage } from '../users/rules.ts'
import { revokeSession } from './sessions.ts'
import { sessions } from './table.ts'

export function endSession(deps: AppDeps, actor: UserActor, sessionId: string): void {
  const now = deps.clock.now()
  const until = write(deps.db, (tx) => {
    const session = tx
      .select({ id: sessions.id, userId: sessions.userId })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.organizationId, actor.organizationId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .get()
    if (!session) throw new AppError('NOT_FOUND', 'No such live session')
    if (session.userId !== actor.userId) {
      requirePermission(actor, 'session:delete')
      assertCanManage(actor, getUserInOrg(tx, actor.organizationId, session.userId))
    }
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'session.ended', target: { type: 'session', id: session.id }, details: { user_id: session.userId }, request: actor.request, now })
    return revokeSession(tx, session.id, 'ended', now)
  })
  if (until !== undefined) deps.revocations.rememberSession(sessionId, until)
}
