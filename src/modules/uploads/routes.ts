// The HTTP layer of uploads: POST /api/v1/uploads (multipart, or a raw body with ?filename=), list, read,
// download (/content, ranges), a signed URL, delete, and the signed download itself (/api/v1/files/{id},
// no token: the signature is the credential).
import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import { AppError, validationError } from '../../errors.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { cappedChunks, mediaType, type StreamedBody, tooLarge } from '../../http/body.ts'
import { claimKeyForStreamedBody } from '../../http/idempotency.ts'
import { listRequest } from '../../http/list.ts'
import { errorResponses } from '../../http/problem.ts'
import { deleteUpload } from './delete-upload.ts'
import { uploadContentResponse } from './download.ts'
import type { UploadPurpose } from './lifecycle.ts'
import { listUploads } from './list-uploads.ts'
import {
  FILE_RESPONSE,
  SignedFileQuery,
  SignedUrlBody,
  UPLOAD_REQUEST_BODY,
  UploadBody,
  UploadIdParams,
  UploadList,
  UploadListQuery,
  UploadQuery,
} from './model.ts'
import { readMultipartUpload } from './multipart.ts'
import { PURPOSE_RULES } from './purposes.ts'
import { discardReceivedUpload, receiveUpload } from './receive-upload.ts'
import { checkSignedUrl, FILES_PATH, signUploadUrl } from './signed-url.ts'
import { findUpload, findUploadById } from './store.ts'
import { type UploadRow, uploadJson } from './upload-json.ts'

const tags = ['Uploads']
export const UPLOADS_PATH = '/api/v1/uploads'
/** Room for a multipart body's boundaries, part headers and fields around the file. */
export const MULTIPART_FRAMING_BYTES = 64 * 1024

/** The upload reads its body as a stream, of any type (a raw file), up to UPLOAD_MAX_BYTES plus framing. */
export function uploadBody(config: Pick<Config, 'uploads'>): StreamedBody {
  return { method: 'POST', path: UPLOADS_PATH, mediaTypes: 'any', maxBytes: config.uploads.maxBytes + MULTIPART_FRAMING_BYTES }
}

const PURPOSES_TEXT = Object.entries(PURPOSE_RULES)
  .map(([purpose, rule]) => `${purpose}: ${rule}`)
  .join('; ')

export function uploadsRoutes(app: AppContext) {
  return new Elysia().use(uploadRoutes(app)).use(signedFileRoute(app))
}

/** The routes of this module that read their bodies as streams, with their own types and caps. */
export function uploadsStreamedBodies(config: Config): StreamedBody[] {
  return [uploadBody(config)]
}

