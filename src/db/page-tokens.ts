// The server side of page tokens: a secret made once per installation (kept in system_kv), the TTL,
// the clock, and the one error every unusable token gets: 400 INVALID_PAGE_TOKEN.
import { eq } from 'drizzle-orm'
import { AppError } from '../errors.ts'
import type { Clock } from '../lib/clock.ts'
import { decodePageToken, encodePageToken, type PageBinding, type PagePosition } from '../lib/page-token.ts'
import { systemKv } from './kv.ts'
import type { AppDatabase } from './open.ts'

const SECRET_KEY = 'page_token_key'

const REASONS = {
  malformed: 'The page token is malformed',
  forged: 'The page token was altered or was not issued by this server',
  expired: 'The page token has expired; start again from the first page',
  other_organization: 'The page token belongs to another organization',
  other_query: 'The page token was made for other filters or another sort; keep them unchanged while paging',
} as const

export class PageTokens {
  private constructor(
    private readonly key: Uint8Array,
    private readonly ttlS: number,
    private readonly clock: Clock,
  ) {}

  /** Loads the installation's page-token secret, creating it on first use. */
  static load(db: AppDatabase, ttlS: number, clock: Clock): PageTokens {
    let row = db.select().from(systemKv).where(eq(systemKv.key, SECRET_KEY)).get()
    if (!row) {
      const value = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
      db.insert(systemKv).values({ key: SECRET_KEY, value, updatedAt: clock.now() }).onConflictDoNothing().run()
      row = db.select().from(systemKv).where(eq(systemKv.key, SECRET_KEY)).get()!
    }
    return new PageTokens(new Uint8Array(Buffer.from(row.value, 'base64')), ttlS, clock)
  }

  encode(binding: PageBinding, position: PagePosition): string {
    return encodePageToken(this.key, binding, position, Math.floor(this.clock.now() / 1000) + this.ttlS)
  }

  /** The position the token points at; 400 INVALID_PAGE_TOKEN when it cannot be used here. */
  decode(token: string, binding: PageBinding): PagePosition {
    const result = decodePageToken(this.key, token, binding, Math.floor(this.clock.now() / 1000))
    if (typeof result === 'string') throw new AppError('INVALID_PAGE_TOKEN', REASONS[result])
    return result
  }
}
