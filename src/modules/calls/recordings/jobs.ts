// The recordings' cron tasks. recording_processing: recordings still `processing` a minute after their
// last change were abandoned by a process that died before reading their audio; they are read here, so
// none stays processing. recording_retention: recordings past retention_until are deleted as a DELETE
// would (bytes gone, record kept), by `system`. Both are an indexed probe when there is nothing to do.
import { type AppContext, contextFor } from '../../../context.ts'
import type { TaskDefinition } from '../../../jobs/scheduler.ts'
import { deleteRecordingInTx, removeBytes } from './delete-recording.ts'
import { processRecording } from './process-recording.ts'
import { lockRecording, retentionDue, staleProcessing } from './store.ts'

const BATCH = 100
/** A recording processing this long after its last change has no reader left. */
export const STALE_PROCESSING_MS = 60_000
const EVERY_10_S = 10_000

function cronContext(app: AppContext, now: number) {
  return contextFor({ ...app, clock: { now: () => now } }, { kind: 'system', id: 'cron' })
}

export function recordingProcessingTask(app: AppContext, intervalMs = EVERY_10_S): TaskDefinition {
  return {
    name: 'recording_processing',
    intervalMs,
    async run({ now, signal }) {
      const ctx = contextFor(app, { kind: 'system', id: 'cron' })
      const rows = await staleProcessing(app.db, now - STALE_PROCESSING_MS, BATCH)
      let processed = 0
      for (const row of rows) {
        if (signal.aborted) break
        if (await processRecording(ctx, row)) processed++
      }
      return { worked: rows.length > 0, found: rows.length, processed }
    },
  }
}

export function recordingRetentionTask(app: AppContext, intervalMs = EVERY_10_S): TaskDefinition {
  return {
    name: 'recording_retention',
    intervalMs,
    async run({ now, signal }) {
      const ctx = cronContext(app, now)
      const rows = await retentionDue(app.db, now, BATCH)
      let deleted = 0
      for (const row of rows) {
        if (signal.aborted) break
        const upload = await ctx.db.write('recording.retention', async (tx) => {
          // Read again, locked: a DELETE (or the audio's reader) may have come first, and none moves it
          // between this read and the guarded write, which would fail the run instead of skipping it.
          const current = await lockRecording(tx, row.organization_id, row.id)
          if (!current || current.status === 'deleted') return null
          return (await deleteRecordingInTx(tx, ctx, current, { now, deletedBy: 'system', reason: 'retention' })).upload
        })
        if (upload === null) continue
        await removeBytes(ctx, upload)
        deleted++
      }
      return { worked: rows.length > 0, deleted }
    },
  }
}
