// The end of every sign-in through the API (password, MFA): within the caller's transaction, the
// organization's session limit, the new session and the audit records; after commit, the evicted
// sessions are remembered as revoked and the access token is signed.
import type { AppContext, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { type Role, roleGrants } from '../access/index.ts'
import { appendAudit } from '../audit/index.ts'
import { openSession } from './open-session.ts'
import { liveSessionIds, revokeSession } from './store.ts'
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
 * Makes room for one more session of the user: refuses (deny_new) or ends the oldest (evict_oldest),
 * either recorded in the audit log. In the transaction that opens the session, under the user's
 * sign-in lock: two simultaneous sign-ins are counted one after the other. `details`: added to the refusal's record.
 */
export async function makeRoom(
  tx: Tx,
  input: { org: SignInOrganization; userId: string; request: RequestMeta; now: number; details?: Record<string, unknown> },
): Promise<{ ok: true; evicted: [string, number][] } | { ok: false; error: AppError }> {
  const { org, userId, request, now } = input
  const actor = { type: 'user' as const, id: userId }
  const max = org.max_concurrent_sessions === null ? null : Number(org.max_concurrent_sessions)
  if (max === null) return { ok: true, evicted: [] }
  // Invariant: a user never holds more live sign-ins than the limit. The session about to be opened has
  // no row to lock yet: simultaneous sign-ins of one user count one after the other under this key.
  await tx.lock(`sign-ins:${userId}`)
  const live = await liveSessionIds(tx, userId, now)
  if (live.length < max) return { ok: true, evicted: [] }
  if (org.session_limit_policy === 'deny_new') {
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'login.failure',
      outcome: 'failure',
      reason: 'session_limit_reached',
      target: { type: 'user', id: userId },
      ...(input.details ? { details: input.details } : {}),
      request,
      now,
    })
    const message = `You already have ${org.max_concurrent_sessions} active sessions: sign out of one first`
    return { ok: false, error: new AppError('SESSION_LIMIT_REACHED', message) }
  }
  const evicted: [string, number][] = []
  for (const id of live.slice(0, live.length - max + 1)) {
    const until = await revokeSession(tx, id, 'evicted', now)
    if (until === undefined) continue
    evicted.push([id, until])
    const target = { type: 'session', id }
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'session.evicted',
      reason: 'session_limit',
      target,
      details: { user_id: userId },
      request,
      now,
    })
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
  const room = await makeRoom(tx, { org, userId: user.id, request, now })
  if (!room.ok) return room
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

/** After the sign-in transaction committed: the login response, or the error it decided on. */
export async function finishSignIn(app: Pick<AppContext, 'keys' | 'ports'>, user: SignInUser, outcome: SignInOutcome) {
  if (!outcome.ok) throw outcome.error
  for (const [sessionId, until] of outcome.evicted) app.ports.revocations.rememberSession(sessionId, until)
  const tokens = await mintTokens(app.keys, outcome.pending)
  return { ...tokens, user: tokenUser(user), ...(outcome.kind.mfaEnrollmentOnly ? { mfa_enrollment_required: true as const } : {}) }
}
