// Sessions (one per login), their rotating refresh tokens, and revoked access-token ids.
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { organizations } from '../organizations/table.ts'
import { users } from '../users/table.ts'

/** A login: every token issued from it carries its id as `sid`; its refresh tokens form one family. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at').notNull(),
    /** Latest `exp` of an access token issued for this session: until then, revocation must be remembered. */
    accessExpiresAt: integer('access_expires_at').notNull(),
    /** Expiry of its newest refresh token: after it the session is over even if never revoked. */
    expiresAt: integer('expires_at').notNull().default(0),
    /** How the user proved who they are (RFC 8176 `amr` values), JSON array, e.g. ["pwd","otp"]. */
    authMethods: text('auth_methods', { mode: 'json' }).$type<string[]>().notNull().default([]),
    /** The organization requires MFA and the user has none: tokens reach only the MFA enrollment routes. */
    mfaEnrollmentOnly: integer('mfa_enrollment_only', { mode: 'boolean' }).notNull().default(false),
    revokedAt: integer('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user').on(t.userId, t.createdAt, t.id), index('sessions_revoked').on(t.revokedAt)],
)

export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    /** SHA-256 (hex) of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    generation: integer('generation').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** Set when it was exchanged for its successor; presenting it again is reuse. */
    consumedAt: integer('consumed_at'),
  },
  (t) => [index('refresh_tokens_session').on(t.sessionId), index('refresh_tokens_expires').on(t.expiresAt)],
)

/** Access tokens revoked before their expiry (logout), kept until they would have expired. */
export const revokedTokens = sqliteTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('revoked_tokens_expires').on(t.expiresAt)],
)

/** A row of sessions (Kysely). */
export interface SessionsTable {
  id: string
  organization_id: string
  user_id: string
  ip: string | null
  user_agent: string | null
  created_at: number
  last_used_at: number
  /** Latest `exp` (ms) of an access token issued for this session: until then, revocation must be remembered. */
  access_expires_at: number
  /** Expiry of its newest refresh token. */
  expires_at: number
  /** JSON array of RFC 8176 `amr` values. */
  auth_methods: string
  /** 0 or 1 (read back with Boolean()). */
  mfa_enrollment_only: number | boolean
  revoked_at: number | null
  revoked_reason: string | null
}

/** A row of refresh_tokens (Kysely). */
export interface RefreshTokensTable {
  id: string
  session_id: string
  /** SHA-256 (hex) of the token. */
  token_hash: string
  generation: number
  created_at: number
  expires_at: number
  consumed_at: number | null
}

/** A row of revoked_tokens (Kysely). */
export interface RevokedTokensTable {
  jti: string
  expires_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    sessions: SessionsTable
    refresh_tokens: RefreshTokensTable
    revoked_tokens: RevokedTokensTable
  }
}
