// The keyring: RSA signing keys in the database (private parts sealed with the master key), the key
// that signs now, the keys that are published, rotation with a delayed activation, and signing.
import { createPublicKey, type KeyObject } from 'node:crypto'
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, SignJWT, type JWK, type JWTPayload } from 'jose'
import type { Database, Queries, Tx } from '../../db/database.ts'
import type { Clock } from '../../lib/clock.ts'
import type { SigningKeys } from '../../ports.ts'
import { seal, unseal } from './master-key.ts'
import { allKeys, anyKey, insertKey, keyByKid, type KeyRow, recordKeyUse, signerKey } from './store.ts'

export const ALG = 'RS256'
const MODULUS_BITS = 2048
// Verifiers may run a little ahead of us; keep retired keys this much longer than their last token.
const PUBLISH_SKEW_MS = 5 * 60 * 1000
// An unknown `kid` reloads keys from the database (a rotation by the CLI), at most this often.
const RELOAD_INTERVAL_MS = 1000

export interface PublicJwk extends JWK {
  kid: string
  alg: typeof ALG
  use: 'sig'
}

/** Every key that can still verify a live token, plus keys waiting to activate. */
export function publishedKeys(rows: readonly KeyRow[], now: number): PublicJwk[] {
  const current = rows.filter((r) => r.activates_at <= now).at(-1)
  return rows
    .filter((r) => r.activates_at > now || r.kid === current?.kid || r.max_token_expires_at + PUBLISH_SKEW_MS > now)
    .map((r) => JSON.parse(r.public_jwk) as PublicJwk)
}

export class Keyring implements SigningKeys {
  private readonly publicKeys = new Map<string, KeyObject>()
  private readonly privateKeys = new Map<string, CryptoKey>()
  private lastReload = -Infinity

  constructor(
    private readonly db: Database,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /** Makes the first key if there is none, loads every key, and proves the master key opens the signer. */
  async init(): Promise<void> {
    if (!(await anyKey(this.db))) await this.addKey(this.clock.now(), { onlyIfNone: true })
    await this.reload()
    await this.privateKey((await this.signer(this.clock.now())).kid)
  }

  /** Adds a key that is published at once and signs from `now + delayS`. */
  async rotate(delayS: number): Promise<{ kid: string; activates_at: string }> {
    const row = await this.addKey(this.clock.now() + delayS * 1000)
    await this.reload()
    return { kid: row.kid, activates_at: new Date(row.activates_at).toISOString() }
  }

  /** The key that signs at `now`: the latest one whose activation time has come. */
  async signer(now: number, db: Queries = this.db): Promise<{ kid: string; activatesAt: number }> {
    const row = await signerKey(db, now)
    if (!row) throw new Error('no signing key is active')
    return { kid: row.kid, activatesAt: Number(row.activates_at) }
  }

  /** Notes, inside the issuing transaction, that `kid` signs a token valid until `expiresAt` (ms). */
  async recordUse(tx: Tx, kid: string, expiresAt: number): Promise<void> {
    await recordKeyUse(tx, kid, expiresAt)
  }

  /** Every key that can still verify a live token, plus keys waiting to activate. */
  async published(now: number): Promise<PublicJwk[]> {
    return publishedKeys(await allKeys(this.db), now)
  }

  /** Signs with the given key; the header always carries alg RS256, typ JWT and the kid. */
  async sign(kid: string, payload: JWTPayload): Promise<string> {
    const privateKey = await this.privateKey(kid)
    // A key added by another process (keys rotate) must verify here before its first token leaves.
    if (!this.publicKeys.has(kid)) await this.reload()
    return new SignJWT(payload).setProtectedHeader({ alg: ALG, typ: 'JWT', kid }).sign(privateKey)
  }

  /** The public key for a `kid` already loaded (synchronous: it runs per request); see reloadKeys. */
  verificationKey(kid: string): KeyObject | undefined {
    return this.publicKeys.get(kid)
  }

  async reloadKeys(): Promise<boolean> {
    if (this.clock.now() - this.lastReload < RELOAD_INTERVAL_MS) return false
    const known = this.publicKeys.size
    await this.reload()
    return this.publicKeys.size > known
  }

  private async reload(): Promise<void> {
    this.lastReload = this.clock.now()
    for (const row of await allKeys(this.db)) {
      if (!this.publicKeys.has(row.kid)) this.publicKeys.set(row.kid, createPublicKey({ key: JSON.parse(row.public_jwk), format: 'jwk' }))
    }
  }

  private async privateKey(kid: string): Promise<CryptoKey> {
    const cached = this.privateKeys.get(kid)
    if (cached) return cached
    const row = await keyByKid(this.db, kid)
    if (!row) throw new Error(`no signing key ${kid}`)
    const pem = new TextDecoder().decode(unseal(this.masterKey, row.private_key_encrypted, row.kid))
    const key = await importPKCS8(pem, ALG)
    this.privateKeys.set(kid, key)
    return key
  }

  private async addKey(activatesAt: number, options: { onlyIfNone?: boolean } = {}): Promise<KeyRow> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { modulusLength: MODULUS_BITS, extractable: true })
    const jwk = await exportJWK(publicKey)
    const kid = await calculateJwkThumbprint(jwk)
    const publicJwk: PublicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e, kid, alg: ALG, use: 'sig' }
    const row: KeyRow = {
      kid,
      alg: ALG,
      public_jwk: JSON.stringify(publicJwk),
      private_key_encrypted: seal(this.masterKey, new TextEncoder().encode(await exportPKCS8(privateKey)), kid),
      created_at: this.clock.now(),
      activates_at: activatesAt,
      max_token_expires_at: 0,
    }
    // Sealed and generated before the write: no crypto while the writer is held.
    await insertKey(this.db, row, options)
    return row
  }
}
