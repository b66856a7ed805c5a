// logout: the presented access token is revoked until its expiry and its session ends (refresh tokens
// included); remembered in the database and in memory, so it survives a restart.
import type { AppDeps, SessionActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { actorOf, audit } from '../audit/record.ts'
import { revokeSession } from './sessions.ts'
import { revokedTokens } from './table.ts'

export function logout(deps: AppDeps, actor: SessionActor): void {
  const now = deps.clock.now()
  const { credential } = actor
  const until = write(deps.db, (tx) => {
    tx.insert(revokedTokens).values({ jti: credential.tokenId, expiresAt: credential.tokenExpiresAt }).onConflictDoNothing().run()
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'logout', target: { type: 'session', id: credential.id }, request: actor.request, now })
    return revokeSession(tx, credential.id, 'logout', now)
  })
  deps.revocations.rememberToken(credential.tokenId, credential.tokenExpiresAt)
  if (until !== undefined) deps.revocations.rememberSession(credential.id, until)
}
