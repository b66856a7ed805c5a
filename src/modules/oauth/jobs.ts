// The authorization server's cron task: deletes authorization codes past their expiry, once for the
// cluster, in one short transaction. A code is kept until then (used or not) so that a replay is
// recognised and the tokens of its first exchange revoked; after it, a replay is refused as unknown.
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { deleteExpiredCodes } from './store.ts'

export const OAUTH_CLEANUP_INTERVAL_MS = 5 * 60 * 1000

export function oauthCleanupTask(app: AppContext, intervalMs = OAUTH_CLEANUP_INTERVAL_MS): TaskDefinition {
  return {
    name: 'oauth_cleanup',
    intervalMs,
    async run({ now }) {
      const deleted = await app.db.write('oauth.cleanup', (tx) => deleteExpiredCodes(tx, now))
      return { worked: deleted > 0, codes_deleted: deleted }
    },
  }
}
