// The organization's limit on concurrent sessions per user, applied in the transaction that opens a
// session: SQLite runs one write transaction at a time, so two simultaneous logins are counted one
// after the other and cannot both slip under the limit.
import { and, asc, eq, gt, isNull } from 'drizzle-orm'
import type { Tx } from '../../db/tx.ts'
import type { SessionLimitPolicy } from '../organizations/table.ts'
import { revokeSession } from './sessions.ts'
import { sessions } from './table.ts'

export interface SessionLimit {
  maxConcurrentSessions: number | null
  sessionLimitPolicy: SessionLimitPolicy
}

/** Sessions ended to make room: [id, until] to remember as revoked once the transaction commits. */
export type RoomForSession = { ok: true; evicted: [string, number][] } | { ok: false }

/** Live: not revoked and its newest refresh token not yet expired. */
export function liveSessionIds(tx: Tx, userId: string, now: number): string[] {
  return tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(asc(sessions.createdAt), asc(sessions.id))
    .all()
    .map((row) => row.id)
}

/** Makes room for one more session of the user: refuses (deny_new) or ends the oldest (evict_oldest). */
export function makeRoomForSession(tx: Tx, limit: SessionLimit, userId: string, now: number): RoomForSession {
  const max = limit.maxConcurrentSessions
  if (max === null) return { ok: true, evicted: [] }
  const live = liveSessionIds(tx, userId, now)
  if (live.length < max) return { ok: true, evicted: [] }
  if (limit.sessionLimitPolicy === 'deny_new') return { ok: false }
  const evicted: [string, number][] = []
  for (const id of live.slice(0, live.length - max + 1)) {
    const until = revokeSession(tx, id, 'evicted', now)
    if (until !== undefined) evicted.push([id, until])
  }
  return { ok: true, evicted }
}
