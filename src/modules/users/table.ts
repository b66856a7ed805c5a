// users: people who sign in; e-mail unique across the installation (stored lowercased).
import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core'
import type { Role } from '../access/index.ts'

export const USER_STATUSES = ['active', 'disabled'] as const
export type UserStatus = (typeof USER_STATUSES)[number]

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** The name folded for sorting and prefix search (see searchKey): SQLite folds only ASCII case. */
    nameKey: text('name_key').notNull().default(''),
    role: text('role').$type<Role>().notNull(),
    status: text('status', { enum: USER_STATUSES }).notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_org_created').on(t.organizationId, t.createdAt, t.id),
    index('users_org_name_key').on(t.organizationId, t.nameKey, t.id),
  ],
)

/** A row of users (Kysely). */
export interface UsersTable {
  id: string
  organization_id: string
  /** Trimmed and lowercased: unique without regard to case. */
  email: string
  name: string
  /** The name folded for sorting and prefix search (see searchKey): SQLite folds only ASCII case. */
  name_key: string
  role: Role
  status: UserStatus
  password_hash: string
  created_at: number
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    users: UsersTable
  }
}
