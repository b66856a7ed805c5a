// The MFA module's SQL: each user's factors, recovery codes, login challenges (and the step-up codes
// kept beside them) and the sent-SMS records of the throttle. Kysely for rows, raw SQL for aggregates.
import type { Queries, Tx } from '../../db/database.ts'
import type { MfaChallengesTable, MfaFactorsTable, MfaMethod, MfaRecoveryCodesTable, SmsMessagesTable } from './table.ts'

export type FactorRow = MfaFactorsTable
export type ChallengeRow = MfaChallengesTable

/**
 * Serializes the transactions that read and then change one user's MFA state: a TOTP step or a code
 * spent once, the failure window and the SMS throttle counted exactly, one enrollment confirmed once.
 * A keyed lock, not a row: the state spans rows (factors, challenges, sent messages) that may not exist yet.
 */
export function lockUserMfa(tx: Tx, userId: string): Promise<void> {
  return tx.lock(`mfa:${userId}`)
}

// Factors ----------------------------------------------------------------------------------------

export async function findFactor(db: Queries, userId: string, method: MfaMethod): Promise<FactorRow | undefined> {
  return db.raw.get<FactorRow>('SELECT * FROM mfa_factors WHERE user_id = ? AND method = ?', [userId, method])
}

/** The methods of the user's confirmed factors, in no particular order. */
export async function confirmedFactorMethods(db: Queries, userId: string): Promise<MfaMethod[]> {
  const rows = await db.raw.all<{ method: MfaMethod }>('SELECT method FROM mfa_factors WHERE user_id = ? AND confirmed_at IS NOT NULL', [
    userId,
  ])
  return rows.map((row) => row.method)
}

export async function insertFactor(tx: Tx, row: FactorRow): Promise<void> {
  await tx.kysely.insertInto('mfa_factors').values(row).execute()
}

export type FactorChanges = Partial<Omit<FactorRow, 'user_id' | 'method' | 'organization_id' | 'created_at'>>

/** Changes the user's factor of `method`; with `ifPendingCodeHash`, only while that code is still the pending one. */
export async function updateFactor(
  tx: Tx,
  userId: string,
  method: MfaMethod,
  changes: FactorChanges,
  ifPendingCodeHash?: string,
): Promise<void> {
  let query = tx.kysely.updateTable('mfa_factors').set(changes).where('user_id', '=', userId).where('method', '=', method)
  if (ifPendingCodeHash !== undefined) query = query.where('pending_code_hash', '=', ifPendingCodeHash)
  await query.execute()
}

export async function deleteFactor(tx: Tx, userId: string, method: MfaMethod): Promise<void> {
  await tx.raw.run('DELETE FROM mfa_factors WHERE user_id = ? AND method = ?', [userId, method])
}

// Recovery codes ---------------------------------------------------------------------------------

/** The user's codes become `rows`: the previous ones stop working. */
export async function replaceRecoveryCodeRows(tx: Tx, userId: string, rows: MfaRecoveryCodesTable[]): Promise<void> {
  await deleteRecoveryCodes(tx, userId)
  if (rows.length > 0) await tx.kysely.insertInto('mfa_recovery_codes').values(rows).execute()
}

/** Marks an unused code of the user with this hash used; true when there was one. */
export async function useRecoveryCodeHash(tx: Tx, userId: string, codeHash: string, now: number): Promise<boolean> {
  return (
    (await tx.raw.run('UPDATE mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL', [
      now,
      userId,
      codeHash,
    ])) === 1
  )
}

export async function countUnusedRecoveryCodes(db: Queries, userId: string): Promise<number> {
  const row = await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM mfa_recovery_codes WHERE user_id = ? AND used_at IS NULL', [
    userId,
  ])
  return Number(row?.n ?? 0)
}

export async function deleteRecoveryCodes(tx: Tx, userId: string): Promise<void> {
  await tx.raw.run('DELETE FROM mfa_recovery_codes WHERE user_id = ?', [userId])
}

// Challenges -------------------------------------------------------------------------------------

export async function insertChallenge(tx: Tx, row: ChallengeRow): Promise<void> {
  await tx.kysely.insertInto('mfa_challenges').values(row).execute()
}

