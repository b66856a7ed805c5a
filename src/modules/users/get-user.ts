// User lookups and the user's public JSON; reads are always scoped to an organization.
import { and, eq, sql } from 'drizzle-orm'
import { prepared } from '../../db/prepared.ts'
import type { Db } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { users } from './table.ts'

export type UserRow = typeof users.$inferSelect

/** E-mails are unique without regard to case: compared and stored trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  const statement = prepared(db, 'user-by-email', (d) => d.select().from(users).where(eq(users.email, sql.placeholder('email'))).prepare())
  return statement.get({ email: normalizeEmail(email) })
}

/** Runs on every authenticated request: a prepared statement. */
export function findUserInOrg(db: Db, organizationId: string, id: string): UserRow | undefined {
  const statement = prepared(db, 'user-in-org', (d) =>
    d.select().from(users).where(and(eq(users.id, sql.placeholder('id')), eq(users.organizationId, sql.placeholder('org')))).prepare(),
  )
  return statement.get({ id, org: organizationId })
}

/** A user of another organization is indistinguishable from one that does not exist. */
export function getUserInOrg(db: Db, organizationId: string, id: string): UserRow {
  const user = findUserInOrg(db, organizationId, id)
  if (!user) throw new AppError('NOT_FOUND', 'No such user')
  return user
}

export function userJson(row: UserRow) {
  return {
    id: row.id,
    organization_id: row.organizationId,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    created_at: isoTime(row.createdAt),
    updated_at: isoTime(row.updatedAt),
  }
}
