// The uploads' cron task `upload_expiry`, in batches of short transactions, network I/O (removing bytes)
// always between them: pending uploads past expires_at become `expired`; the bytes of expired and deleted
// uploads are removed (purged_at set), which also finishes a DELETE whose removal failed or was cut off;
// and rows still `receiving` ABANDONED_AFTER_MS after they began (the process died mid-upload) lose
// their bytes, partial or whole, and their row. It runs every min(60 s, UPLOAD_EXPIRY / 4), at least
// every cron tick, so a short UPLOAD_EXPIRY is honoured on the real clock.
import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { storageOf } from './storage/index.ts'
import { abandonedReceiving, deleteReceivingRow, markExpired, markPurged, pendingDue, unpurged } from './store.ts'
import type { UploadRow } from './upload-json.ts'

const BATCH = 100
/** At most this many batches of each kind per run: the next run goes on. */
const MAX_BATCHES = 20
/** Removals in flight at once (S3 requests, file unlinks). */
const PARALLEL_REMOVALS = 8
/** An upload still receiving after this long belonged to a process that died (no upload takes six hours). */
export const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000

export function uploadExpiryIntervalMs(config: AppContext['config']): number {
  return Math.max(config.cronTickMs, Math.min(60_000, Math.floor(config.uploads.expiryMs / 4)))
}

export function uploadExpiryTask(app: AppContext): TaskDefinition {
  return {
    name: 'upload_expiry',
    intervalMs: uploadExpiryIntervalMs(app.config),
    async run({ now, signal }) {
      const expired = await inBatches(signal, () => expireDue(app, now))
      const purged = await inBatches(signal, () => purgeRemoved(app, now))
      const abandoned = await inBatches(signal, () => removeAbandoned(app, now))
      return { worked: expired + purged + abandoned > 0, expired, purged, abandoned }
    },
  }
}

async function inBatches(signal: AbortSignal, batch: () => Promise<number>): Promise<number> {
  let total = 0
  for (let i = 0, done = BATCH; done === BATCH && i < MAX_BATCHES && !signal.aborted; i++) {
    done = await batch()
    total += done
  }
  return total
}

async function expireDue(app: AppContext, now: number): Promise<number> {
  const due = await pendingDue(app.db, now, BATCH)
  if (due.length > 0)
    await app.db.write('upload.expire', (tx) =>
      markExpired(
        tx,
        due.map((row) => row.id),
        now,
      ),
    )
  // The rows seen, not those changed (an attach may have won): the batch loop needs the count it read.
  return due.length
}

async function purgeRemoved(app: AppContext, now: number): Promise<number> {
  const rows = await unpurged(app.db, BATCH)
  const removed = await removeBytes(app, rows)
  if (removed.length > 0) await app.db.write('upload.purge', (tx) => markPurged(tx, removed, now))
  return rows.length === BATCH && removed.length === 0 ? 0 : rows.length
}

async function removeAbandoned(app: AppContext, now: number): Promise<number> {
  const rows = await abandonedReceiving(app.db, now - ABANDONED_AFTER_MS, BATCH)
  const removed = await removeBytes(app, rows)
  if (removed.length > 0)
    await app.db.write('upload.abandon', async (tx) => {
      for (const id of removed) await deleteReceivingRow(tx, id)
    })
  return rows.length === BATCH && removed.length === 0 ? 0 : rows.length
}

/** Removes each row's bytes, a few at a time; the ids whose removal succeeded (the others are tried next run). */
async function removeBytes(app: AppContext, rows: readonly UploadRow[]): Promise<string[]> {
  const storage = storageOf(app)
  const removed: string[] = []
  for (let i = 0; i < rows.length; i += PARALLEL_REMOVALS) {
    const slice = rows.slice(i, i + PARALLEL_REMOVALS)
    const results = await Promise.allSettled(slice.map((row) => storage.remove(row.storage_key)))
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') removed.push(slice[index]!.id)
      else app.log.warn('upload bytes not removed; retried next run', { upload_id: slice[index]!.id, error: String(result.reason) })
    })
  }
  return removed
}
