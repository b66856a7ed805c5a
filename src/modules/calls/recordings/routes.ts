// The HTTP layer of recordings: POST /api/v1/calls/{id}/recordings (from an upload, `{upload_id}`, or the
// audio as the body, streamed, never held whole), GET /api/v1/calls/{id}/recordings, GET and DELETE
// /api/v1/recordings/{id}, and GET /api/v1/recordings/{id}/media (a signed URL). A recording is seen by
// whoever sees its call.
import { Value } from '@sinclair/typebox/value'
import { Elysia } from 'elysia'
import type { Config } from '../../../config.ts'
import type { AppContext } from '../../../context.ts'
import { validationError } from '../../../errors.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { cappedChunks, isStreamedRequest, type StreamedBody } from '../../../http/body.ts'
import { claimKeyForStreamedBody } from '../../../http/idempotency.ts'
import { listRequest } from '../../../http/list.ts'
import { valueFieldErrors } from '../../../lib/value-errors.ts'
import { discardReceivedUpload } from '../../uploads/index.ts'
import { addRecording, receiveRecordingAudio } from './add-recording.ts'
import { deleteRecording } from './delete-recording.ts'
import {
  ADD_RECORDING_REQUEST_BODY,
  AddRecordingBody,
  AddRecordingQuery,
  MediaUrlBody,
  RECORDING_AUDIO_TYPES,
  RecordingBody,
  RecordingIdParams,
  RecordingList,
  RecordingListQuery,
} from './model.ts'
import { listCallRecordings, recordingMediaUrl } from './read-recordings.ts'
import { recordingJson } from './recording-json.ts'
import { getVisibleRecording } from './visibility.ts'

const tags = ['Recordings']
const SCOPE = 'A recording is seen by whoever sees its call (an agent: its own and unassigned calls; others are 404).'
const PROCESSING =
  'The recording starts processing; its audio is then read (duration_seconds): it becomes completed with recording.ready, or failed with failure_reason when the audio cannot be read. It is deleted by the cron loop at retention_until (the organization setting recording_retention_days, default 90).'

export const ADD_RECORDING_PATH = '/api/v1/calls/:id/recordings'

/**
 * Adding a recording takes JSON (`{upload_id}`, read as any route's body) or the audio itself, streamed and
 * capped at UPLOAD_MAX_BYTES instead of MAX_BODY_BYTES; what the audio is, is read from its bytes.
 */
export function recordingAudioBody(config: Pick<Config, 'uploads'>): StreamedBody {
  return { method: 'POST', path: ADD_RECORDING_PATH, mediaTypes: RECORDING_AUDIO_TYPES, alsoJson: true, maxBytes: config.uploads.maxBytes }
}

/**
 * The JSON body's upload_id, checked here rather than by a `body` schema: the OpenAPI document would take
 * such a schema for the route's only body, where this one is JSON or audio (ADD_RECORDING_REQUEST_BODY
 * documents both). The same 400 as a schema's; no body at all is an empty object, with a hint.
 */
function uploadIdOf(body: unknown): string {
  if (body === null || body === undefined)
    throw validationError(
      valueFieldErrors(Value.Errors(AddRecordingBody, {}), 'body'),
      'Send {"upload_id": …} as JSON, or the audio as the body',
    )
  if (!Value.Check(AddRecordingBody, body)) throw validationError(valueFieldErrors(Value.Errors(AddRecordingBody, body), 'body'))
  return body.upload_id
}