function uploadRoutes(app: AppContext) {
  const getUpload = async (organizationId: string, id: string): Promise<UploadRow> => {
    const row = await findUpload(app.db, organizationId, id)
    if (!row) throw new AppError('NOT_FOUND', 'No such upload')
    return row
  }
  return new Elysia({ prefix: UPLOADS_PATH })
    .use(authMacros(app))
    .post(
      '',
      async (c) => {
        const { ctx, request, query, set } = c
        const file = await fileOf(app.config, request, query)
        const row = await receiveUpload(ctx, file)
        // Claimed only now: the key is bound to the file (its SHA-256), its purpose and name.
        const digest = new Bun.CryptoHasher('sha256').update(`${row.sha256}\n${row.purpose}\n${row.filename}`).digest('hex')
        let replay: Response | undefined
        try {
          replay = await claimKeyForStreamedBody(app, c, digest)
        } catch (error) {
          await discardReceivedUpload(ctx, row)
          throw error
        }
        if (replay) {
          await discardReceivedUpload(ctx, row)
          // The first answer as it was sent (Elysia's types want one body type per route).
          return replay as unknown as ReturnType<typeof uploadJson>
        }
        set.status = 201
        return uploadJson(row)
      },
      {
        permission: 'upload:create',
        query: UploadQuery,
        response: { 201: UploadBody, ...protectedErrors('VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createUpload',
          summary: 'Upload a file',
          description:
            'multipart/form-data with the file in the part named `file` (fields such as `purpose` before it), or the raw file as the body (any Content-Type, which is ignored) with `?filename=`. ' +
            'Streamed to storage, never held whole. The content type is read from the bytes; each purpose takes its own types (415 otherwise): ' +
            `${PURPOSES_TEXT}. At most UPLOAD_MAX_BYTES (413, nothing kept). The upload is pending until a ticket, comment or recording names it in upload_ids; ` +
            'unattached, it expires after UPLOAD_EXPIRY and its bytes are removed. 100 uploads per hour per organization. An Idempotency-Key is bound to the file, its purpose and name.',
          requestBody: UPLOAD_REQUEST_BODY,
        },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { status, purpose, created_by } = query
        return listUploads(ctx, { filters: { status, purpose, created_by }, request: listRequest(query) })
      },
      {
        permission: 'upload:read',
        query: UploadListQuery,
        response: { 200: t.NoValidate(UploadList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listUploads',
          summary: 'List uploads',
          description: 'Keyset-paginated; sorts created_at, size_bytes; default created_at:desc.',
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => uploadJson(await getUpload(ctx.actor.organizationId, params.id)), {
      permission: 'upload:read',
      params: UploadIdParams,
      response: { 200: UploadBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getUpload', summary: 'Get an upload' },
    })
    .get(
      '/:id/content',
      async (c) => {
        const { ctx, params, request } = c
        const row = await getUpload(ctx.actor.organizationId, params.id)
        return uploadContentResponse(app, row, request)
      },
      {
        permission: 'upload:read',
        params: UploadIdParams,
        response: protectedErrors('NOT_FOUND'),
        detail: {
          tags,
          operationId: 'getUploadContent',
          summary: "Download an upload's file",
          description:
            'Streams the bytes with Content-Type (as sniffed), Content-Disposition (inline for images, audio and video, else attachment; RFC 6266 filename*), Content-Length, ETag (the SHA-256) and Accept-Ranges. ' +
            'One range (Range: bytes=start-end, start-, -suffix) answers 206 with Content-Range; a range outside the file 416 with Content-Range: bytes */size; several ranges the whole file. ' +
            '404 once the file was removed (expired or deleted upload).',
          responses: FILE_RESPONSE,
        },
      },
    )
    .post(
      '/:id/url',
      async ({ ctx, params }) => {
        const row = await getUpload(ctx.actor.organizationId, params.id)
        if (row.status !== 'pending' && row.status !== 'attached')
          throw new AppError('NOT_FOUND', `The file of this upload was removed (the upload is ${row.status})`)
        return signUploadUrl(app, row, ctx.clock.now())
      },
      {
        permission: 'upload:read',
        params: UploadIdParams,
        response: { 200: SignedUrlBody, ...protectedErrors('NOT_FOUND') },
        detail: {
          tags,
          operationId: 'createUploadUrl',
          summary: 'A short-lived download URL',
          description:
            'A URL that downloads the file without a token (for players and browsers) until expires_at (SIGNED_URL_TTL, default 300 s), with the same headers and ranges as /content. Anyone holding it may use it: hand it only to whoever may see the file. After it expires, or when any part of it is changed, it answers 403.',
        },
      },
    )
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await deleteUpload(ctx, { id: params.id })
        set.status = 204
      },
      {
        permission: 'upload:delete',
        params: UploadIdParams,
        response: {
          204: t.Void({ description: 'Deleted: the file is removed, the record stays (status deleted)' }),
          ...protectedErrors('NOT_FOUND', 'INVALID_STATE_TRANSITION'),
        },
        detail: {
          tags,
          operationId: 'deleteUpload',
          summary: 'Delete an upload',
          description:
            'Removes the file (also when attached: a ticket then lists an upload whose content is gone) and keeps the record with status deleted. A deleted upload cannot be deleted again (409).',
        },
      },
    )
}

/** The signed download: the signature and expiry in the query are the only credential. */
function signedFileRoute(app: AppContext) {
  return new Elysia().get(
    `${FILES_PATH}/:id`,
    async (c) => {
      const { params, query, request } = c
      const now = app.clock.now()
      const check = checkSignedUrl(app, params.id, query.expires, query.signature, now)
      if (check === 'forged')
        throw new AppError('INSUFFICIENT_PERMISSIONS', 'The download link is not valid: it was changed or was not made by this server')
      if (check === 'expired') throw new AppError('INSUFFICIENT_PERMISSIONS', 'The download link has expired: ask for a new one')
      const row = await findUploadById(app.db, params.id)
      if (!row) throw new AppError('NOT_FOUND', 'No such upload')
      // Caches may keep it as long as the link lives, no longer.
      const maxAge = Math.max(0, Math.floor((Number(query.expires) * 1000 - now) / 1000))
      return uploadContentResponse(app, row, request, { cacheControl: `private, max-age=${maxAge}` })
    },
    {
      params: UploadIdParams,
      query: SignedFileQuery,
      response: errorResponses('VALIDATION_FAILED', 'INSUFFICIENT_PERMISSIONS', 'NOT_FOUND', 'RATE_LIMITED'),
      detail: {
        tags,
        operationId: 'getSignedFile',
        summary: 'Download a file through a signed URL',
        description:
          'The URL made by POST /api/v1/uploads/{id}/url (or a recording’s media link): no token. 403 once it has expired or when it was changed; 404 when the file was removed meanwhile. Counted against the client address as every unauthenticated request.',
        responses: FILE_RESPONSE,
      },
    },
  )
}

type UploadQueryValues = { purpose?: UploadPurpose; filename?: string }

/** The file of the request: its name, purpose and bytes, from a multipart body or a raw one. */
async function fileOf(config: Config, request: Request, query: UploadQueryValues) {
  const limit = config.uploads.maxBytes
  const contentType = request.headers.get('content-type')
  if (mediaType(contentType) === 'multipart/form-data') {
    const form = await readMultipartUpload(cappedChunks(request, limit + MULTIPART_FRAMING_BYTES), contentType ?? '')
    const purpose = purposeOf(query.purpose, form.fields.get('purpose'))
    const filename = form.filename ?? query.filename
    if (filename === undefined) throw validationError([{ field: 'file', message: 'has no filename (Content-Disposition filename=...)' }])
    return { chunks: form.chunks, filename, purpose }
  }
  if (query.filename === undefined) throw validationError([{ field: 'filename', message: 'is required for a raw upload (?filename=)' }])
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit)
  return { chunks: cappedChunks(request, limit), filename: query.filename, purpose: query.purpose ?? 'attachment' }
}

/** The purpose from the query or the form (both: they must agree); attachment when neither says. */
function purposeOf(fromQuery: UploadPurpose | undefined, fromForm: string | undefined): UploadPurpose {
  if (fromForm === undefined) return fromQuery ?? 'attachment'
  const known = ['attachment', 'recording', 'import', 'avatar'] as const
  const purpose = known.find((p) => p === fromForm)
  if (!purpose) throw validationError([{ field: 'purpose', message: `must be one of ${known.join(', ')}` }])
  if (fromQuery !== undefined && fromQuery !== purpose)
    throw validationError([{ field: 'purpose', message: 'differs between the query and the form: send it once' }])
  return purpose
}
