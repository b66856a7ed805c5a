// TRANSITIONAL (issue 13): the synchronous drizzle forms of opening and revoking sessions, for the
// callers not yet on the new data layer (test/helpers/seed.ts, mfa's sign-in, users' disable). The new
// forms are open-session.ts and store.ts, exported from auth/index.ts; this file goes with drizzle.
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Config } from '../../config.ts'
import type { Tx } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { signingKeys } from '../keys/table.ts'
import { refreshTokens, sessions } from './table.ts'
import { accessClaims, hashToken, newRefreshToken, type PendingTokens, type SessionClaims, type SessionKind, type SessionMeta, sessionEnd } from './tokens.ts'

export { hashToken, mintTokens, type PendingTokens, type SessionKind, type SessionMeta, sessionEnd } from './tokens.ts'

/** @deprecated TRANSITIONAL (issue 13): a drizzle user row; the new forms take TokenSubject (snake_case). */
export interface LegacyTokenSubject {
  id: string
  organizationId: string
  role: string
}

function prepareAccess(tx: Tx, config: Config, subject: LegacyTokenSubject, session: SessionClaims, now: number) {
  const { claims, iat, exp } = accessClaims(config, { id: subject.id, organization_id: subject.organizationId, role: subject.role }, session, now)
  const key = tx
    .select({ kid: signingKeys.kid })
    .from(signingKeys)
    .where(sql`${signingKeys.activatesAt} <= ${now}`)
    .orderBy(desc(signingKeys.activatesAt), desc(signingKeys.createdAt))
    .limit(1)
    .get()
  if (!key) throw new Error('no signing key is active')
  tx.update(signingKeys)
    .set({ maxTokenExpiresAt: sql`max(${signingKeys.maxTokenExpiresAt}, ${exp * 1000})` })
    .where(eq(signingKeys.kid, key.kid))
    .run()
  tx.update(sessions)
    .set({ accessExpiresAt: sql`max(${sessions.accessExpiresAt}, ${exp * 1000})`, lastUsedAt: now })
    .where(eq(sessions.id, session.id))
    .run()
  return { kid: key.kid, claims, expiresIn: exp - iat }
}

const PASSWORD_ONLY: SessionKind = { authMethods: ['pwd'], mfaEnrollmentOnly: false }

/** @deprecated TRANSITIONAL (issue 13): use openSession(tx, app, input) from auth/index.ts. */
export function openSession(
  tx: Tx,
  deps: { config: Config },
  subject: LegacyTokenSubject,
  meta: SessionMeta,
  now: number,
  kind: SessionKind = PASSWORD_ONLY,
): PendingTokens & { sessionId: string } {
  const session: SessionClaims = { id: prefixedId('ses'), createdAt: now, ...kind }
  tx.insert(sessions)
    .values({
      id: session.id,
      organizationId: subject.organizationId,
      userId: subject.id,
      ip: meta.ip,
      userAgent: meta.userAgent,
      createdAt: now,
      lastUsedAt: now,
      accessExpiresAt: 0,
      authMethods: kind.authMethods,
      mfaEnrollmentOnly: kind.mfaEnrollmentOnly,
    })
    .run()
  const refreshToken = newRefreshToken()
  const expiresAt = Math.min(now + deps.config.refreshTokenTtlS * 1000, sessionEnd(deps.config, now))
  tx.insert(refreshTokens).values({ id: prefixedId('rtk'), sessionId: session.id, tokenHash: hashToken(refreshToken), generation: 1, createdAt: now, expiresAt }).run()
  tx.update(sessions).set({ expiresAt }).where(eq(sessions.id, session.id)).run()
  return { sessionId: session.id, ...prepareAccess(tx, deps.config, subject, session, now), refreshToken }
}

/** @deprecated TRANSITIONAL (issue 13): use revokeSession(tx, …) from auth/index.ts. */
export function revokeSession(tx: Tx, sessionId: string, reason: string, now: number): number | undefined {
  const row = tx
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ until: sessions.accessExpiresAt })
    .get()
  return row?.until
}

/** @deprecated TRANSITIONAL (issue 13): use revokeUserSessions(tx, …) from auth/index.ts. */
export function revokeUserSessions(tx: Tx, userId: string, reason: string, now: number, except?: string): [string, number][] {
  const rows = tx
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), except ? sql`${sessions.id} <> ${except}` : undefined))
    .returning({ id: sessions.id, until: sessions.accessExpiresAt })
    .all()
  return rows.map((r) => [r.id, r.until])
}
