// refresh: a refresh token -> new tokens, the presented one consumed. Presenting a consumed token again
// is reuse: the whole session (token family) is revoked, so thief and owner both sign in again.
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { users } from '../users/table.ts'
import { tokenUser } from './login.ts'
import { continueSession, hashToken, mintTokens, revokeSession } from './sessions.ts'
import { refreshTokens, sessions } from './table.ts'

const invalid = () => new AppError('TOKEN_INVALID', 'The refresh token is invalid, expired or revoked')

export async function refresh(deps: AppDeps, refreshToken: string) {
  const now = deps.clock.now()
  // Errors are returned, not thrown: a detected reuse must commit its revocation.
  const outcome = write(deps.db, (tx) => {
    const found = tx
      .select({ token: refreshTokens, session: sessions, user: users })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
      .get()
    if (!found || found.session.revokedAt !== null) return { ok: false as const }
    if (found.token.consumedAt !== null) {
      const until = revokeSession(tx, found.session.id, 'refresh_token_reuse', now)
      return { ok: false as const, reuse: { sessionId: found.session.id, until } }
    }
    if (found.token.expiresAt <= now || found.user.status !== 'active') return { ok: false as const }
    tx.update(refreshTokens).set({ consumedAt: now }).where(eq(refreshTokens.id, found.token.id)).run()
    return { ok: true as const, user: found.user, pending: continueSession(tx, deps, found.user, found.session.id, found.token.generation, now) }
  })
  if (!outcome.ok) {
    if (outcome.reuse) {
      if (outcome.reuse.until !== undefined) deps.revocations.rememberSession(outcome.reuse.sessionId, outcome.reuse.until)
      deps.log.warn('refresh token reuse detected; session revoked', { session_id: outcome.reuse.sessionId })
    }
    throw invalid()
  }
  return { ...(await mintTokens(deps.keyring, outcome.pending)), user: tokenUser(outcome.user) }
}
