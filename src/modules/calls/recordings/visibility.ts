// A recording is seen by whoever sees its call (an agent: the recordings of its own and unassigned
// calls); any other is answered exactly like one that does not exist (404).
import type { UserActor } from '../../../context.ts'
import type { Queries } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { type CallRow, findCall } from '../calls/store.ts'
import { maySeeCall } from '../calls/visibility.ts'
import { findRecording, type RecordingRow } from './store.ts'

export async function getVisibleRecording(db: Queries, actor: UserActor, id: string): Promise<{ recording: RecordingRow; call: CallRow }> {
  const recording = await findRecording(db, actor.organizationId, id)
  const call = recording && (await findCall(db, actor.organizationId, recording.call_id))
  if (!recording || !call || !maySeeCall(actor, call)) throw new AppError('NOT_FOUND', 'No such recording')
  return { recording, call }
}
