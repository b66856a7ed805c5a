// User lookups and the user's public JSON; reads are always scoped to an organization.
import { and, eq } from 'drizzle-orm'
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
  return db.select().from(users).where(eq(users.email, normalizeEmail(email))).get()
}

export function findUserInOrg(db: Db, organizationId: string, id: string): UserRow | undefined {
  return db.select().from(users).where(and(eq(users.id, id), eq(users.organizationId, organizationId))).get()
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
