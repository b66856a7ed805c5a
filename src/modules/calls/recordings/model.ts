// Request and response schemas of the recordings endpoints (the Recording component).
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { RECORDING_STATUSES } from './lifecycle.ts'
import { RECORDING_LIST } from './store.ts'

const Time = t.String({ format: 'date-time' })

export const RECORDING_EXAMPLE = {
  id: 'rec_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  call_id: 'cal_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  upload_id: 'upl_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  status: 'completed',
  duration_seconds: 247.3,
  content_type: 'audio/mpeg',
  size_bytes: 3957120,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  failure_reason: null,
  retention_until: '2026-04-15T09:35:00.000Z',
  ready_at: '2026-01-15T09:35:01.000Z',
  deleted_at: null,
  deleted_by: null,
  created_by: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  created_at: '2026-01-15T09:35:00.000Z',
  updated_at: '2026-01-15T09:35:01.000Z',
}

export const RecordingBody = t.Object(
  {
    id: t.String(),
    call_id: t.String(),
    upload_id: t.String({ description: 'The upload (purpose recording) holding the audio' }),
    status: oneOf(RECORDING_STATUSES),
    duration_seconds: t.Nullable(t.Number({ description: 'Read from the audio (milliseconds precision); null until completed' })),
    content_type: t.String({ description: 'Sniffed from the bytes' }),
    size_bytes: t.Integer(),
    sha256: t.String(),
    failure_reason: t.Nullable(t.String({ description: 'Why the audio could not be read (failed)' })),
    retention_until: t.String({
      format: 'date-time',
      description: "When the cron loop deletes it: creation + the organization's retention days",
    }),
    ready_at: t.Nullable(Time),
    deleted_at: t.Nullable(Time),
    deleted_by: t.Nullable(t.String({ description: 'The user who deleted it, or system (retention)' })),
    created_by: t.String(),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Recording', examples: [RECORDING_EXAMPLE] },
)

export const AddRecordingBody = t.Object(
  { upload_id: t.String({ minLength: 1, maxLength: 64, description: 'A pending upload of purpose recording (POST /api/v1/uploads)' }) },
  { examples: [{ upload_id: 'upl_01KAX3M6W9P8T2V5G7H4J3C1QZ' }] },
)

export const AddRecordingQuery = t.Object({
  filename: t.Optional(
    t.String({ minLength: 1, maxLength: 255, description: 'The audio sent as the body: shown when it is downloaded; default recording' }),
  ),
})

/** The media types of the audio sent as the body (its real type is read from the bytes). */
export const RECORDING_AUDIO_TYPES = ['audio/*', 'application/octet-stream'] as const

const AUDIO = { type: 'string' as const, format: 'binary', description: 'The audio (its type is read from the bytes), with ?filename=' }

/**
 * POST /api/v1/calls/{id}/recordings's body as the OpenAPI document shows it: JSON `{upload_id}`, or the
 * audio. The route checks the JSON itself (routes.ts), so this is written out rather than derived.
 */
export const ADD_RECORDING_REQUEST_BODY = {
  required: true,
  content: {
    'application/json': { schema: AddRecordingBody },
    'audio/*': { schema: AUDIO },
    'application/octet-stream': { schema: AUDIO },
  },
}

export const RecordingIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const RecordingListQuery = t.Object(pagingQuery(RECORDING_LIST.sorts))

export const RecordingList = listResponse('recordings', RecordingBody)

export const MediaUrlBody = t.Object(
  {
    url: t.String({ description: 'Works without a token until expires_at; supports Range requests' }),
    expires_at: Time,
  },
  {
    title: 'RecordingMediaUrl',
    examples: [
      {
        url: 'https://switchboard.example.com/api/v1/files/upl_01KAX3M6W9P8T2V5G7H4J3C1QZ?expires=1768470000&signature=…',
        expires_at: '2026-01-15T09:40:00.000Z',
      },
    ],
  },
)
