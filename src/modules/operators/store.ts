// The operators module's SQL: the operator tokens, looked up by hash on each operator request.
import type { Queries, Tx } from '../../db/database.ts'
import type { OperatorTokensTable } from './table.ts'

export type OperatorTokenRow = OperatorTokensTable

export async function insertOperatorToken(tx: Tx, row: OperatorTokenRow): Promise<void> {
  await tx.kysely.insertInto('operator_tokens').values(row).execute()
}

export async function findOperatorTokenByHash(db: Queries, tokenHash: string): Promise<OperatorTokenRow | undefined> {
  return db.raw.get<OperatorTokenRow>('SELECT * FROM operator_tokens WHERE token_hash = ?', [tokenHash])
}

export async function listOperatorTokenRows(db: Queries): Promise<OperatorTokenRow[]> {
  return db.kysely.selectFrom('operator_tokens').selectAll().orderBy('created_at').orderBy('id').execute()
}

/** Revokes a live token; undefined when there is no such live token. */
export async function revokeOperatorTokenRow(tx: Tx, id: string, now: number): Promise<OperatorTokenRow | undefined> {
  return tx.kysely
    .updateTable('operator_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** Records a use, at most once a minute per token (a write per request would queue behind the writer). */
export async function touchOperatorToken(tx: Tx, id: string, now: number): Promise<void> {
  await tx.raw.run('UPDATE operator_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [
    now,
    id,
    now - 60_000,
  ])
}
