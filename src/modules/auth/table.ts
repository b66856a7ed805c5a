// Sessions (one per login), their rotating refresh tokens, and revoked access-token ids.

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
  /** `api` (a sign-in through /api/v1/auth), `browser` (the authorization server's cookie) or `oauth` (one client's tokens). */
  kind: SessionKindName
  /** `oauth`: the client whose tokens these are. */
  client_id: string | null
  /** `oauth`: the granted scopes, space-separated. */
  scope: string | null
  /** `oauth`: the browser session the authorization code came from (the ID token's `sid`). */
  parent_session_id: string | null
  /** `browser`: SHA-256 (hex) of the cookie's value. */
  cookie_hash: string | null
}

export type SessionKindName = 'api' | 'browser' | 'oauth'

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
