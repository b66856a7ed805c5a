// addRecording: a recording of a call the actor sees, from an upload of purpose `recording` (attached to
// the recording in the same transaction) or from the audio sent as the body (streamed to storage first,
// through the uploads module, then recorded the same way). It starts `processing`, kept until the
// organization's retention ends; its audio is read after the commit (process-recording.ts).
import type { Ctx, UserActor } from '../../../context.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { attachUploadsInTx, receiveUpload, type UploadRow } from '../../uploads/index.ts'
import { getVisibleCall } from '../calls/visibility.ts'
import { callSettingsOf } from '../settings/store.ts'
import { processInBackground } from './process-recording.ts'
import { insertRecording, type RecordingRow } from './store.ts'

const DAY_MS = 86_400_000

export async function addRecording(ctx: Ctx<UserActor>, input: { callId: string; uploadId: string }): Promise<RecordingRow> {
  const { actor } = ctx
  const { organizationId } = actor
  const now = ctx.clock.now()
  const id = prefixedId('rec')
  const row = await ctx.db.write('recording.create', async (tx) => {
    const call = await getVisibleCall(tx, actor, input.callId)
    const settings = await callSettingsOf(tx, organizationId)
    const [upload] = await attachUploadsInTx(tx, ctx, {
      organizationId,
      uploadIds: [input.uploadId],
      target: { type: 'recording', id },
      purposes: ['recording'],
      now,
      field: 'upload_id',
    })
    const row: RecordingRow = {
      id,
      organization_id: organizationId,
      call_id: call.id,
      upload_id: upload!.id,
      status: 'processing',
      duration_ms: null,
      content_type: upload!.content_type,
      size_bytes: Number(upload!.size_bytes),
      sha256: upload!.sha256,
      failure_reason: null,
      retention_until: now + Number(settings.recording_retention_days) * DAY_MS,
      ready_at: null,
      deleted_at: null,
      deleted_by: null,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    }
    await insertRecording(tx, row)
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(actor),
      event: 'recording.created',
      target: { type: 'recording', id },
      details: { call_id: call.id, upload_id: row.upload_id },
      request: actor.request,
      now,
    })
    return row
  })
  processInBackground(ctx, row)
  return row
}

/**
 * The audio sent as the request body, before its recording is made: the call is checked first (nothing
 * is stored for a call the actor may not see), then the bytes stream to storage as an upload of purpose
 * `recording` (UPLOAD_MAX_BYTES, audio only: 413 and 415 before anything is kept). The route then makes
 * the recording from it with addRecording.
 */
export async function receiveRecordingAudio(
  ctx: Ctx<UserActor>,
  input: { callId: string; chunks: AsyncIterable<Uint8Array>; filename: string },
): Promise<UploadRow> {
  await getVisibleCall(ctx.db, ctx.actor, input.callId)
  return receiveUpload(ctx, { chunks: input.chunks, filename: input.filename, purpose: 'recording' })
}
