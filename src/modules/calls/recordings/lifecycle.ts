// The recording lifecycle as a table (research §2.2, the part after the audio exists: we receive
// finished files, so Twilio's in_progress, paused, stopped and absent have no place here). A recording
// is made `processing`, becomes `completed` once its audio is read (or `failed` when it cannot be), and
// `deleted` for compliance or at the end of its retention: the bytes go, the record stays.
import { AppError } from '../../../errors.ts'

export const RECORDING_STATUSES = ['processing', 'completed', 'failed', 'deleted'] as const
export type RecordingStatus = (typeof RECORDING_STATUSES)[number]

/** Where each status may go, and what moves it. */
export const RECORDING_TRANSITIONS: Record<RecordingStatus, Partial<Record<RecordingStatus, string>>> = {
  processing: {
    completed: 'its audio was read (recording.ready)',
    failed: 'its audio could not be read',
    deleted: 'DELETE /api/v1/recordings/{id}, or its retention ending',
  },
  completed: { deleted: 'DELETE /api/v1/recordings/{id}, or its retention ending' },
  failed: { deleted: 'DELETE /api/v1/recordings/{id}, or its retention ending' },
  deleted: {},
}

/** 409 naming both states unless `from -> to` is in the table. */
export function assertRecordingTransition(from: RecordingStatus, to: RecordingStatus): void {
  if (RECORDING_TRANSITIONS[from][to] !== undefined) return
  const next = Object.keys(RECORDING_TRANSITIONS[from])
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    `A ${from} recording cannot become ${to}${next.length === 0 ? ': it is final' : `; it can become ${next.join(', ')}`}`,
  )
}
