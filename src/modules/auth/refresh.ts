// refresh: a refresh token -> new tokens, the presented one consumed. Presenting a consumed token again
// is reuse: the whole session (token family) is revoked, so thief and owner both sign in again. A
// session past SESSION_MAX_AGE from its sign-in refreshes no more, however recently it was used.
// rotateRefreshToken is the part OAuth clients' refresh shares (through /oauth2/token): each side only
// accepts the refresh tokens of its own sessions, so an OAuth client's token is refused here.
import type { AppContext, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { appendAudit } from '../audit/index.ts'
import { findOrganization } from '../organizations/index.ts'
import { findUserInOrg, type UserRow } from '../users/index.ts'
import { checkIp } from '../organizations/index.ts'
import { continueSession } from './open-session.ts'
import { tokenUser } from './session-start.ts'
import { consumeRefreshToken, lockRefreshToken, revokeSession, type SessionRow } from './store.ts'
import { hashToken, mintTokens, type SessionClaims, sessionEnd } from './tokens.ts'

const invalid = () => new AppError('TOKEN_INVALID', 'The refresh token is invalid, expired or revoked')

/** The outcome of presenting a refresh token, inside the refresh transaction. */
export type Rotation =
  | { ok: true; user: UserRow; session: SessionRow; claims: SessionClaims; generation: number }
  /** `ip`: the address is not allowed (the error to answer with); `reuse`: the family was revoked (remember it after commit). */
  | { ok: false; ip?: AppError; reuse?: { sessionId: string; until: number | undefined } }

/**
 * Inside a write transaction: the refresh token of a live session that `accepts` takes, of an active
 * user, from an allowed address, not used before (else its family is revoked and the reuse audited),
 * not expired; consumed. The caller issues the successor in the same transaction.
 */
export async function rotateRefreshToken(
  tx: Tx,
  app: Pick<AppContext, 'config' | 'allowlists'>,
  input: { refreshToken: string; request: RequestMeta; now: number; accepts: (session: SessionRow) => boolean },
): Promise<Rotation> {
  const { request, now } = input
  const found = await lockRefreshToken(tx, hashToken(input.refreshToken))
  // Another kind's token is unknown here: it neither rotates nor revokes anything.
  if (!found || found.session.revoked_at !== null || !input.accepts(found.session)) return { ok: false }
  const { token, session } = found
  const user = await findUserInOrg(tx, session.organization_id, session.user_id)
  const org = await findOrganization(tx, session.organization_id)
  if (!user || !org) return { ok: false }
  const actor = { type: 'user' as const, id: user.id, credentialId: session.id }
  const ip = await checkIp(tx, app, {
    ranges: app.allowlists.ranges(org.allowed_ips),
    who: { organizationId: session.organization_id, actor },
    request,
    now,
  })
  if (ip) return { ok: false, ip }
  if (token.consumed_at !== null) {
    const until = await revokeSession(tx, session.id, 'refresh_token_reuse', now)
    await appendAudit(tx, {
      organizationId: session.organization_id,
      actor,
      event: 'token.refresh_reuse_detected',
      outcome: 'failure',
      reason: 'refresh_token_reuse',
      target: { type: 'session', id: session.id },
      details: { generation: Number(token.generation), ...(session.client_id ? { client_id: session.client_id } : {}) },
      request,
      now,
    })
    return { ok: false, reuse: { sessionId: session.id, until } }
  }
  // The session's end is checked too: a refresh token issued before SESSION_MAX_AGE was lowered may expire later.
  const createdAt = Number(session.created_at)
  if (Number(token.expires_at) <= now || sessionEnd(app.config, createdAt) <= now || user.status !== 'active') return { ok: false }
  await consumeRefreshToken(tx, token.id, now)
  const claims = {
    id: session.id,
    createdAt,
    authMethods: JSON.parse(session.auth_methods) as string[],
    mfaEnrollmentOnly: Boolean(session.mfa_enrollment_only),
  }
  return { ok: true, user, session, claims, generation: Number(token.generation) }
}

/** After commit: a detected reuse is remembered as revoked (and logged). */
export function settleRotation(app: Pick<AppContext, 'ports' | 'log'>, outcome: Rotation, request: RequestMeta): void {
  if (outcome.ok || !outcome.reuse) return
  const { sessionId, until } = outcome.reuse
  if (until !== undefined) app.ports.revocations.rememberSession(sessionId, until)
  app.log.warn('refresh token reuse detected; session revoked', { session_id: sessionId, request_id: request.requestId })
}

export async function refresh(app: AppContext, input: { refreshToken: string; request: RequestMeta }) {
  const { request } = input
  const now = app.clock.now()
  // Errors are returned, not thrown: a detected reuse or a denied address must commit its record.
  const outcome = await app.db.write('token.refresh', async (tx) => {
    // An OAuth client's refresh token is refreshed by that client at /oauth2/token, never here.
    const rotation = await rotateRefreshToken(tx, app, { ...input, now, accepts: (session) => session.kind !== 'oauth' })
    if (!rotation.ok) return rotation
    const { user, session, claims, generation } = rotation
    const pending = await continueSession(tx, app, { subject: user, session: claims, generation, now })
    const actor = { type: 'user' as const, id: user.id, credentialId: session.id }
    const target = { type: 'session', id: session.id }
    await appendAudit(tx, { organizationId: session.organization_id, actor, event: 'token.refresh', target, request, now })
    return { ok: true as const, user, pending }
  })
  if (!outcome.ok) {
    settleRotation(app, outcome, request)
    throw outcome.ip ?? invalid()
  }
  return { ...(await mintTokens(app.keys, outcome.pending)), user: tokenUser(outcome.user) }
}
