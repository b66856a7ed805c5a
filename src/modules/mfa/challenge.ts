// Login challenges: after a correct password, a user with MFA gets an `mfa_token` instead of tokens.
// The token is random, stored as SHA-256, single-use, valid MFA_TOKEN_TTL (5 minutes by default), and dies
// after 5 wrong codes.
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Tx, Db } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { hashToken } from '../auth/sessions.ts'
import { mfaChallenges, type MfaMethod } from './table.ts'

export const MAX_CHALLENGE_ATTEMPTS = 5
/**
 * Wrong codes a user may send across all their challenges in a window: five per challenge alone
 * would let someone who has the password sign in again and again and guess TOTP codes without end.
 */
export const MAX_FAILURES_PER_WINDOW = 10
export const FAILURE_WINDOW_MS = 15 * 60 * 1000

export type ChallengeRow = typeof mfaChallenges.$inferSelect

export function createChallenge(tx: Tx, user: { id: string; organizationId: string }, methods: MfaMethod[], now: number, ttlMs: number): { token: string; id: string } {
  const token = `mfa_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
  const id = prefixedId('mfc')
  tx.insert(mfaChallenges).values({ id, tokenHash: hashToken(token), userId: user.id, organizationId: user.organizationId, methods, createdAt: now, expiresAt: now + ttlMs }).run()
  return { token, id }
}

/** The challenge of an `mfa_token` while it can still be answered: not used up and not expired. */
export function findLiveChallenge(db: Db, token: string, now: number): ChallengeRow | undefined {
  if (!token.startsWith('mfa_')) return undefined
  const row = db.select().from(mfaChallenges).where(eq(mfaChallenges.tokenHash, hashToken(token))).get()
  if (!row || row.consumedAt !== null || row.expiresAt <= now) return undefined
  return row
}

/** When the user sent too many wrong codes lately: the seconds until the window lets them try again. */
export function lockedForSeconds(db: Db, userId: string, now: number): number | undefined {
  const recent = db
    .select({ failures: sql<number | null>`sum(${mfaChallenges.attempts})`, since: sql<number | null>`min(${mfaChallenges.createdAt})` })
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.userId, userId), gt(mfaChallenges.createdAt, now - FAILURE_WINDOW_MS), gt(mfaChallenges.attempts, 0)))
    .get()
  if (!recent?.failures || recent.failures < MAX_FAILURES_PER_WINDOW || recent.since === null) return undefined
  return (recent.since + FAILURE_WINDOW_MS - now) / 1000
}
