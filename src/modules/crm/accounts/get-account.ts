// Reading one account: the organization's account, or 404 (another organization's is as missing).
import type { Queries, Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { type AccountRow, findAccount, lockAccount } from './store.ts'

/** `db` is the transaction when the verb writes. */
export async function getAccount(db: Queries, organizationId: string, id: string): Promise<AccountRow> {
  const account = await findAccount(db, organizationId, id)
  if (!account) throw new AppError('NOT_FOUND', 'No such account')
  return account
}

/** As getAccount, locked FOR UPDATE until the transaction ends (lockAccount): for a verb that changes or deletes it. */
export async function getAccountForUpdate(tx: Tx, organizationId: string, id: string): Promise<AccountRow> {
  const account = await lockAccount(tx, organizationId, id)
  if (!account) throw new AppError('NOT_FOUND', 'No such account')
  return account
}