export function recordingsRoutes(app: AppContext) {
  return new Elysia()
    .use(authMacros(app))
    .post(
      ADD_RECORDING_PATH,
      async (c) => {
        const { ctx, params, query, request, set } = c
        if (!isStreamedRequest(request)) {
          const uploadId = uploadIdOf(c.body)
          set.status = 201
          return recordingJson(await addRecording(ctx, { callId: params.id, uploadId }))
        }
        const upload = await receiveRecordingAudio(ctx, {
          callId: params.id,
          chunks: cappedChunks(request, app.config.uploads.maxBytes),
          filename: query.filename ?? 'recording',
        })
        // Claimed once the body is read: the key is bound to the audio's SHA-256.
        let replay: Response | undefined
        try {
          replay = await claimKeyForStreamedBody(app, c, upload.sha256)
        } catch (error) {
          await discardReceivedUpload(ctx, upload)
          throw error
        }
        // A replay answers the first request's recording: the audio just received is nobody's, and goes.
        if (replay) {
          await discardReceivedUpload(ctx, upload)
          return replay as unknown as typeof RecordingBody.static
        }
        set.status = 201
        return recordingJson(await addRecording(ctx, { callId: params.id, uploadId: upload.id }))
      },
      {
        permission: 'recording:create',
        params: RecordingIdParams,
        query: AddRecordingQuery,
        response: {
          201: RecordingBody,
          ...protectedErrors(
            'VALIDATION_FAILED',
            'NOT_FOUND',
            'CONFLICT',
            'INVALID_STATE_TRANSITION',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
          ),
        },
        detail: {
          tags,
          operationId: 'addRecording',
          summary: 'Add a recording to a call, from an upload or as the audio itself',
          description:
            `Either JSON {upload_id}: a pending upload of purpose recording (POST /api/v1/uploads?purpose=recording), attached to the recording (another organization's is 404, an attached or expired one 409, another purpose 400). ` +
            `Or the audio as the body (Content-Type ${RECORDING_AUDIO_TYPES.join(' or ')}; its type is read from the bytes and must be audio, else 415; ?filename= names it), streamed to storage, at most UPLOAD_MAX_BYTES (413, nothing kept); it becomes an upload of purpose recording attached to the recording. ` +
            `Any other Content-Type is 415. ${PROCESSING} ${SCOPE} An Idempotency-Key is bound to the JSON body, or to the audio's SHA-256.`,
          requestBody: ADD_RECORDING_REQUEST_BODY,
        },
      },
    )
    .get(
      '/api/v1/calls/:id/recordings',
      ({ ctx, params, query }) =>
        listCallRecordings(ctx, { callId: params.id, request: listRequest({ ...query, sort: query.sort ?? 'created_at:asc' }) }),
      {
        permission: 'recording:read',
        params: RecordingIdParams,
        query: RecordingListQuery,
        response: { 200: RecordingList, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listCallRecordings',
          summary: "A call's recordings",
          description: `Deleted ones included (the record stays). Keyset-paginated; sort created_at, default created_at:asc. ${SCOPE}`,
        },
      },
    )
    .get(
      '/api/v1/recordings/:id',
      async ({ ctx, params }) => recordingJson((await getVisibleRecording(ctx.db, ctx.actor, params.id)).recording),
      {
        permission: 'recording:read',
        params: RecordingIdParams,
        response: { 200: RecordingBody, ...protectedErrors('NOT_FOUND') },
        detail: { tags, operationId: 'getRecording', summary: 'Get a recording', description: SCOPE },
      },
    )
    .get('/api/v1/recordings/:id/media', ({ ctx, params }) => recordingMediaUrl(ctx, { id: params.id }), {
      permission: 'recording:read',
      params: RecordingIdParams,
      response: { 200: MediaUrlBody, ...protectedErrors('NOT_FOUND', 'CONFLICT') },
      detail: {
        tags,
        operationId: 'getRecordingMedia',
        summary: "A short-lived URL of a recording's audio",
        description: `For a completed recording: a signed URL (SIGNED_URL_TTL, default 5 minutes) that works without a token, for players and browsers, with Range support. Processing or failed: 409. Deleted: 404. ${SCOPE}`,
      },
    })
    .delete('/api/v1/recordings/:id', async ({ ctx, params }) => recordingJson(await deleteRecording(ctx, { id: params.id })), {
      permission: 'recording:delete',
      params: RecordingIdParams,
      response: { 200: RecordingBody, ...protectedErrors('NOT_FOUND', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags,
        operationId: 'deleteRecording',
        summary: 'Delete a recording (compliance)',
        description: `Its audio is removed from storage; the record stays, deleted, with deleted_at and deleted_by, and its media is 404 from then on. A deleted recording again is 409. ${SCOPE}`,
      },
    })
}
