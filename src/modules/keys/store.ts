// The keys module's SQL: the signing keys, their use by issued tokens, and what is published.
import type { Database, Queries, Tx } from '../../db/database.ts'
import type { SigningKeysTable } from './table.ts'

export type KeyRow = SigningKeysTable

export async function anyKey(db: Queries): Promise<boolean> {
  return (await db.kysely.selectFrom('signing_keys').select('kid').limit(1).executeTakeFirst()) !== undefined
}

/**
 * Adds `row`; `onlyIfNone`: unless a key exists by then (two instances starting at the same moment on
 * an empty database each made one: the first to write wins, the other's is dropped). True if added.
 */
export async function insertKey(db: Database, row: KeyRow, options: { onlyIfNone?: boolean } = {}): Promise<boolean> {
  return db.write('signing_key.add', async (tx) => {
    // Exactly one first key: first starts at once check for none one after another (there is no row to lock).
    if (options.onlyIfNone) await tx.lock('signing-keys:first')
    if (options.onlyIfNone && (await anyKey(tx))) return false
    await tx.kysely.insertInto('signing_keys').values(row).execute()
    return true
  })
}

/**
 * Every key, oldest activation first. The kid breaks ties (rotations at the same millisecond, on two
 * instances at once): the last key active is then the same one signerKey() picks, on every instance.
 */
export async function allKeys(db: Queries): Promise<KeyRow[]> {
  return db.kysely.selectFrom('signing_keys').selectAll().orderBy('activates_at').orderBy('created_at').orderBy('kid').execute()
}

export async function keyByKid(db: Queries, kid: string): Promise<KeyRow | undefined> {
  return db.kysely.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst()
}

// Once per sign-in and refresh: a raw statement. Ties broken by kid, as allKeys() does: one current key.
const SIGNER =
  'SELECT kid, activates_at FROM signing_keys WHERE activates_at <= ? ORDER BY activates_at DESC, created_at DESC, kid DESC LIMIT 1'

/** The latest key whose activation time has come. */
export async function signerKey(db: Queries, now: number): Promise<{ kid: string; activates_at: number } | undefined> {
  return db.raw.get<{ kid: string; activates_at: number }>(SIGNER, [now])
}

// max() of two values is spelt differently by each engine (max / greatest): a CASE is the same on both.
const RECORD_USE =
  'UPDATE signing_keys SET max_token_expires_at = CASE WHEN max_token_expires_at < ? THEN ? ELSE max_token_expires_at END WHERE kid = ?'

export async function recordKeyUse(tx: Tx, kid: string, expiresAt: number): Promise<void> {
  await tx.raw.run(RECORD_USE, [expiresAt, expiresAt, kid])
}
