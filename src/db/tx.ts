// Write transactions: one synchronous BEGIN IMMEDIATE block. drizzle's bun:sqlite transactions commit
// at the first `await`, so an async callback is refused (and rolled back) instead of half-committing.
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
