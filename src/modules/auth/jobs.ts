// The auth module's cron tasks: deletes expired credentials (store.ts says which) in one short
// transaction, once for the cluster; forgets revocations nobody can present any more, on every instance.
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { deleteExpiredCredentials } from './store.ts'

export const AUTH_CLEANUP_INTERVAL_MS = 5 * 60 * 1000

export function authCleanupTask(app: AppContext, intervalMs = AUTH_CLEANUP_INTERVAL_MS): TaskDefinition {
  return {
    name: 'auth_cleanup',
    intervalMs,
    async run({ now }) {
      const deleted = await app.db.write('auth.cleanup', (tx) => deleteExpiredCredentials(tx, now))
      return {
        worked: deleted.revokedTokens + deleted.refreshTokens > 0,
        revoked_tokens_deleted: deleted.revokedTokens,
        refresh_tokens_deleted: deleted.refreshTokens,
      }
    },
  }
}

/** Every instance forgets, from its own memory, the revocations nobody can present any more. */
export function revocationsPruneTask(app: AppContext, intervalMs = AUTH_CLEANUP_INTERVAL_MS): TaskDefinition {
  return {
    name: 'revocations_prune',
    intervalMs,
    scope: 'instance',
    run({ now }) {
      const forgotten = app.ports.revocations.prune(now)
      return { worked: forgotten > 0, revocations_forgotten: forgotten }
    },
  }
}
