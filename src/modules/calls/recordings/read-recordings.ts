// Reading recordings: one by id, a call's recordings (keyset-paginated, oldest first by default), and
// the short-lived signed URL of a completed recording's audio (GET /recordings/{id}/media) that a
// player or a browser fetches without a token, ranges included.
import type { Ctx, UserActor } from '../../../context.ts'
import { type ListRequest, listBody } from '../../../db/list.ts'
import { AppError } from '../../../errors.ts'
import { isoTime } from '../../../lib/clock.ts'
import { findUpload, signUploadUrl } from '../../uploads/index.ts'
import { getVisibleCall } from '../calls/visibility.ts'
import { recordingJson } from './recording-json.ts'
import { RECORDING_LIST } from './store.ts'
import { getVisibleRecording } from './visibility.ts'

export async function listCallRecordings(ctx: Ctx<UserActor>, input: { callId: string; request: ListRequest }) {
  const call = await getVisibleCall(ctx.db, ctx.actor, input.callId)
  const page = await RECORDING_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { call_id: call.id },
    where: [{ sql: 'recordings.call_id = ?', params: [call.id] }],
  })
  return listBody('recordings', page, recordingJson)
}

export async function recordingMediaUrl(ctx: Ctx<UserActor>, input: { id: string }): Promise<{ url: string; expires_at: string }> {
  const { recording } = await getVisibleRecording(ctx.db, ctx.actor, input.id)
  if (recording.status === 'deleted')
    throw new AppError('NOT_FOUND', `The recording was deleted at ${isoTime(Number(recording.deleted_at))}: its audio is gone`)
  if (recording.status !== 'completed')
    throw new AppError(
      'CONFLICT',
      recording.status === 'processing'
        ? 'The recording is still processing: its audio can be played once it is completed (recording.ready)'
        : `The recording failed (${recording.failure_reason}): its audio cannot be played`,
    )
  const upload = await findUpload(ctx.db, recording.organization_id, recording.upload_id)
  if (upload?.status !== 'attached') throw new AppError('NOT_FOUND', 'The audio of this recording is gone')
  return signUploadUrl(ctx, upload, ctx.clock.now())
}
