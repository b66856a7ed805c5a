// The authorization server's tables: consents remembered per user and client, and authorization codes
// (hashed, kept until they expire so that a replay is recognised). Its sessions are rows of `sessions`
// (kinds `browser` and `oauth`, see the auth module's table.ts).

/** A row of oauth_grants (Kysely): what a user consented to for a client, until revoked. */
export interface OAuthGrantsTable {
  /** `ogr_…` */
  id: string
  organization_id: string
  user_id: string
  client_id: string
  /** Consented scopes, space-separated, in the order of ALL_SCOPES. */
  scope: string
  created_at: number
  updated_at: number
  revoked_at: number | null
}

/** A row of oauth_codes (Kysely). */
export interface OAuthCodesTable {
  /** SHA-256 (hex) of the code. */
  code_hash: string
  organization_id: string
  client_id: string
  user_id: string
  /** Exactly as the authorization request sent it: the token request must send the same. */
  redirect_uri: string
  /** Granted scopes, space-separated. */
  scope: string
  /** S256 challenge (base64url), or null when the (confidential) client sent none. */
  code_challenge: string | null
  nonce: string | null
  /** The browser session the user signed in with (the ID token's `sid`). */
  browser_session_id: string
  /** When the user signed in (ms): the ID token's `auth_time`. */
  auth_time: number
  /** JSON array of RFC 8176 `amr` values of that sign-in. */
  auth_methods: string
  created_at: number
  expires_at: number
  consumed_at: number | null
  /** The `oauth` session the code's exchange opened: revoked if the code is replayed. */
  session_id: string | null
}

declare module '../../db/database.ts' {
  interface Tables {
    oauth_grants: OAuthGrantsTable
    oauth_codes: OAuthCodesTable
  }
}
