// logout: the presented access token is revoked until its expiry and its session ends (refresh tokens
// included); remembered in the database and in memory, so it survives a restart.
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { revokeSession } from './sessions.ts'
import { revokedTokens } from './table.ts'

export function logout(deps: AppDeps, actor: UserActor): void {
  const now = deps.clock.now()
  const until = write(deps.db, (tx) => {
    tx.insert(revokedTokens).values({ jti: actor.tokenId, expiresAt: actor.tokenExpiresAt }).onConflictDoNothing().run()
    return revokeSession(tx, actor.sessionId, 'logout', now)
  })
  deps.revocations.rememberToken(actor.tokenId, actor.tokenExpiresAt)
  if (until !== undefined) deps.revocations.rememberSession(actor.sessionId, until)
}
