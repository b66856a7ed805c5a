// The consent form's verb. Allow: the grant is saved (added to what the user granted the client before,
// until revoked), audited, and the code issued in the same transaction. Deny: audited; the client is
// told access_denied.
import type { AppContext, RequestMeta } from '../../../context.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { appendAudit } from '../../audit/index.ts'
import { ALL_SCOPES } from '../../oauth-clients/index.ts'
import { findGrant, saveGrant } from '../store.ts'
import type { AuthorizationRequest } from './check-request.ts'
import { issueCode } from './issue-code.ts'
import type { SignedIn } from './signed-in.ts'

export async function decideConsent(
  app: Pick<AppContext, 'db' | 'clock'>,
  input: { request: AuthorizationRequest; signedIn: SignedIn; allow: boolean; meta: RequestMeta },
): Promise<{ code: string } | { denied: true }> {
  const { request, signedIn, meta } = input
  const now = app.clock.now()
  const client = request.client
  const actor = { type: 'user' as const, id: signedIn.user.id, credentialId: signedIn.sessionId }
  const target = { type: 'oauth_client', id: client.id }
  return app.db.write('oauth.consent', async (tx) => {
    if (!input.allow) {
      const details = { client_id: client.id, scope: request.scopes.join(' ') }
      await appendAudit(tx, {
        organizationId: client.organization_id,
        actor,
        event: 'oauth.consent.denied',
        target,
        details,
        request: meta,
        now,
      })
      return { denied: true as const }
    }
    // Invariant: consents add up (the grant is the union of every allowed request). The first grant has
    // no row to lock yet: simultaneous consents of one user to one client merge one after the other.
    await tx.lock(`oauth-grant:${signedIn.user.id}:${client.id}`)
    const earlier = await findGrant(tx, signedIn.user.id, client.id)
    const kept = earlier && earlier.revoked_at === null ? earlier.scope.split(' ') : []
    const scope = ALL_SCOPES.filter((s) => kept.includes(s) || request.scopes.includes(s)).join(' ')
    const grant = await saveGrant(tx, {
      id: prefixedId('ogr'),
      organizationId: client.organization_id,
      userId: signedIn.user.id,
      clientId: client.id,
      scope,
      now,
    })
    await appendAudit(tx, {
      organizationId: client.organization_id,
      actor,
      event: 'oauth.consent.granted',
      target,
      details: { client_id: client.id, grant_id: grant.id, scope: request.scopes.join(' '), granted: scope },
      request: meta,
      now,
    })
    return { code: await issueCode(tx, request, signedIn, now) }
  })
}
