// attachUploadsInTx: the uploads a ticket, comment or recording names (upload_ids), attached to it in the
// caller's transaction. Each must be a pending upload of the organization (another organization's is
// 404, as a missing one), of a purpose the target takes (400), not expired (409); each is attached once.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError, validationError } from '../../errors.ts'
import type { UploadPurpose } from './lifecycle.ts'
import { findUploadsInOrg, markAttached } from './store.ts'
import type { UploadRow } from './upload-json.ts'

/** What an upload is attached to: `{ type: 'ticket' | 'ticket_comment' | 'recording' | ..., id }`. */
export interface AttachTarget {
  type: string
  id: string
}

export interface AttachInput {
  organizationId: string
  uploadIds: readonly string[]
  target: AttachTarget
  /** The purposes the target takes (a ticket: attachment; a recording: recording). */
  purposes: readonly UploadPurpose[]
  now: number
  /** The request field that named them, for errors; default upload_ids. */
  field?: string
}

export async function attachUploadsInTx(tx: Tx, _ctx: Ctx, input: AttachInput): Promise<UploadRow[]> {
  const field = input.field ?? 'upload_ids'
  const ids = input.uploadIds
  if (ids.length === 0) return []
  if (new Set(ids).size !== ids.length) throw validationError([{ field, message: 'names an upload more than once' }])
  const found = new Map((await findUploadsInOrg(tx, input.organizationId, ids)).map((row) => [row.id, row]))
  const rows = ids.map((id) => {
    const row = found.get(id)
    if (!row) throw new AppError('NOT_FOUND', `No such upload: ${id}`)
    return row
  })
  for (const row of rows) {
    if (!input.purposes.includes(row.purpose))
      throw validationError([{ field, message: `${row.id} is a ${row.purpose} upload; this takes ${input.purposes.join(' or ')} uploads` }])
    if (row.status === 'pending' && Number(row.expires_at) <= input.now)
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `Upload ${row.id} has expired: an expired upload cannot become attached; upload the file again`,
      )
    if (row.status !== 'pending')
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `Upload ${row.id} is ${row.status}${row.attached_id ? ` (to ${row.attached_type} ${row.attached_id})` : ''}: only a pending upload can become attached`,
      )
  }
  // Guarded by status: a concurrent attach or expiry (PostgreSQL, another instance) changes fewer rows.
  if ((await markAttached(tx, ids, input.target, input.now)) !== ids.length)
    throw new AppError('INVALID_STATE_TRANSITION', 'An upload was attached or expired meanwhile: only a pending upload can become attached')
  return rows.map((row) => ({
    ...row,
    status: 'attached',
    attached_type: input.target.type,
    attached_id: input.target.id,
    attached_at: input.now,
    updated_at: input.now,
  }))
}
