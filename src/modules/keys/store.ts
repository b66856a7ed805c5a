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

// Only ever raised, and only in whole minutes: the key is published until its last token expires, a
// minute longer at most. So this UPDATE changes (and locks) the key's row once a minute, not on every
// sign-in: on PostgreSQL the row is the same for every instance, and a lock on it held to each
// issuing transaction's commit would serialize every sign-in of the cluster. The statement runs in the
// commit batch (Tx.atCommit) besides: when it does change the row, the lock is held for the server's
// execution only.
const RECORD_USE = 'UPDATE signing_keys SET max_token_expires_at = ? WHERE kid = ? AND max_token_expires_at < ?'
const MINUTE_MS = 60_000

export async function recordKeyUse(tx: Tx, kid: string, expiresAt: number): Promise<void> {
  const until = Math.ceil(expiresAt / MINUTE_MS) * MINUTE_MS
  void tx.atCommit(() => tx.raw.run(RECORD_USE, [until, kid, until]))
}
