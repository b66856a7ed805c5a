// Request bodies: refuse oversized ones with 413 before reading them, and read the rest with a cap
// (a chunked body has no Content-Length to check up front).
import { AppError } from '../errors.ts'

export function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`)
}

/** Throws 413 when the declared Content-Length exceeds the limit. */
export function checkDeclaredLength(request: Request, limit: number): void {
  if (request.method === 'GET' || request.method === 'HEAD') return
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit)
}

/** Reads the body as text, failing with 413 as soon as more than `limit` bytes have arrived. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  if (!request.body) return ''
  // With a Content-Length (already checked) the native reader is fastest.
  if (request.headers.has('content-length')) return request.text()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase()
}

export function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json')
}

/** Parses JSON, url-encoded and plain-text bodies; other types are left to the framework. */
export async function parseBody(request: Request, contentType: string, limit: number): Promise<unknown> {
  const type = mediaType(contentType)
  if (isJson(type)) {
    const text = await readBodyText(request, limit)
    // null tells Elysia "no body" (undefined would make it parse again).
    return text.trim() === '' ? null : JSON.parse(text)
  }
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(await readBodyText(request, limit)))
  if (type === 'text/plain') return readBodyText(request, limit)
  return undefined
}
