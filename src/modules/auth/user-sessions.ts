// The UserSessions port (ports.ts) as the auth module implements it: a disabled user's sessions end in
// the disabling transaction, and every access token of them is refused from the next request on.
import type { UserSessions } from '../../ports.ts'
import { revokeUserSessions } from './store.ts'

export const USER_SESSIONS: UserSessions = {
  async endAll(app, tx, userId, reason, now) {
    const ended = await revokeUserSessions(tx, userId, reason, now)
    tx.afterCommit(() => {
      for (const [sessionId, until] of ended) app.ports.revocations.rememberSession(sessionId, until)
    })
  },
}
