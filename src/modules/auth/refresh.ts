// refresh: a refresh token -> new tokens, the presented one consumed. Presenting a consumed token again
// is reuse: the whole session (token family) is revoked, so thief and owner both sign in again. A
// session past SESSION_MAX_AGE from its sign-in refreshes no more, however recently it was used.
import { eq } from 'drizzle-orm'
import type { AppDeps, RequestMeta } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { audit } from '../audit/record.ts'
import { organizations } from '../organizations/table.ts'
import { users } from '../users/table.ts'
import { checkIp } from './ip-check.ts'
import { continueSession, hashToken, mintTokens, revokeSession, sessionEnd } from './sessions.ts'
import { tokenUser } from './sign-in.ts'
import { refreshTokens, sessions } from './table.ts'

const invalid = () => new AppError('TOKEN_INVALID', 'The refresh token is invalid, expired or revoked')

export async function refresh(deps: AppDeps, refreshToken: string, request: RequestMeta) {
  const now = deps.clock.now()
  // Errors are returned, not thrown: a detected reuse or a denied address must commit its record.
  const outcome = write(deps.db, (tx) => {
    const found = tx
      .select({ token: refreshTokens, session: sessions, user: users, allowedIps: organizations.allowedIps })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(organizations, eq(organizations.id, sessions.organizationId))
      .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
      .get()
    if (!found || found.session.revokedAt !== null) return { ok: false as const, error: invalid() }
    const { session, user } = found
    const actor = { type: 'user' as const, id: user.id, credentialId: session.id }
    const ipError = checkIp(tx, deps, deps.allowlists.ranges(JSON.stringify(found.allowedIps)), { organizationId: session.organizationId, actor }, request, now)
    if (ipError) return { ok: false as const, error: ipError }
    if (found.token.consumedAt !== null) {
      const until = revokeSession(tx, session.id, 'refresh_token_reuse', now)
      audit(tx, {
        organizationId: session.organizationId,
        actor,
        event: 'token.refresh_reuse_detected',
        outcome: 'failure',
        reason: 'refresh_token_reuse',
        target: { type: 'session', id: session.id },
        details: { generation: found.token.generation },
        request,
        now,
      })
      return { ok: false as const, error: invalid(), reuse: { sessionId: session.id, until } }
    }
    // The session's end is checked too: a refresh token issued before SESSION_MAX_AGE was lowered may expire later.
    if (found.token.expiresAt <= now || sessionEnd(deps.config, session.createdAt) <= now || user.status !== 'active') return { ok: false as const, error: invalid() }
    tx.update(refreshTokens).set({ consumedAt: now }).where(eq(refreshTokens.id, found.token.id)).run()
    const pending = continueSession(tx, deps, user, session, found.token.generation, now)
    audit(tx, { organizationId: session.organizationId, actor, event: 'token.refresh', target: { type: 'session', id: session.id }, request, now })
    return { ok: true as const, user, pending }
  })
  if (!outcome.ok) {
    if (outcome.reuse) {
      if (outcome.reuse.until !== undefined) deps.revocations.rememberSession(outcome.reuse.sessionId, outcome.reuse.until)
      deps.log.warn('refresh token reuse detected; session revoked', { session_id: outcome.reuse.sessionId, request_id: request.requestId })
    }
    throw outcome.error
  }
  return { ...(await mintTokens(deps.keyring, outcome.pending)), user: tokenUser(outcome.user) }
}
