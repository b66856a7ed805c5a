// A multipart/form-data body read as a stream, the file part handed on chunk by chunk: the parser of
// @remix-run/multipart-parser 0.16.3 collects each part whole before yielding it (MultipartPart.content),
// which would hold a 200 MB file in memory. This finds the boundaries itself (Buffer.indexOf), keeping at
// most one delimiter's length back, and uses that package for what it does well: the boundary of the
// Content-Type and each part's headers (Content-Disposition name and filename, RFC 7578/5987 forms).
// Shape taken: text fields (at most MAX_FIELDS of MAX_FIELD_BYTES each), then the one part named `file`;
// nothing but an epilogue may follow it.
import { getMultipartBoundary, MultipartPart } from '@remix-run/multipart-parser'
import { type AppError, validationError } from '../../errors.ts'

export const MAX_FIELDS = 10
export const MAX_FIELD_BYTES = 1024
const MAX_HEADER_BYTES = 8 * 1024
const MAX_PREAMBLE_BYTES = 1024
const CRLF = Buffer.from('\r\n')
const HEADER_END = Buffer.from('\r\n\r\n')

export interface MultipartUpload {
  /** The text fields sent before the file. */
  fields: ReadonlyMap<string, string>
  /** The file part's filename, as the client sent it (unsanitized). */
  filename: string | undefined
  /** The file's bytes; iterating them to the end also checks the rest of the body. */
  chunks: AsyncIterable<Uint8Array>
}

function malformed(message: string): AppError {
  return validationError([{ field: 'body', message }], 'The multipart body is malformed')
}

/** Reads up to the file part; its bytes then come through `chunks`. */
export async function readMultipartUpload(body: AsyncIterable<Uint8Array>, contentType: string): Promise<MultipartUpload> {
  const boundary = getMultipartBoundary(contentType)
  if (!boundary || boundary.length > 70) throw malformed('the Content-Type names no boundary (multipart/form-data; boundary=...)')
  const source = new Source(body)
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  // The first delimiter has no CRLF before it when the body starts with it: pretend one was there.
  source.buffer = Buffer.from(CRLF)
  await source.skipTo(delimiter, MAX_PREAMBLE_BYTES + delimiter.length, 'no opening boundary')
  const fields = new Map<string, string>()
  for (;;) {
    const part = await nextPart(source)
    if (!part) throw validationError([{ field: 'file', message: 'is required: a part named "file" holding the file' }])
    if (part.name === 'file') return { fields, filename: part.filename, chunks: fileChunks(source, delimiter) }
    if (part.filename !== undefined)
      throw validationError([{ field: part.name ?? 'body', message: 'is a file: send the file in the part named "file"' }])
    if (fields.size === MAX_FIELDS) throw malformed(`more than ${MAX_FIELDS} fields`)
    const value = await source.readUntil(delimiter, MAX_FIELD_BYTES)
    if (value === undefined) throw validationError([{ field: part.name ?? 'body', message: `must be at most ${MAX_FIELD_BYTES} bytes` }])
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(value)
    } catch {
      throw validationError([{ field: part.name ?? 'body', message: 'must be UTF-8 text' }])
    }
    if (part.name) fields.set(part.name, text)
  }
}

/** After a delimiter: the next part's headers, or undefined at the closing delimiter. */
async function nextPart(source: Source): Promise<MultipartPart | undefined> {
  await source.need(2, 'the body ends inside a boundary')
  if (source.buffer[0] === 0x2d && source.buffer[1] === 0x2d) return undefined
  const header = await source.readUntil(HEADER_END, MAX_HEADER_BYTES + 2)
  if (header === undefined) throw malformed(`a part's headers are longer than ${MAX_HEADER_BYTES} bytes`)
  // What follows the delimiter: optional spaces, then CRLF (RFC 2046 §5.1.1), then the headers.
  const start = header.indexOf(CRLF)
  if (start === -1 || header.subarray(0, start).some((b) => b !== 0x20 && b !== 0x09)) throw malformed('a boundary is followed by text')
  return new MultipartPart(header.subarray(start + 2), [])
}

/**
 * The file's bytes up to the next delimiter; then the rest of the body must be the closing delimiter. Each
 * chunk is handed on as it came (no copy): only the few bytes kept back at a chunk's end, which could be
 * the start of a delimiter, are joined with the start of the next chunk to look across the seam.
 */
async function* fileChunks(source: Source, delimiter: Buffer): AsyncGenerator<Uint8Array> {
  const keep = delimiter.length - 1
  for (;;) {
    const at = source.buffer.indexOf(delimiter)
    if (at !== -1) {
      if (at > 0) yield source.take(at)
      source.take(delimiter.length)
      break
    }
    // All but what could be the start of a delimiter cut by the chunk's end.
    const safe = source.buffer.length - keep
    if (safe > 0) yield source.take(safe)
    const next = await source.next()
    if (next === undefined) throw malformed('the body ends inside the file (no closing boundary): the upload was cut off')
    const tail = source.buffer
    const seam = Buffer.concat([tail, next.subarray(0, delimiter.length)])
    const across = seam.indexOf(delimiter)
    if ((across !== -1 && across < tail.length) || next.length < delimiter.length) {
      // A delimiter starts in the kept bytes, or the chunk is too short to tell: looked at as one (a small copy).
      source.buffer = Buffer.concat([tail, next])
      continue
    }
    if (tail.length > 0) yield tail
    source.buffer = next
  }
  if (await nextPart(source)) throw malformed('nothing may follow the file part: send fields such as purpose before it')
}

/** The body's bytes, pulled as needed, with what was pulled but not yet used. */
class Source {
  buffer: Buffer = Buffer.alloc(0)
  private readonly iterator: AsyncIterator<Uint8Array>

  constructor(body: AsyncIterable<Uint8Array>) {
    this.iterator = body[Symbol.asyncIterator]()
  }

  /** The next chunk of the body, not yet joined to what is held; undefined at its end. */
  async next(): Promise<Buffer | undefined> {
    const next = await this.iterator.next()
    if (next.done) return undefined
    return Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength)
  }

  /** Pulls one more chunk onto what is held; false at the end of the body. */
  async fill(): Promise<boolean> {
    const chunk = await this.next()
    if (chunk === undefined) return false
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    return true
  }

  async need(bytes: number, problem: string): Promise<void> {
    while (this.buffer.length < bytes) if (!(await this.fill())) throw malformed(problem)
  }

  take(bytes: number): Buffer {
    const taken = this.buffer.subarray(0, bytes)
    this.buffer = this.buffer.subarray(bytes)
    return taken
  }

  /** The bytes before `marker` (dropping the marker), or undefined when more than `max` come first. */
  async readUntil(marker: Buffer, max: number): Promise<Buffer | undefined> {
    for (;;) {
      const at = this.buffer.indexOf(marker)
      if (at !== -1 && at <= max) {
        const before = Buffer.from(this.take(at))
        this.take(marker.length)
        return before
      }
      if (this.buffer.length > max + marker.length) return undefined
      if (!(await this.fill())) throw malformed('the body ends inside a part (no closing boundary)')
    }
  }

  async skipTo(marker: Buffer, max: number, problem: string): Promise<void> {
    if ((await this.readUntil(marker, max)) === undefined) throw malformed(problem)
  }
}
