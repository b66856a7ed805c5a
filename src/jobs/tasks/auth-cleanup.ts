// Cron task: forgets revocations nobody can present any more, deletes refresh tokens that are expired
// or belong to ended sessions, MFA challenges an hour past their expiry, and SMS records older than a day
// (the throttle looks back one hour).
import { inArray, isNotNull, lte, or } from 'drizzle-orm'
import type { AppDatabase } from '../../db/open.ts'
import { refreshTokens, revokedTokens, sessions } from '../../modules/auth/table.ts'
import { mfaChallenges, smsMessages } from '../../modules/mfa/table.ts'
import type { Revocations } from '../../modules/auth/revocations.ts'
import type { TaskDefinition } from '../scheduler.ts'

export function authCleanupTask(deps: { db: AppDatabase; revocations: Revocations }, intervalMs = 5 * 60 * 1000): TaskDefinition {
  return {
    name: 'auth_cleanup',
    intervalMs,
    run({ now }) {
      const revoked = deps.db.delete(revokedTokens).where(lte(revokedTokens.expiresAt, now)).returning({ jti: revokedTokens.jti }).all()
      const ended = deps.db.select({ id: sessions.id }).from(sessions).where(isNotNull(sessions.revokedAt))
      const refresh = deps.db
        .delete(refreshTokens)
        .where(or(lte(refreshTokens.expiresAt, now), inArray(refreshTokens.sessionId, ended)))
        .returning({ id: refreshTokens.id })
        .all()
      // Kept an hour past expiry: their wrong-code counts feed the per-user lockout window.
      const challenges = deps.db
        .delete(mfaChallenges)
        .where(lte(mfaChallenges.expiresAt, now - 60 * 60 * 1000))
        .returning({ id: mfaChallenges.id })
        .all()
      const sms = deps.db
        .delete(smsMessages)
        .where(lte(smsMessages.sentAt, now - 24 * 60 * 60 * 1000))
        .returning({ id: smsMessages.id })
        .all()
      const forgotten = deps.revocations.prune(now)
      return {
        worked: revoked.length + refresh.length + challenges.length + sms.length + forgotten > 0,
        revoked_tokens_deleted: revoked.length,
        refresh_tokens_deleted: refresh.length,
        mfa_challenges_deleted: challenges.length,
        sms_records_deleted: sms.length,
        revocations_forgotten: forgotten,
      }
    },
  }
}
