// api_keys: personal access tokens. Only the SHA-256 of the token is kept, with a short prefix to show.

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
