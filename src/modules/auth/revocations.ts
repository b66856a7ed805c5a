// What has been revoked before it expired, kept in memory for the per-request check and loaded from
// the database at boot, so a logout survives a restart: revoked access-token ids and revoked sessions.
import type { Queries } from '../../db/database.ts'
import type { RevocationList } from '../../ports.ts'
import { liveRevocations } from './store.ts'

export class Revocations implements RevocationList {
  /** jti -> expiry (ms) of the revoked token. */
  private readonly tokens = new Map<string, number>()
  /** session id -> latest expiry (ms) of an access token issued for it. */
  private readonly sessions = new Map<string, number>()

  async load(db: Queries, now: number): Promise<this> {
    const live = await liveRevocations(db, now)
    for (const [jti, until] of live.tokens) this.tokens.set(jti, until)
    for (const [id, until] of live.sessions) this.sessions.set(id, until)
    return this
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
  }

  rememberSession(sessionId: string, accessExpiresAt: number): void {
    this.sessions.set(sessionId, accessExpiresAt)
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
