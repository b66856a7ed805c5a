// A recording is seen by whoever sees its call (an agent: the recordings of its own and unassigned
// calls); any other is answered exactly like one that does not exist (404).
import type { UserActor } from '../../../context.ts'
import type { Queries, Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { type CallRow, findCall } from '../calls/store.ts'
import { maySeeCall } from '../calls/visibility.ts'
import { findRecording, lockRecording, type RecordingRow } from './store.ts'

export async function getVisibleRecording(db: Queries, actor: UserActor, id: string): Promise<{ recording: RecordingRow; call: CallRow }> {
  return visibleOr404(db, actor, await findRecording(db, actor.organizationId, id))
}

/** As getVisibleRecording, the recording's row locked (a delete decides on the status it will replace). */
export async function lockVisibleRecording(tx: Tx, actor: UserActor, id: string): Promise<{ recording: RecordingRow; call: CallRow }> {
  return visibleOr404(tx, actor, await lockRecording(tx, actor.organizationId, id))
}

async function visibleOr404(db: Queries, actor: UserActor, recording: RecordingRow | undefined) {
  const call = recording && (await findCall(db, actor.organizationId, recording.call_id))
  if (!recording || !call || !maySeeCall(actor, call)) throw new AppError('NOT_FOUND', 'No such recording')
  return { recording, call }
}
