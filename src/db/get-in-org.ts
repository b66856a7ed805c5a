// getInOrg / findInOrg: one row of an organization's table by id. A row of another organization is
// exactly as missing as one that does not exist: both are 404 with the same message.
import { AppError } from '../errors.ts'
import type { Queries, Tables } from './database.ts'

type TableName = keyof Tables & string
type OrgTable = { [T in TableName]: Tables[T] extends { id: string; organization_id: string } ? T : never }[TableName]

/** The row, or undefined when it does not exist in this organization. */
export async function findInOrg<T extends OrgTable>(
  db: Queries,
  table: T,
  organizationId: string,
  id: string,
): Promise<Tables[T] | undefined> {
  return db.raw.get<Tables[T]>(`SELECT * FROM ${table} WHERE id = ? AND organization_id = ?`, [id, organizationId])
}

/** The row, or 404 NOT_FOUND "No such <what>". */
export async function getInOrg<T extends OrgTable>(
  db: Queries,
  table: T,
  organizationId: string,
  id: string,
  what: string,
): Promise<Tables[T]> {
  const row = await findInOrg(db, table, organizationId, id)
  if (!row) throw new AppError('NOT_FOUND', `No such ${what}`)
  return row
}
