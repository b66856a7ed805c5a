// The end of every sign-in (password, MFA, later OAuth): within the caller's transaction, the
// organization's session limit, the new session and the audit records; after commit, the evicted
// sessions are remembered as revoked and the access token is signed.
import type { AppContext, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { type Role, roleGrants } from '../access/index.ts'
import { appendAudit } from '../audit/index.ts'
import { openSession } from './open-session.ts'
import { prefixedId } from '../../lib/ids.ts'
import { insertSession, liveSessionIds, revokeSession } from './store.ts'
import { mintTokens, type PendingTokens, type SessionKind } from './tokens.ts'

/** The user signing in, as its row has it. */
export interface SignInUser {
  id: string
  organization_id: string
  email: string
  name: string
  role: string
}

/** What a sign-in needs of the user's organization, as its row has it. */
export interface SignInOrganization {
  id: string
  /** Live sessions a user may hold at once; null: unlimited. */
  max_concurrent_sessions: number | null
  session_limit_policy: string
}

export function tokenUser(user: SignInUser) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    organization_id: user.organization_id,
    role: user.role,
    permissions: [...roleGrants(user.role as Role)],
  }
}

export type SignInOutcome =
  | { ok: true; pending: PendingTokens; evicted: [string, number][]; kind: SessionKind }
  | { ok: false; error: AppError }

/**
 * Makes room for one more session of the user: refuses (deny_new) or ends the oldest (evict_oldest).
 * In the transaction that opens the session: two simultaneous sign-ins are counted one after the other.
 */
async function makeRoom(
  tx: Tx,
  org: SignInOrganization,
  userId: string,
  now: number,
): Promise<{ ok: true; evicted: [string, number][] } | { ok: false }> {
  const max = org.max_concurrent_sessions === null ? null : Number(org.max_concurrent_sessions)
  if (max === null) return { ok: true, evicted: [] }
  const live = await liveSessionIds(tx, userId, now)
  if (live.length < max) return { ok: true, evicted: [] }
  if (org.session_limit_policy === 'deny_new') return { ok: false }
  const evicted: [string, number][] = []
  for (const id of live.slice(0, live.length - max + 1)) {
    const until = await revokeSession(tx, id, 'evicted', now)
    if (until !== undefined) evicted.push([id, until])
  }
  return { ok: true, evicted }
}

/** Inside the sign-in transaction: makes room under the session limit and opens the session. */
export async function openSignInSession(
  tx: Tx,
  app: Pick<AppContext, 'config' | 'keys'>,
  input: { user: SignInUser; org: SignInOrganization; kind: SessionKind; request: RequestMeta; now: number },
): Promise<SignInOutcome> {
  const { user, org, kind, request, now } = input
  const actor = { type: 'user' as const, id: user.id }
  const target = { type: 'user', id: user.id }
  const room = await makeRoom(tx, org, user.id, now)
  if (!room.ok) {
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'login.failure',
      outcome: 'failure',
      reason: 'session_limit_reached',
      target,
      request,
      now,
    })
    return {
      ok: false,
      error: new AppError(
        'SESSION_LIMIT_REACHED',
        `You already have ${org.max_concurrent_sessions} active sessions: sign out of one first`,
      ),
    }
  }
  for (const [sessionId] of room.evicted) {
    const details = { user_id: user.id }
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'session.evicted',
      reason: 'session_limit',
      target: { type: 'session', id: sessionId },
      details,
      request,
      now,
    })
  }
  const pending = await openSession(tx, app, { subject: user, meta: { ip: request.ip, userAgent: request.userAgent }, kind, now })
  await appendAudit(tx, {
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

/**
 * Inside a sign-in transaction of the authorization server's pages: the session limit applies as to any
 * sign-in; the session (kind `browser`) issues no tokens itself and is found again by the SHA-256 of its
 * cookie. It lasts SESSION_MAX_AGE. `evicted` must be remembered as revoked after commit.
 */
export async function openBrowserSession(
  tx: Tx,
  input: {
    user: SignInUser
    org: SignInOrganization
    kind: SessionKind
    cookieHash: string
    maxAgeMs: number
    request: RequestMeta
    now: number
  },
): Promise<{ ok: true; sessionId: string; evicted: [string, number][] } | { ok: false; error: AppError }> {
  const { user, org, kind, request, now } = input
  const actor = { type: 'user' as const, id: user.id }
  const room = await makeRoom(tx, org, user.id, now)
  if (!room.ok) {
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'login.failure',
      outcome: 'failure',
      reason: 'session_limit_reached',
      target: { type: 'user', id: user.id },
      details: { via: 'authorization_server' },
      request,
      now,
    })
    return {
      ok: false,
      error: new AppError(
        'SESSION_LIMIT_REACHED',
        `You already have ${org.max_concurrent_sessions} active sessions: sign out of one first`,
      ),
    }
  }
  for (const [sessionId] of room.evicted)
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'session.evicted',
      reason: 'session_limit',
      target: { type: 'session', id: sessionId },
      details: { user_id: user.id },
      request,
      now,
    })
  const sessionId = prefixedId('ses')
  await insertSession(tx, {
    id: sessionId,
    organization_id: org.id,
    user_id: user.id,
    ip: request.ip,
    user_agent: request.userAgent,
    created_at: now,
    last_used_at: now,
    access_expires_at: 0,
    expires_at: now + input.maxAgeMs,
    auth_methods: JSON.stringify(kind.authMethods),
    mfa_enrollment_only: false,
    revoked_at: null,
    revoked_reason: null,
    kind: 'browser',
    client_id: null,
    scope: null,
    parent_session_id: null,
    cookie_hash: input.cookieHash,
  })
  await appendAudit(tx, {
    organizationId: org.id,
    actor: { ...actor, credentialId: sessionId },
    event: 'login.success',
    target: { type: 'user', id: user.id },
    details: { amr: kind.authMethods, via: 'authorization_server' },
    request,
    now,
  })
  return { ok: true, sessionId, evicted: room.evicted }
}

/** After the sign-in transaction committed: the login response, or the error it decided on. */
export async function finishSignIn(app: Pick<AppContext, 'keys' | 'ports'>, user: SignInUser, outcome: SignInOutcome) {
  if (!outcome.ok) throw outcome.error
  for (const [sessionId, until] of outcome.evicted) app.ports.revocations.rememberSession(sessionId, until)
  const tokens = await mintTokens(app.keys, outcome.pending)
  return { ...tokens, user: tokenUser(user), ...(outcome.kind.mfaEnrollmentOnly ? { mfa_enrollment_required: true as const } : {}) }
}
