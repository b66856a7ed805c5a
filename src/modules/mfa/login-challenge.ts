// Login challenges: after a correct password, a user with MFA gets an `mfa_token` instead of tokens.
// The token is random, stored as SHA-256, single-use, valid MFA_TOKEN_TTL (5 minutes by default), and dies
// after 5 wrong codes.
import type { Queries, Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { type ChallengeRow, findChallengeByTokenHash, insertChallenge, lockChallengeByTokenHash, recentFailures } from './store.ts'
import type { MfaMethod } from './table.ts'

export const MAX_CHALLENGE_ATTEMPTS = 5
/**
 * Wrong codes a user may send across all their challenges in a window: five per challenge alone
 * would let someone who has the password sign in again and again and guess TOTP codes without end.
 */
export const MAX_FAILURES_PER_WINDOW = 10
export const FAILURE_WINDOW_MS = 15 * 60 * 1000

/** A challenge as the verbs see it: its offered methods parsed. */
export type LiveChallenge = Omit<ChallengeRow, 'methods'> & { methods: MfaMethod[] }

/** SHA-256 (hex) of the token: the token itself is never stored. */
export function hashChallengeToken(token: string): string {
  return new Bun.CryptoHasher('sha256').update(token).digest('hex')
}

/** Inside the login's transaction: a new challenge offering `methods`; returns the `mfa_token` to hand out once. */
export async function createChallenge(
  tx: Tx,
  user: { id: string; organization_id: string },
  methods: MfaMethod[],
  now: number,
  ttlMs: number,
): Promise<{ token: string; id: string }> {
  const token = `mfa_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`
  const id = prefixedId('mfc')
  await insertChallenge(tx, {
    id,
    token_hash: hashChallengeToken(token),
    user_id: user.id,
    organization_id: user.organization_id,
    methods: JSON.stringify(methods),
    attempts: 0,
    created_at: now,
    expires_at: now + ttlMs,
    consumed_at: null,
    sms_code_hash: null,
    sms_expires_at: null,
  })
  return { token, id }
}

function live(row: ChallengeRow | undefined, now: number): LiveChallenge | undefined {
  if (!row || row.consumed_at !== null || row.expires_at <= now) return undefined
  return { ...row, methods: JSON.parse(row.methods) as MfaMethod[] }
}

/** The challenge of an `mfa_token` while it can still be answered: not used up and not expired. */
export async function findLiveChallenge(db: Queries, token: string, now: number): Promise<LiveChallenge | undefined> {
  if (!token.startsWith('mfa_')) return undefined
  return live(await findChallengeByTokenHash(db, hashChallengeToken(token)), now)
}

/**
 * As findLiveChallenge, inside the transaction that answers it, its row locked until commit. Invariant:
 * an `mfa_token` opens one session at most and counts every wrong code (the fifth ends it).
 */
export async function lockLiveChallenge(tx: Tx, token: string, now: number): Promise<LiveChallenge | undefined> {
  if (!token.startsWith('mfa_')) return undefined
  return live(await lockChallengeByTokenHash(tx, hashChallengeToken(token)), now)
}

/** When the user sent too many wrong codes lately: the seconds until the window lets them try again. */
export async function lockedForSeconds(db: Queries, userId: string, now: number): Promise<number | undefined> {
  const recent = await recentFailures(db, userId, now - FAILURE_WINDOW_MS)
  if (recent.failures < MAX_FAILURES_PER_WINDOW || recent.since === null) return undefined
  return (recent.since + FAILURE_WINDOW_MS - now) / 1000
}
