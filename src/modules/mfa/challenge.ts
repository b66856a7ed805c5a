// Login challenges: after a correct password, a user with MFA gets an `mfa_token` instead of tokens.
// The token is random, stored as SHA-256, single-use, valid 5 minutes, and dies after 5 wrong codes.
import { eq } from 'drizzle-orm'
import type { Tx, Db } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { hashToken } from '../auth/sessions.ts'
import { mfaChallenges, type MfaMethod } from './table.ts'

export const CHALLENGE_TTL_MS = 5 * 60 * 1000
export const MAX_CHALLENGE_ATTEMPTS = 5

export type ChallengeRow = typeof mfaChallenges.$inferSelect

export function createChallenge(tx: Tx, user: { id: string; organizationId: string }, methods: MfaMethod[], now: number): { token: string; id: string } {
  const token = `mfa_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
  const id = prefixedId('mfc')
  tx.insert(mfaChallenges).values({ id, tokenHash: hashToken(token), userId: user.id, organizationId: user.organizationId, methods, createdAt: now, expiresAt: now + CHALLENGE_TTL_MS }).run()
  return { token, id }
}

/** The challenge of an `mfa_token` while it can still be answered: not used up and not expired. */
export function findLiveChallenge(db: Db, token: string, now: number): ChallengeRow | undefined {
  if (!token.startsWith('mfa_')) return undefined
  const row = db.select().from(mfaChallenges).where(eq(mfaChallenges.tokenHash, hashToken(token))).get()
  if (!row || row.consumedAt !== null || row.expiresAt <= now) return undefined
  return row
}
