// users: people who sign in; e-mail unique across the installation (stored lowercased).
import type { Role } from '../access/index.ts'

export const USER_STATUSES = ['active', 'disabled'] as const
export type UserStatus = (typeof USER_STATUSES)[number]

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
