// Reading a recording's audio after its creation has committed: `completed` with its duration and
// recording.ready, or `failed` with the reason when the audio cannot be read. It runs in the process
// that made the recording, in the background; should that process die first, the cron loop picks the
// recording up (jobs.ts). Storage that cannot be reached is no verdict on the audio: the recording stays
// processing and is tried again, unless it has waited a day.
import type { AppContext, Ctx } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { recordChange } from '../../events/index.ts'
import { findUpload, openUploadStream } from '../../uploads/index.ts'
import { audioDurationMs, UnreadableAudio } from './audio.ts'
import { recordingJson } from './recording-json.ts'
import { type RecordingRow, saveRecordingFrom } from './store.ts'

/** After this long without being able to read its storage, a recording fails instead of waiting on. */
export const PROCESSING_GIVE_UP_MS = 86_400_000

const running = new WeakMap<object, Set<Promise<unknown>>>()

/** Starts reading the audio without waiting for it (the request that made the recording answers at once). */
export function processInBackground(ctx: Ctx, row: RecordingRow): void {
  let set = running.get(ctx.db)
  if (!set) running.set(ctx.db, (set = new Set()))
  const task: Promise<unknown> = processRecording(ctx, row)
    .catch((error) => ctx.log.error('recording not processed; the cron loop will retry', { recording_id: row.id, error: String(error) }))
    .finally(() => set.delete(task))
  set.add(task)
}

/** Resolves once every background read of this app has finished (tests; shutdown). */
export async function backgroundProcessingSettled(app: Pick<AppContext, 'db'>): Promise<void> {
  const set = running.get(app.db)
  while (set && set.size > 0) await Promise.allSettled([...set])
}

type Outcome = { durationMs: number } | { reason: string } | { retry: string }

async function readAudio(ctx: Ctx, row: RecordingRow): Promise<Outcome> {
  const upload = await findUpload(ctx.db, row.organization_id, row.upload_id)
  if (!upload) return { reason: 'The audio of this recording is gone' }
  try {
    const open = () => openUploadStream(ctx, upload)
    return { durationMs: await audioDurationMs(open, { contentType: row.content_type, sizeBytes: Number(row.size_bytes) }) }
  } catch (error) {
    if (error instanceof UnreadableAudio) return { reason: error.message }
    // Its bytes were removed (the upload deleted): nothing will ever read them.
    if (error instanceof AppError && error.code === 'NOT_FOUND') return { reason: error.message }
    return { retry: String(error) }
  }
}

/** Reads the audio and records the verdict; undefined when the recording had moved on meanwhile, or must wait. */
export async function processRecording(ctx: Ctx, row: RecordingRow): Promise<RecordingRow | undefined> {
  let outcome = await readAudio(ctx, row)
  const now = ctx.clock.now()
  if ('retry' in outcome) {
    if (now - Number(row.created_at) < PROCESSING_GIVE_UP_MS) {
      ctx.log.warn('recording audio unreachable; will retry', { recording_id: row.id, error: outcome.retry })
      return undefined
    }
    outcome = { reason: 'The audio could not be read from storage for a day' }
  }
  const after: RecordingRow =
    'durationMs' in outcome
      ? { ...row, status: 'completed', duration_ms: outcome.durationMs, ready_at: now, updated_at: now }
      : { ...row, status: 'failed', failure_reason: outcome.reason, updated_at: now }
  return ctx.db.write('recording.process', async (tx) => {
    // Deleted, or processed by another reader, meanwhile: their verdict stands.
    if ((await saveRecordingFrom(tx, 'processing', after)) === 0) return undefined
    const target = { type: 'recording', id: after.id }
    if (after.status === 'completed')
      await recordChange(tx, ctx, {
        type: 'recording.ready',
        organizationId: after.organization_id,
        target,
        data: { recording: recordingJson(after) },
        now,
      })
    else
      await appendAudit(tx, {
        organizationId: after.organization_id,
        actor: auditActorOf(ctx.actor),
        event: 'recording.failed',
        target,
        details: { reason: after.failure_reason },
        now,
      })
    return after
  })
}
