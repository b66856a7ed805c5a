// The end of every sign-in (password, MFA, later OAuth): within the caller's transaction, the
// session limit, the new session and the audit records; after commit, the evicted sessions are
// remembered as revoked and the access token is signed.
import type { AppDeps, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { roleGrants } from '../access/match.ts'
import type { Role } from '../access/permissions.ts'
import { audit } from '../audit/record.ts'
import type { OrganizationRow } from '../organizations/service.ts'
import type { UserRow } from '../users/get-user.ts'
import { makeRoomForSession } from './session-limit.ts'
import { mintTokens, openSession, type PendingTokens, type SessionKind } from './sessions.ts'

export function tokenUser(user: UserRow) {
  return { id: user.id, email: user.email, name: user.name, organization_id: user.organizationId, role: user.role, permissions: [...roleGrants(user.role as Role)] }
}

export type SignInOutcome =
  | { ok: true; pending: PendingTokens; evicted: [string, number][]; kind: SessionKind }
  | { ok: false; error: AppError }

/** Inside the sign-in transaction: makes room under the session limit and opens the session. */
export function openSignInSession(tx: Tx, deps: Pick<AppDeps, 'config' | 'keyring'>, user: UserRow, org: OrganizationRow, kind: SessionKind, request: RequestMeta, now: number): SignInOutcome {
  const actor = { type: 'user' as const, id: user.id }
  const target = { type: 'user', id: user.id }
  const room = makeRoomForSession(tx, org, user.id, now)
  if (!room.ok) {
    audit(tx, { organizationId: org.id, actor, event: 'login.failure', outcome: 'failure', reason: 'session_limit_reached', target, request, now })
    return { ok: false, error: new AppError('SESSION_LIMIT_REACHED', `You already have ${org.maxConcurrentSessions} active sessions: sign out of one first`) }
  }
  for (const [sessionId] of room.evicted) {
    audit(tx, { organizationId: org.id, actor, event: 'session.evicted', reason: 'session_limit', target: { type: 'session', id: sessionId }, details: { user_id: user.id }, request, now })
  }
  const pending = openSession(tx, deps, user, { ip: request.ip, userAgent: request.userAgent }, now, kind)
  audit(tx, {
    organizationId: org.id,
    actor: { ...actor, credentialId: pending.sessionId },
    event: 'login.success',
    target,
    details: { amr: kind.authMethods, ...(kind.mfaEnrollmentOnly ? { mfa_enrollment_required: true } : {}) },
    request,
    now,
  })
  return { ok: true, pending, evicted: room.evicted, kind }
}

/** After the sign-in transaction committed: the login response, or the error it decided on. */
export async function finishSignIn(deps: Pick<AppDeps, 'keyring' | 'revocations'>, user: UserRow, outcome: SignInOutcome) {
  if (!outcome.ok) throw outcome.error
  for (const [sessionId, until] of outcome.evicted) deps.revocations.rememberSession(sessionId, until)
  const tokens = await mintTokens(deps.keyring, outcome.pending)
  return { ...tokens, user: tokenUser(user), ...(outcome.kind.mfaEnrollmentOnly ? { mfa_enrollment_required: true as const } : {}) }
}
