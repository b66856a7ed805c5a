// api_keys: personal access tokens. Only the SHA-256 of the token is kept, with a short prefix to show.
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { organizations } from '../organizations/table.ts'
import { users } from '../users/table.ts'

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** SHA-256 (hex) of the whole token. */
    tokenHash: text('token_hash').notNull().unique(),
    /** The first characters of the token, enough to recognise it. */
    prefix: text('prefix').notNull(),
    /** JSON array of grants; null: every permission of the owner. */
    permissions: text('permissions', { mode: 'json' }).$type<string[] | null>(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('api_keys_user_created').on(t.userId, t.createdAt, t.id)],
)

/** A row of api_keys (Kysely). */
export interface ApiKeysTable {
  id: string
  organization_id: string
  user_id: string
  name: string
  /** SHA-256 (hex) of the whole token. */
  token_hash: string
  prefix: string
  /** JSON array of grants; null: every permission of the owner. */
  permissions: string | null
  created_at: number
  expires_at: number
  last_used_at: number | null
  last_used_ip: string | null
  revoked_at: number | null
}

declare module '../../db/database.ts' {
  interface Tables {
    api_keys: ApiKeysTable
  }
}
