// signing_keys: RSA keys for tokens; private parts encrypted with the master key.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const signingKeys = sqliteTable('signing_keys', {
  /** RFC 7638 thumbprint of the public key. */
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  /** Public JWK, JSON. */
  publicJwk: text('public_jwk').notNull(),
  /** PKCS#8 private key, AES-256-GCM encrypted with the master key (base64 of iv || ciphertext || tag). */
  privateKeyEncrypted: text('private_key_encrypted').notNull(),
  createdAt: integer('created_at').notNull(),
  /** From this time the key signs (until a later key activates); it is published from creation. */
  activatesAt: integer('activates_at').notNull(),
  /** Latest `exp` of a token it signed: it stays published until then. */
  maxTokenExpiresAt: integer('max_token_expires_at').notNull(),
})

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
