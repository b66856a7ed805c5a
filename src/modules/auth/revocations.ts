// What has been revoked before it expired, kept in memory for the per-request check and loaded from
// the database at boot, so a logout survives a restart: revoked access-token ids and revoked sessions.
// With several instances, share() passes every revocation to the others through Redis (shared-revocations.ts).
import type { Queries } from '../../db/database.ts'
import type { SharedRedis } from '../../db/redis.ts'
import { type Clock, systemClock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import type { RevocationList } from '../../ports.ts'
import { SharedRevocations } from './shared-revocations.ts'
import { liveRevocations } from './store.ts'

export class Revocations implements RevocationList {
  /** jti -> expiry (ms) of the revoked token. */
  private readonly tokens = new Map<string, number>()
  /** session id -> latest expiry (ms) of an access token issued for it. */
  private readonly sessions = new Map<string, number>()
  private sharing: SharedRevocations | undefined

  async load(db: Queries, now: number): Promise<this> {
    const live = await liveRevocations(db, now)
    for (const [jti, until] of live.tokens) this.tokens.set(jti, until)
    for (const [id, until] of live.sessions) this.sessions.set(id, until)
    return this
  }

  /**
   * Shares the list with the other instances through Redis: what is remembered here is published, what
   * they publish is applied here. Call once, after load(). `clock`: the time of the reloads after an outage.
   */
  share(redis: SharedRedis, db: Queries, log: Logger, clock: Clock = systemClock): this {
    this.sharing ??= new SharedRevocations(redis, {
      apply: (tokens, sessions) => {
        for (const [jti, until] of tokens) this.tokens.set(jti, until)
        for (const [id, until] of sessions) this.sessions.set(id, until)
      },
      reload: async () => {
        await this.load(db, clock.now())
      },
      db,
      log,
    })
    return this
  }

  /** Whether share() was called: the list is shared through Redis. */
  get isShared(): boolean {
    return this.sharing !== undefined
  }

  revoked(jti: string, sessionId: string): boolean | Promise<boolean> {
    if (this.tokens.has(jti) || this.sessions.has(sessionId)) return true
    // Alone, or in step with the others: memory knows every revocation.
    if (this.sharing === undefined || this.sharing.current()) return false
    return this.sharing.recorded(jti, sessionId)
  }

  isTokenRevoked(jti: string): boolean {
    return this.tokens.has(jti)
  }

  isSessionRevoked(sessionId: string): boolean {
    return this.sessions.has(sessionId)
  }

  /** Call after the transaction that recorded the revocation has committed. */
  rememberToken(jti: string, expiresAt: number): void {
    this.tokens.set(jti, expiresAt)
    this.sharing?.publish('t', jti, expiresAt)
  }

  rememberSession(sessionId: string, accessExpiresAt: number): void {
    this.sessions.set(sessionId, accessExpiresAt)
    this.sharing?.publish('s', sessionId, accessExpiresAt)
  }

  /** Forgets what can no longer be presented (every token it concerned has expired). */
  prune(now: number): number {
    let pruned = 0
    for (const map of [this.tokens, this.sessions]) {
      for (const [key, until] of map) {
        if (until <= now) {
          map.delete(key)
          pruned++
        }
      }
    }
    return pruned
  }
}
