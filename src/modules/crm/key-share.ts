// The row lock a transaction takes on an account or contact it reads in order to name it (a contact's
// account, a call's contact): the lock the foreign key's check of the insert takes anyway, taken at the
// read so that the record is checked and named under one lock.
import { keyShareIn, type Queries } from '../../db/database.ts'

/**
 * ' FOR KEY SHARE' when `db` is a PostgreSQL write transaction (Tx.forKeyShare), '' otherwise
 * (a read connection; SQLite's one writer). Invariant: no record names a deleted or merged-away row. A
 * delete or a merge locks the row FOR UPDATE first, which waits for every key-share holder and makes
 * them wait: a namer either commits first and is then counted, moved or released by it, or waits and
 * then no longer finds the row (400). Key-share holders never block one another, nor a PATCH's UPDATE.
 */
export function keyShare(db: Queries): string {
  return keyShareIn(db)
}
