// Deleting an upload: the row is marked `deleted` (who, when) in a short transaction with its audit
// record, and the bytes are removed after the commit; if that fails or the process dies first, the cron
// loop removes them (it takes every expired or deleted upload whose bytes are still stored).
import type { AppContext, Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { assertUploadTransition } from './lifecycle.ts'
import { storageOf } from './storage/index.ts'
import { lockUpload, markDeleted, markPurged, uploadsAttachedTo } from './store.ts'
import type { UploadRow } from './upload-json.ts'

/** DELETE /api/v1/uploads/{id}. */
export async function deleteUpload(ctx: Ctx<UserActor>, input: { id: string }): Promise<UploadRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const deleted = await ctx.db.write('upload.delete', async (tx) => {
    // Locked: a delete racing an attach, an expiry or another delete sees the status it moves from.
    const row = await lockUpload(tx, actor.organizationId, input.id)
    if (!row) throw new AppError('NOT_FOUND', 'No such upload')
    const after = await markUploadDeletedInTx(tx, row, now, actor.userId)
    await appendAudit(tx, {
      organizationId: row.organization_id,
      actor: auditActorOf(actor),
      event: 'upload.deleted',
      target: { type: 'upload', id: row.id },
      details: { filename: row.filename, previous_status: row.status },
      request: actor.request,
      now,
    })
    return after
  })
  await deleteUploadBytes(ctx, deleted).catch((error) =>
    ctx.log.warn('upload bytes not removed; the cron loop will', { upload_id: deleted.id, error: String(error) }),
  )
  return deleted
}

/** Marks the upload deleted in the caller's transaction: 409 from a status that cannot be deleted. */
export async function markUploadDeletedInTx(tx: Tx, row: UploadRow, now: number, deletedBy: string | null = null): Promise<UploadRow> {
  assertUploadTransition(row.status, 'deleted')
  if ((await markDeleted(tx, row, deletedBy, now)) === 0)
    throw new AppError('INVALID_STATE_TRANSITION', `Upload ${row.id} changed meanwhile: read it again`)
  return { ...row, status: 'deleted', deleted_at: now, deleted_by: deletedBy, updated_at: now }
}

/**
 * Removes the stored bytes (network I/O: never inside a transaction) and records when. Removing bytes
 * already gone is no error.
 */
export async function deleteUploadBytes(app: AppContext, row: UploadRow): Promise<void> {
  await storageOf(app).remove(row.storage_key)
  await app.db.write('upload.purge', (tx) => markPurged(tx, [row.id], app.clock.now()))
}

/**
 * The uploads attached to these targets, marked deleted in the caller's transaction (a ticket deleted
 * with its comments): their bytes are removed by the cron loop.
 */
export async function deleteAttachedUploadsInTx(
  tx: Tx,
  input: { organizationId: string; type: string; ids: readonly string[]; now: number; deletedBy: string | null },
): Promise<UploadRow[]> {
  const rows = await uploadsAttachedTo(tx, input.organizationId, input.type, input.ids)
  const deleted: UploadRow[] = []
  for (const row of rows) deleted.push(await markUploadDeletedInTx(tx, row, input.now, input.deletedBy))
  return deleted
}
