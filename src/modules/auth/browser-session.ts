// The authorization server's sign-in (its pages' cookie): a session of kind `browser`, opened under the
// organization's session limit like every sign-in, issuing no token itself.
import type { RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import type { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { appendAudit } from '../audit/index.ts'
import { newSessionRow } from './open-session.ts'
import { makeRoom, type SignInOrganization, type SignInUser } from './session-start.ts'
import { insertSession } from './store.ts'
import type { SessionKind } from './tokens.ts'

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
  const room = await makeRoom(tx, { org, userId: user.id, request, now, details: { via: 'authorization_server' } })
  if (!room.ok) return room
  const sessionId = prefixedId('ses')
  const base = { id: sessionId, subject: user, meta: { ip: request.ip, userAgent: request.userAgent }, authMethods: kind.authMethods, now }
  await insertSession(tx, newSessionRow(base, { kind: 'browser', expires_at: now + input.maxAgeMs, cookie_hash: input.cookieHash }))
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
