// changePassword: the caller's own password, given the current one; every other session of the user ends.
import { and, eq, isNull } from 'drizzle-orm'
import type { AppDeps, SessionActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { validationError } from '../../errors.ts'
import { actorOf, audit } from '../audit/record.ts'
import { getUserInOrg } from '../users/get-user.ts'
import { users } from '../users/table.ts'
import { mfaChallenges } from '../mfa/table.ts'
import { chargePasswordAttempt } from './attempt-limit.ts'
import { hashPassword, verifyPassword } from './password.ts'
import { revokeUserSessions } from './sessions.ts'

export async function changePassword(deps: AppDeps, actor: SessionActor, input: { current_password: string; new_password: string }): Promise<void> {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  chargePasswordAttempt(deps, actor.request.ip, user.email)
  const record = { organizationId: actor.organizationId, actor: actorOf(actor), event: 'password.change', target: { type: 'user', id: user.id }, request: actor.request }
  if (!(await verifyPassword(input.current_password, user.passwordHash))) {
    write(deps.db, (tx) => audit(tx, { ...record, outcome: 'failure', reason: 'wrong_current_password', now: deps.clock.now() }))
    // 400, not 401: the caller's token is fine, and clients treat 401 as "sign in again".
    throw validationError([{ field: 'current_password', message: 'is not the current password' }])
  }
  const passwordHash = await hashPassword(input.new_password)
  const now = deps.clock.now()
  const revoked = write(deps.db, (tx) => {
    tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id)).run()
    const ended = revokeUserSessions(tx, user.id, 'password_changed', now, actor.credential.id)
    // A sign-in waiting for its second factor began with the old password: it ends too.
    tx.update(mfaChallenges).set({ consumedAt: now }).where(and(eq(mfaChallenges.userId, user.id), isNull(mfaChallenges.consumedAt))).run()
    audit(tx, { ...record, details: { sessions_ended: ended.length }, now })
    return ended
  })
  for (const [sessionId, until] of revoked) deps.revocations.rememberSession(sessionId, until)
}
