// What has been revoked before it expired, kept in memory for the per-request check and loaded from
// the database at boot, so a logout survives a restart: revoked access-token ids and revoked sessions.
import { and, gt, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/tx.ts'
import { revokedTokens, sessions } from './table.ts'

export class Revocations {
  /** jti -> expiry (ms) of the revoked token. */
  private readonly tokens = new Map<string, number>()
  /** session id -> latest expiry (ms) of an access token issued for it. */
  private readonly sessions = new Map<string, number>()

  load(db: Db, now: number): this {
    for (const row of db.select().from(revokedTokens).where(gt(revokedTokens.expiresAt, now)).all()) this.tokens.set(row.jti, row.expiresAt)
    const revoked = db
      .select({ id: sessions.id, until: sessions.accessExpiresAt })
      .from(sessions)
      .where(and(isNotNull(sessions.revokedAt), gt(sessions.accessExpiresAt, now)))
      .all()
    for (const row of revoked) this.sessions.set(row.id, row.until)
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
