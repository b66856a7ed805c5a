// The upload lifecycle as a table, and its check. `receiving` is internal (the bytes are still arriving;
// the row exists first so that a crash mid-upload leaves a row the cron loop finds, never a lost file).
import { AppError } from '../../errors.ts'

export const UPLOAD_PURPOSES = ['attachment', 'recording', 'import', 'avatar'] as const
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number]

export const UPLOAD_STATUSES = ['receiving', 'pending', 'attached', 'expired', 'deleted'] as const
export type UploadStatus = (typeof UPLOAD_STATUSES)[number]

/** The statuses the API shows. */
export const VISIBLE_STATUSES = ['pending', 'attached', 'expired', 'deleted'] as const

/** Where each status may go, and who moves it. */
export const UPLOAD_TRANSITIONS: Record<UploadStatus, Partial<Record<UploadStatus, string>>> = {
  receiving: { pending: 'the upload request, once every byte is stored and checked' },
  pending: {
    attached: 'a ticket, comment or recording naming it (upload_ids)',
    expired: 'the cron loop, at expires_at',
    deleted: 'DELETE /api/v1/uploads/{id}',
  },
  attached: { deleted: 'DELETE /api/v1/uploads/{id}, or its owner deleting it (a recording)' },
  // The bytes are gone already; the record may still be marked deleted by someone who wants it so.
  expired: { deleted: 'DELETE /api/v1/uploads/{id}' },
  deleted: {},
}

/** 409 naming both states unless `from -> to` is in the table. */
export function assertUploadTransition(from: UploadStatus, to: UploadStatus): void {
  if (UPLOAD_TRANSITIONS[from][to] !== undefined) return
  const next = Object.keys(UPLOAD_TRANSITIONS[from])
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    `A ${from} upload cannot become ${to}${next.length === 0 ? ': it is final' : `; it can become ${next.join(', ')}`}`,
  )
}
