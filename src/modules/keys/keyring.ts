// The keyring: RSA signing keys in the database (private parts sealed with the master key), the key
// that signs now, the keys that are published, rotation with a delayed activation, and signing.
import { createPublicKey, type KeyObject } from 'node:crypto'
import { desc, eq, sql } from 'drizzle-orm'
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, SignJWT, type JWK, type JWTPayload } from 'jose'
import type { AppDatabase } from '../../db/open.ts'
import type { Db } from '../../db/tx.ts'
import type { Clock } from '../../lib/clock.ts'
import { seal, unseal } from './master-key.ts'
import { signingKeys } from './table.ts'

export const ALG = 'RS256'
const MODULUS_BITS = 2048
// Verifiers may run a little ahead of us; keep retired keys this much longer than their last token.
const PUBLISH_SKEW_MS = 5 * 60 * 1000
// An unknown `kid` reloads keys from the database (a rotation by the CLI), at most this often.
const RELOAD_INTERVAL_MS = 1000

type KeyRow = typeof signingKeys.$inferSelect

export interface PublicJwk extends JWK {
  kid: string
  alg: typeof ALG
  use: 'sig'
}

export class Keyring {
  private readonly publicKeys = new Map<string, KeyObject>()
  private readonly privateKeys = new Map<string, CryptoKey>()
  private lastReload = -Infinity

  constructor(
    private readonly db: AppDatabase,
    private readonly masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {}

  /** Makes the first key if there is none, loads every key, and proves the master key opens the signer. */
  async init(): Promise<void> {
    if (this.db.select({ kid: signingKeys.kid }).from(signingKeys).limit(1).all().length === 0) await this.addKey(this.clock.now())
    this.reload()
    await this.privateKey(this.signer(this.clock.now()).kid)
  }

  /** Adds a key that is published at once and signs from `now + delayS`. */
  async rotate(delayS: number): Promise<{ kid: string; activates_at: string }> {
    const row = await this.addKey(this.clock.now() + delayS * 1000)
    this.reload()
    return { kid: row.kid, activates_at: new Date(row.activatesAt).toISOString() }
  }

  /** The key that signs at `now`: the latest one whose activation time has come. */
  signer(now: number, db: Db = this.db): KeyRow {
    const row = db.select().from(signingKeys).where(sql`${signingKeys.activatesAt} <= ${now}`).orderBy(desc(signingKeys.activatesAt), desc(signingKeys.createdAt)).limit(1).get()
    if (!row) throw new Error('no signing key is active')
    return row
  }

  /** Notes, inside the issuing transaction, that `kid` signs a token valid until `expiresAt` (ms). */
  recordUse(tx: Db, kid: string, expiresAt: number): void {
    tx.update(signingKeys)
      .set({ maxTokenExpiresAt: sql`max(${signingKeys.maxTokenExpiresAt}, ${expiresAt})` })
      .where(eq(signingKeys.kid, kid))
      .run()
  }

  /** Every key that can still verify a live token, plus keys waiting to activate. */
  published(now: number): PublicJwk[] {
    const rows = this.db.select().from(signingKeys).orderBy(signingKeys.activatesAt).all()
    const current = rows.filter((r) => r.activatesAt <= now).at(-1)
    return rows
      .filter((r) => r.activatesAt > now || r.kid === current?.kid || r.maxTokenExpiresAt + PUBLISH_SKEW_MS > now)
      .map((r) => JSON.parse(r.publicJwk) as PublicJwk)
  }

  /** Signs with the given key; the header always carries alg RS256, typ JWT and the kid. */
  async sign(kid: string, payload: JWTPayload): Promise<string> {
    const privateKey = await this.privateKey(kid)
    // A key added by another process (keys rotate) must verify here before its first token leaves.
    if (!this.publicKeys.has(kid)) this.reload()
    return new SignJWT(payload).setProtectedHeader({ alg: ALG, typ: 'JWT', kid }).sign(privateKey)
  }

  /** The public key for a `kid`, or undefined for a key we never had (synchronous: it runs per request). */
  verificationKey(kid: string): KeyObject | undefined {
    const known = this.publicKeys.get(kid)
    if (known || this.clock.now() - this.lastReload < RELOAD_INTERVAL_MS) return known
    this.reload()
    return this.publicKeys.get(kid)
  }

  private reload(): void {
    this.lastReload = this.clock.now()
    for (const row of this.db.select().from(signingKeys).all()) {
      if (!this.publicKeys.has(row.kid)) this.publicKeys.set(row.kid, createPublicKey({ key: JSON.parse(row.publicJwk), format: 'jwk' }))
    }
  }

  private async privateKey(kid: string): Promise<CryptoKey> {
    const cached = this.privateKeys.get(kid)
    if (cached) return cached
    const row = this.db.select().from(signingKeys).where(eq(signingKeys.kid, kid)).get()
    if (!row) throw new Error(`no signing key ${kid}`)
    const pem = new TextDecoder().decode(unseal(this.masterKey, row.privateKeyEncrypted, row.kid))
    const key = await importPKCS8(pem, ALG)
    this.privateKeys.set(kid, key)
    return key
  }

  private async addKey(activatesAt: number): Promise<KeyRow> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { modulusLength: MODULUS_BITS, extractable: true })
    const jwk = await exportJWK(publicKey)
    const kid = await calculateJwkThumbprint(jwk)
    const publicJwk: PublicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e, kid, alg: ALG, use: 'sig' }
    const row: KeyRow = {
      kid,
      alg: ALG,
      publicJwk: JSON.stringify(publicJwk),
      privateKeyEncrypted: seal(this.masterKey, new TextEncoder().encode(await exportPKCS8(privateKey)), kid),
      createdAt: this.clock.now(),
      activatesAt,
      maxTokenExpiresAt: 0,
    }
    this.db.insert(signingKeys).values(row).run()
    return row
  }
}
