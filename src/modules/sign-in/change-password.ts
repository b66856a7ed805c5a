// changePassword: the caller's own password, given the current one; every other session of the user
// ends. Both hashes are worked out before the one write transaction, never inside it.
import type { Ctx, SessionActor } from '../../context.ts'
import { validationError } from '../../errors.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { getUserInOrg, setPasswordHash } from '../users/index.ts'
import { chargePasswordAttempt, revokeUserSessions } from '../auth/index.ts'
import { hashPassword, verifyPassword } from '../../lib/password.ts'
import { endOpenChallenges } from '../mfa/index.ts'

export async function changePassword(ctx: Ctx<SessionActor>, input: { current_password: string; new_password: string }): Promise<void> {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  await chargePasswordAttempt(ctx, actor.request.ip, user.email)
  const record = {
    organizationId: actor.organizationId,
    actor: auditActorOf(actor),
    event: 'password.change',
    target: { type: 'user', id: user.id },
    request: actor.request,
  }
  if (!(await verifyPassword(input.current_password, user.password_hash))) {
    const now = ctx.clock.now()
    await ctx.db.write('password.change_refused', (tx) =>
      appendAudit(tx, { ...record, outcome: 'failure', reason: 'wrong_current_password', now }),
    )
    // 400, not 401: the caller's token is fine, and clients treat 401 as "sign in again".
    throw validationError([{ field: 'current_password', message: 'is not the current password' }])
  }
  const passwordHash = await hashPassword(input.new_password)
  const now = ctx.clock.now()
  const revoked = await ctx.db.write('password.change', async (tx) => {
    await setPasswordHash(tx, user.id, passwordHash, now)
    // A sign-in waiting for its second factor began with the old password: it ends too. First: this
    // waits for a verification holding its challenge (mfa), so the revocation below sees its session.
    await endOpenChallenges(tx, user.id, now)
    const ended = await revokeUserSessions(tx, user.id, 'password_changed', now, actor.credential.id)
    await appendAudit(tx, { ...record, details: { sessions_ended: ended.length }, now })
    return ended
  })
  for (const [sessionId, until] of revoked) ctx.ports.revocations.rememberSession(sessionId, until)
}
