// The idempotency module's only SQL: claim a key (insert it, or take over an expired or abandoned claim),
// read it, save the answer, release a claim, delete what expired. The primary key (scope, key) is what
// makes two concurrent claims of one key, on any instance, one winner and one conflict.
import type { Queries, Tx } from '../../db/database.ts'
import type { ClaimRef, StoredAnswer } from '../../ports.ts'

// ClaimRef: which claim a later write is about (a claim taken over by another request is no longer this one).
export type { ClaimRef, StoredAnswer }

/** A claim about to be written: who, which key, which request, when. */
export interface NewClaim {
  scope: string
  key: string
  organizationId: string | null
  requestHash: string
  now: number
  expiresAt: number
}

export interface StoredKey {
  requestHash: string
  status: 'in_progress' | 'done'
  createdAt: number
  expiresAt: number
  answer: StoredAnswer | undefined
}

/** True when the key was free and is now this request's. */
export async function insertClaim(tx: Tx, claim: NewClaim): Promise<boolean> {
  const inserted = await tx.raw.run(
    `INSERT INTO idempotency_keys (scope, idempotency_key, organization_id, request_hash, status, created_at, expires_at)
     VALUES (?, ?, ?, ?, 'in_progress', ?, ?) ON CONFLICT (scope, idempotency_key) DO NOTHING`,
    [claim.scope, claim.key, claim.organizationId, claim.requestHash, claim.now, claim.expiresAt],
  )
  return inserted === 1
}

/**
 * Replaces the row `seen` (expired, or an abandoned claim) with this claim; false when another request
 * changed the row after it was read (it took the key over first).
 */
export async function takeOverClaim(tx: Tx, claim: NewClaim, seen: Pick<StoredKey, 'status' | 'createdAt'>): Promise<boolean> {
  const changed = await tx.raw.run(
    `UPDATE idempotency_keys SET organization_id = ?, request_hash = ?, status = 'in_progress', response_status = NULL,
       response_headers = NULL, response_body = NULL, created_at = ?, expires_at = ?
     WHERE scope = ? AND idempotency_key = ? AND status = ? AND created_at = ?`,
    [claim.organizationId, claim.requestHash, claim.now, claim.expiresAt, claim.scope, claim.key, seen.status, seen.createdAt],
  )
  return changed === 1
}

export async function findKey(db: Queries, scope: string, key: string): Promise<StoredKey | undefined> {
  const row = await db.kysely
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'response_status', 'response_headers', 'response_body', 'created_at', 'expires_at'])
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    requestHash: row.request_hash,
    status: row.status,
    // BIGINT columns: PostgreSQL hands them back as strings.
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    answer:
      row.status === 'done' && row.response_status !== null
        ? {
            status: Number(row.response_status),
            headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
            body: row.response_body ?? '',
          }
        : undefined,
  }
}

/** Keeps the answer of the claim `ref`; false when the claim is no longer this request's. */
export async function saveAnswer(tx: Tx, ref: ClaimRef, answer: StoredAnswer): Promise<boolean> {
  const changed = await tx.raw.run(
    `UPDATE idempotency_keys SET status = 'done', response_status = ?, response_headers = ?, response_body = ?
     WHERE scope = ? AND idempotency_key = ? AND status = 'in_progress' AND created_at = ?`,
    [answer.status, JSON.stringify(answer.headers), answer.body, ref.scope, ref.key, ref.createdAt],
  )
  return changed === 1
}

/** Frees the key of the claim `ref` (its request failed on our side): the retry runs anew. */
export async function deleteClaim(tx: Tx, ref: ClaimRef): Promise<boolean> {
  const deleted = await tx.raw.run(
    "DELETE FROM idempotency_keys WHERE scope = ? AND idempotency_key = ? AND status = 'in_progress' AND created_at = ?",
    [ref.scope, ref.key, ref.createdAt],
  )
  return deleted === 1
}

/** Deletes the keys past their 24 hours (index idempotency_keys_expires). */
export async function deleteExpiredKeys(tx: Tx, now: number): Promise<number> {
  return tx.raw.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', [now])
}
