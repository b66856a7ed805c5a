// The mfa module's cron task: deletes login challenges an hour after they expired and the records of
// text messages sent (kept a day for the sending limits), in one short transaction, once for the cluster.
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { deleteStaleMfaRecords } from './store.ts'

export const MFA_CLEANUP_INTERVAL_MS = 5 * 60 * 1000

export function mfaCleanupTask(app: AppContext, intervalMs = MFA_CLEANUP_INTERVAL_MS): TaskDefinition {
  return {
    name: 'mfa_cleanup',
    intervalMs,
    async run({ now }) {
      const deleted = await app.db.write('mfa.cleanup', (tx) => deleteStaleMfaRecords(tx, now))
      return {
        worked: deleted.mfaChallenges + deleted.smsMessages > 0,
        mfa_challenges_deleted: deleted.mfaChallenges,
        sms_records_deleted: deleted.smsMessages,
      }
    },
  }
}
