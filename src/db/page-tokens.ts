// The server side of page tokens: a secret made once per installation (kept in system_kv), the TTL,
// the clock, and the one error every unusable token gets: 400 INVALID_PAGE_TOKEN.
import { AppError } from '../errors.ts'
import type { Clock } from '../lib/clock.ts'
import { decodePageToken, encodePageToken, type PageBinding, type PagePosition } from '../lib/page-token.ts'
import type { Database } from './database.ts'
import { getKv, putKvIfAbsent } from './kv.ts'

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
  static async load(db: Database, ttlS: number, clock: Clock): Promise<PageTokens> {
    let value = await getKv(db, SECRET_KEY)
    if (value === undefined) {
      const made = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')
      // Another process (a CLI command, a second start) may have made one meanwhile: theirs wins.
      value = await db.write('page token secret', (tx) => putKvIfAbsent(tx, SECRET_KEY, made, clock.now()))
    }
    return new PageTokens(new Uint8Array(Buffer.from(value, 'base64')), ttlS, clock)
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
