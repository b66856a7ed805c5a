// Serving an upload's bytes: the stored stream (or one range of it) and the HTTP answer around it —
// Content-Type as sniffed, Content-Disposition with the filename (RFC 6266: an ASCII fallback and the
// UTF-8 filename*), inline only for images, audio and video (everything else downloads), a sandboxing
// CSP and nosniff so no upload ever runs as a page of ours, a strong ETag (the SHA-256: bytes never
// change), and single byte ranges (206; 416 with `Content-Range: bytes */size` when unsatisfiable; a
// multi-range request gets the whole file, as RFC 9110 allows).
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { type ByteRange, storageOf } from './storage/index.ts'
import type { UploadRow } from './upload-json.ts'

const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/[-+.\w]+|video\/[-+.\w]+)$/

/** Whether the upload's bytes are still stored: pending and attached ones, until removed. */
export function hasBytes(row: UploadRow): boolean {
  return (row.status === 'pending' || row.status === 'attached') && row.purged_at === null
}

function assertHasBytes(row: UploadRow): void {
  if (!hasBytes(row)) throw new AppError('NOT_FOUND', `The file of this upload was removed (the upload is ${row.status})`)
}

/** The stored bytes of an upload (a range of them: both ends inclusive); 404 once they were removed. */
export async function openUploadStream(
  app: Pick<AppContext, 'config'>,
  row: UploadRow,
  range?: ByteRange,
): Promise<ReadableStream<Uint8Array>> {
  assertHasBytes(row)
  return storageOf(app).read(row.storage_key, range)
}

export function contentDisposition(row: Pick<UploadRow, 'filename' | 'content_type'>): string {
  const kind = INLINE.test(row.content_type) ? 'inline' : 'attachment'
  const ascii = row.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const encoded = encodeURIComponent(row.filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

/** The first range of a `Range: bytes=...` header: a range, 'unsatisfiable', or undefined to send the whole file. */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === null) return undefined
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  // Another unit, several ranges, or nonsense: ignored (RFC 9110 §14.2), the whole file is sent.
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  const [, first, last] = match as unknown as [string, string, string]
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (last !== '' && Number(last) < start) return undefined
  if (start >= size) return 'unsatisfiable'
  return { start, end }
}

/** The download of an upload as a Response (the authenticated route, the signed URL and recordings' media). */
export async function uploadContentResponse(
  app: Pick<AppContext, 'config'>,
  row: UploadRow,
  request: Request,
  options: { cacheControl?: string } = {},
): Promise<Response> {
  assertHasBytes(row)
  const size = Number(row.size_bytes)
  const etag = `"${row.sha256}"`
  const headers: Record<string, string> = {
    'content-type': row.content_type.startsWith('text/') ? `${row.content_type}; charset=utf-8` : row.content_type,
    'content-disposition': contentDisposition(row),
    etag,
    'accept-ranges': 'bytes',
    'cache-control': options.cacheControl ?? 'private, no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
  }
  if (matchesEtag(request.headers.get('if-none-match'), etag))
    return new Response(null, { status: 304, headers: withoutBodyHeaders(headers) })
  // If-Range with another validator: the file changed for the client, which gets it whole.
  const ifRange = request.headers.get('if-range')
  const range = ifRange !== null && ifRange !== etag ? undefined : parseRange(request.headers.get('range'), size)
  if (range === 'unsatisfiable')
    throw new AppError('RANGE_NOT_SATISFIABLE', `The file is ${size} bytes: the range asked for is outside it`, {
      headers: { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes', etag },
    })
  if (!range)
    return new Response(await openUploadStream(app, row), { status: 200, headers: { ...headers, 'content-length': String(size) } })
  return new Response(await openUploadStream(app, row, range), {
    status: 206,
    headers: {
      ...headers,
      'content-length': String(range.end - range.start + 1),
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
    },
  })
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _type, 'content-disposition': _disposition, ...rest } = headers
  return rest
}
