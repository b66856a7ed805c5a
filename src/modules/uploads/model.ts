// Request and response schemas of the uploads endpoints (the Upload and SignedUrl components).
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { oneOf } from '../../http/schema.ts'
import { UPLOAD_PURPOSES, VISIBLE_STATUSES } from './lifecycle.ts'
import { UPLOAD_LIST } from './store.ts'

export const UPLOAD_EXAMPLE = {
  id: 'upl_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  filename: 'screenshot.png',
  content_type: 'image/png',
  size_bytes: 48213,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  width: 1280,
  height: 720,
  purpose: 'attachment',
  status: 'pending',
  expires_at: '2026-01-15T10:30:00.000Z',
  attached_to: null,
  created_by: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  created_at: '2026-01-15T09:30:00.000Z',
}

export const UploadBody = t.Object(
  {
    id: t.String({ examples: [UPLOAD_EXAMPLE.id] }),
    filename: t.String({ description: 'As given by the client, made safe: no path, no control characters, at most 255 bytes' }),
    content_type: t.String({ description: 'Read from the bytes, never taken from the client' }),
    size_bytes: Type.Integer(),
    sha256: t.String({ description: 'Hex SHA-256 of the bytes' }),
    width: t.Nullable(Type.Integer({ description: 'Images only' })),
    height: t.Nullable(Type.Integer({ description: 'Images only' })),
    purpose: oneOf(UPLOAD_PURPOSES),
    status: oneOf(VISIBLE_STATUSES),
    expires_at: t.String({ format: 'date-time', description: 'A pending upload expires then (its bytes are removed)' }),
    attached_to: t.Nullable(t.Object({ type: t.String({ examples: ['ticket'] }), id: t.String() })),
    created_by: t.Nullable(t.String()),
    created_at: t.String({ format: 'date-time' }),
  },
  { title: 'Upload', examples: [UPLOAD_EXAMPLE] },
)

export const Purpose = oneOf(UPLOAD_PURPOSES, {
  description: 'What the file is for; default attachment. May also be a form field sent before the file.',
})

export const UploadQuery = t.Object({
  purpose: t.Optional(Purpose),
  filename: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The file name of a raw upload (required then); a multipart file part names its own',
    }),
  ),
})

export const UploadIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const UploadListQuery = t.Object({
  status: t.Optional(oneOf(VISIBLE_STATUSES)),
  purpose: t.Optional(oneOf(UPLOAD_PURPOSES)),
  created_by: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'A user id' })),
  ...pagingQuery(UPLOAD_LIST.sorts),
})

export const UploadList = listResponse('uploads', UploadBody)

export const SignedUrlBody = t.Object(
  {
    url: t.String({ format: 'uri', description: 'Downloads the file without a token until expires_at; ranges work as on /content' }),
    expires_at: t.String({ format: 'date-time' }),
  },
  {
    title: 'SignedUrl',
    examples: [
      {
        url: 'https://switchboard.example.com/api/v1/files/upl_01KAX3M6W9P8T2V5G7H4J3C1QZ?expires=1768469700&signature=3q2-7w',
        expires_at: '2026-01-15T09:35:00.000Z',
      },
    ],
  },
)

export const SignedFileQuery = t.Object({
  expires: t.String({ maxLength: 20, description: 'Unix seconds, as signed' }),
  signature: t.String({ maxLength: 128, description: 'As signed' }),
})

/** The content routes answer bytes (any type), documented rather than validated. */
export const FILE_RESPONSE = {
  200: {
    description: 'The whole file',
    content: { 'application/octet-stream': { schema: { type: 'string' as const, format: 'binary' } } },
  },
  206: {
    description: 'One byte range (Range: bytes=start-end), with Content-Range',
    content: { 'application/octet-stream': { schema: { type: 'string' as const, format: 'binary' } } },
  },
  304: { description: 'Not modified (If-None-Match matched the ETag)' },
  416: {
    description: 'RANGE_NOT_SATISFIABLE: the range is outside the file; Content-Range: bytes */size',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        example: {
          code: 'RANGE_NOT_SATISFIABLE',
          message: 'The file is 1000 bytes: the range asked for is outside it',
          request_id: '0af7651916cd43dd8448eb211c80319c',
        },
      },
    },
  },
}

export const UPLOAD_REQUEST_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        required: ['file'],
        properties: {
          purpose: { type: 'string' as const, enum: [...UPLOAD_PURPOSES], description: 'Before the file; or ?purpose=' },
          file: { type: 'string' as const, format: 'binary' },
        },
      },
    },
    'application/octet-stream': {
      schema: { type: 'string' as const, format: 'binary', description: 'A raw body (any Content-Type) with ?filename=' },
    },
  },
}
