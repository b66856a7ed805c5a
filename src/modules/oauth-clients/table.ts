// oauth_clients: the applications an organization lets ask for tokens. A confidential client's secret is kept as its SHA-256 only.

export const CLIENT_TYPES = ['confidential', 'public'] as const
export type ClientType = (typeof CLIENT_TYPES)[number]

/** A row of oauth_clients (Kysely). */
export interface OAuthClientsTable {
  /** `ocl_…`: the OAuth client_id too. */
  id: string
  organization_id: string
  name: string
  client_type: ClientType
  /** SHA-256 (hex) of the secret; null for a public client. */
  secret_hash: string | null
  /** The secret's last 4 characters, to recognise it; null for a public client. */
  secret_hint: string | null
  /** JSON array of URIs, each compared as an exact string (loopback: any port). */
  redirect_uris: string
  /** JSON array of URIs for RP-initiated logout. */
  post_logout_redirect_uris: string
  /** JSON array of grant types. */
  grant_types: string
  /** JSON array of scopes the client may ask for. */
  scopes: string
  /** The user who registered it; null when the operator did (the CLI). */
  created_by: string | null
  created_at: number
  updated_at: number
  secret_rotated_at: number | null
}

declare module '../../db/database.ts' {
  interface Tables {
    oauth_clients: OAuthClientsTable
  }
}