export async function findChallengeByTokenHash(db: Queries, tokenHash: string): Promise<ChallengeRow | undefined> {
  return db.raw.get<ChallengeRow>('SELECT * FROM mfa_challenges WHERE token_hash = ?', [tokenHash])
}

/** The challenge of a token hash, its row locked until commit: its attempts and its one use are decided one request at a time. */
export async function lockChallengeByTokenHash(tx: Tx, tokenHash: string): Promise<ChallengeRow | undefined> {
  return tx.raw.get<ChallengeRow>(`SELECT * FROM mfa_challenges WHERE token_hash = ?${tx.forUpdate}`, [tokenHash])
}

export type ChallengeChanges = Partial<Pick<ChallengeRow, 'attempts' | 'consumed_at' | 'sms_code_hash' | 'sms_expires_at'>>

/** Changes a challenge; with `ifSmsCodeHash`, only while that SMS code is still its current one. */
export async function updateChallenge(tx: Tx, id: string, changes: ChallengeChanges, ifSmsCodeHash?: string): Promise<void> {
  let query = tx.kysely.updateTable('mfa_challenges').set(changes).where('id', '=', id)
  if (ifSmsCodeHash !== undefined) query = query.where('sms_code_hash', '=', ifSmsCodeHash)
  await query.execute()
}

/** Wrong codes the user sent in challenges created after `since`, and when the oldest of those began. */
export async function recentFailures(db: Queries, userId: string, since: number): Promise<{ failures: number; since: number | null }> {
  const row = await db.raw.get<{ failures: number | null; since: number | null }>(
    'SELECT sum(attempts) AS failures, min(created_at) AS since FROM mfa_challenges WHERE user_id = ? AND created_at > ? AND attempts > 0',
    [userId, since],
  )
  return { failures: Number(row?.failures ?? 0), since: row?.since == null ? null : Number(row.since) }
}

/** Unused, unexpired step-up codes of the user (rows whose token_hash starts with `mark`), newest first. */
export async function liveStepUpCodes(
  db: Queries,
  userId: string,
  mark: string,
  now: number,
): Promise<{ id: string; sms_code_hash: string | null }[]> {
  return db.raw.all(
    'SELECT id, sms_code_hash FROM mfa_challenges WHERE user_id = ? AND token_hash LIKE ? AND consumed_at IS NULL AND expires_at > ? ORDER BY created_at DESC',
    [userId, `${mark}%`, now],
  )
}

// Sent text messages -----------------------------------------------------------------------------

/** Messages sent to the user after `since`: how many, the newest and the oldest time. */
export async function recentSms(tx: Tx, userId: string, since: number): Promise<{ n: number; last: number | null; first: number | null }> {
  const row = await tx.raw.get<{ n: number; last: number | null; first: number | null }>(
    'SELECT count(*) AS n, max(sent_at) AS last, min(sent_at) AS first FROM sms_messages WHERE user_id = ? AND sent_at > ?',
    [userId, since],
  )
  return { n: Number(row?.n ?? 0), last: row?.last == null ? null : Number(row.last), first: row?.first == null ? null : Number(row.first) }
}

export async function insertSmsMessage(tx: Tx, row: SmsMessagesTable): Promise<void> {
  await tx.kysely.insertInto('sms_messages').values(row).execute()
}

/** Ends the user's sign-ins still waiting for a second factor (they began with a password now changed). */
export async function endOpenChallenges(tx: Tx, userId: string, now: number): Promise<void> {
  await tx.raw.run('UPDATE mfa_challenges SET consumed_at = ? WHERE user_id = ? AND consumed_at IS NULL', [now, userId])
}

const HOUR_MS = 60 * 60 * 1000

/**
 * Deletes MFA challenges an hour past expiry (their wrong-code counts feed the per-user lockout window)
 * and SMS records older than a day (the throttle looks back one hour); for the mfa_cleanup task.
 */
export async function deleteStaleMfaRecords(tx: Tx, now: number) {
  return {
    mfaChallenges: await tx.raw.run('DELETE FROM mfa_challenges WHERE expires_at <= ?', [now - HOUR_MS]),
    smsMessages: await tx.raw.run('DELETE FROM sms_messages WHERE sent_at <= ?', [now - 24 * HOUR_MS]),
  }
}
