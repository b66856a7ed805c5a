// Deleting a recording (compliance, or its retention ending): the record stays, `deleted`, saying when
// and by whom (a user, or `system` for retention); its upload is marked deleted in the same transaction
// and its bytes are removed right after the commit. Should that removal fail or the process die first,
// the uploads module's cron loop removes them (it takes every deleted upload whose bytes remain).
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { deleteUploadBytes, findUpload, markUploadDeletedInTx, type UploadRow } from '../../uploads/index.ts'
import { assertRecordingTransition } from './lifecycle.ts'
import { type RecordingRow, saveRecordingFrom } from './store.ts'
import { lockVisibleRecording } from './visibility.ts'

export async function deleteRecording(ctx: Ctx<UserActor>, input: { id: string }): Promise<RecordingRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const { recording, upload } = await ctx.db.write('recording.delete', async (tx) => {
    // Locked: concurrent deletes take turns (the later ones find it deleted: 409), and the audio's reader
    // finishing meanwhile is seen, not answered with a spurious 409.
    const { recording } = await lockVisibleRecording(tx, actor, input.id)
    return deleteRecordingInTx(tx, ctx, recording, { now, deletedBy: actor.userId, reason: 'deleted' })
  })
  await removeBytes(ctx, upload)
  return recording
}

/** Marks the recording and its upload deleted; 409 when it is deleted already. */
export async function deleteRecordingInTx(
  tx: Tx,
  ctx: Ctx,
  recording: RecordingRow,
  input: { now: number; deletedBy: string; reason: 'deleted' | 'retention' },
): Promise<{ recording: RecordingRow; upload: UploadRow | undefined }> {
  const { now } = input
  assertRecordingTransition(recording.status, 'deleted')
  const after: RecordingRow = { ...recording, status: 'deleted', deleted_at: now, deleted_by: input.deletedBy, updated_at: now }
  // Never undone: the write is guarded by the status read; the reader's verdict is guarded alike.
  if ((await saveRecordingFrom(tx, recording.status, after)) === 0)
    throw new AppError('INVALID_STATE_TRANSITION', `Recording ${recording.id} changed meanwhile: read it again`)
  let upload = await findUpload(tx, recording.organization_id, recording.upload_id)
  // An upload deleted on its own already (DELETE /uploads/{id}) has nothing left to mark.
  if (upload && upload.status !== 'deleted') upload = await markUploadDeletedInTx(tx, upload, now, input.deletedBy)
  await appendAudit(tx, {
    organizationId: recording.organization_id,
    actor: auditActorOf(ctx.actor),
    event: 'recording.deleted',
    target: { type: 'recording', id: recording.id },
    details: { call_id: recording.call_id, reason: input.reason },
    request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
    now,
  })
  return { recording: after, upload }
}

/** The bytes, after the commit; a failure is left to the uploads' cron loop. */
export async function removeBytes(ctx: Ctx, upload: UploadRow | undefined): Promise<void> {
  if (!upload) return
  await deleteUploadBytes(ctx, upload).catch((error) =>
    ctx.log.warn('recording audio not removed yet; the uploads cron loop will', { upload_id: upload.id, error: String(error) }),
  )
}
