// signing_keys: RSA keys for tokens; private parts encrypted with the master key.

/** A row of signing_keys (Kysely). */
export interface SigningKeysTable {
  kid: string
  alg: string
  public_jwk: string
  private_key_encrypted: string
  created_at: number
  activates_at: number
  max_token_expires_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    signing_keys: SigningKeysTable
  }
}
