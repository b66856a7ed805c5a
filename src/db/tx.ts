// Write transactions: one synchronous BEGIN IMMEDIATE block. drizzle's bun:sqlite transactions commit
// at the first `await`, so an async callback is refused (and rolled back) instead of half-committing.
import type { Database } from 'bun:sqlite'
import type { AppDatabase } from './open.ts'

export type Tx = Parameters<Parameters<AppDatabase['transaction']>[0]>[0]
/** Where a query may run: the database itself or an open transaction. */
export type Db = AppDatabase | Tx

export function write<T>(db: AppDatabase, block: (tx: Tx) => T): T {
  return db.transaction(
    (tx) => {
      const result = block(tx)
      if (result instanceof Promise) throw new Error('write() blocks must be synchronous: do network and crypto I/O outside the transaction')
      return result
    },
    { behavior: 'immediate' },
  )
}

/**
 * The bun:sqlite connection under a drizzle database or transaction, for prepared statements on hot
 * write paths (drizzle's builder renders SQL anew on every call). Statements run on it inside an open
 * transaction take part in it: SQLite transactions belong to the connection.
 */
export function connectionOf(db: Db): Database {
  // drizzle 0.45's bun:sqlite session keeps the client it was given (open.ts: the cached-statement proxy).
  return (db as unknown as { session: { client: Database } }).session.client
}
