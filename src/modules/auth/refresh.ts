// refresh: a refresh token -> new tokens, the presented one consumed. Presenting a consumed token again
// is reuse: the whole session (token family) is revoked, so thief and owner both sign in again. A
// session past SESSION_MAX_AGE from its sign-in refreshes no more, however recently it was used.
import type { AppContext, RequestMeta } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { appendAudit } from '../audit/index.ts'
import { findOrganization } from '../organizations/index.ts'
import { findUserInOrg } from '../users/index.ts'
import { checkIp } from './ip-gate.ts'
import { continueSession } from './open-session.ts'
import { tokenUser } from './session-start.ts'
import { consumeRefreshToken, findRefreshToken, revokeSession } from './store.ts'
import { hashToken, mintTokens, sessionEnd } from './tokens.ts'

const invalid = () => new AppError('TOKEN_INVALID', 'The refresh token is invalid, expired or revoked')

export async function refresh(app: AppContext, input: { refreshToken: string; request: RequestMeta }) {
  const { request } = input
  const now = app.clock.now()
  // Errors are returned, not thrown: a detected reuse or a denied address must commit its record.
  const outcome = await app.db.write('token.refresh', async (tx) => {
    const found = await findRefreshToken(tx, hashToken(input.refreshToken))
    if (!found || found.session.revoked_at !== null) return { ok: false as const, error: invalid() }
    const { token, session } = found
    const user = await findUserInOrg(tx, session.organization_id, session.user_id)
    const org = await findOrganization(tx, session.organization_id)
    if (!user || !org) return { ok: false as const, error: invalid() }
    const actor = { type: 'user' as const, id: user.id, credentialId: session.id }
    const ipError = await checkIp(tx, app, {
      ranges: app.allowlists.ranges(org.allowed_ips),
      who: { organizationId: session.organization_id, actor },
      request,
      now,
    })
    if (ipError) return { ok: false as const, error: ipError }
    const target = { type: 'session', id: session.id }
    if (token.consumed_at !== null) {
      const until = await revokeSession(tx, session.id, 'refresh_token_reuse', now)
      const details = { generation: Number(token.generation) }
      await appendAudit(tx, {
        organizationId: session.organization_id,
        actor,
        event: 'token.refresh_reuse_detected',
        outcome: 'failure',
        reason: 'refresh_token_reuse',
        target,
        details,
        request,
        now,
      })
      return { ok: false as const, error: invalid(), reuse: { sessionId: session.id, until } }
    }
    // The session's end is checked too: a refresh token issued before SESSION_MAX_AGE was lowered may expire later.
    const createdAt = Number(session.created_at)
    if (Number(token.expires_at) <= now || sessionEnd(app.config, createdAt) <= now || user.status !== 'active')
      return { ok: false as const, error: invalid() }
    await consumeRefreshToken(tx, token.id, now)
    const claims = {
      id: session.id,
      createdAt,
      authMethods: JSON.parse(session.auth_methods) as string[],
      mfaEnrollmentOnly: Boolean(session.mfa_enrollment_only),
    }
    const pending = await continueSession(tx, app, { subject: user, session: claims, generation: Number(token.generation), now })
    await appendAudit(tx, { organizationId: session.organization_id, actor, event: 'token.refresh', target, request, now })
    return { ok: true as const, user, pending }
  })
  if (!outcome.ok) {
    if (outcome.reuse) {
      if (outcome.reuse.until !== undefined) app.ports.revocations.rememberSession(outcome.reuse.sessionId, outcome.reuse.until)
      app.log.warn('refresh token reuse detected; session revoked', { session_id: outcome.reuse.sessionId, request_id: request.requestId })
    }
    throw outcome.error
  }
  return { ...(await mintTokens(app.keys, outcome.pending)), user: tokenUser(outcome.user) }
}
