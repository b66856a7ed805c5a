// What the uploads tests share: an app with two organizations, uploading (multipart or raw, chunked when
// asked), reading, the expiry task run at the fake clock's time, and looking into storage (the local disk,
// or the S3 bucket in the PostgreSQL run) to prove that refused and removed files leave nothing behind.
import { expect } from 'bun:test'
import { S3Client } from 'bun'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { SettingName } from '../../../src/config.ts'
import { uploadsTasks } from '../../../src/modules/uploads/index.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import type { FakeClock } from '../../helpers/clock.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'
import type { Auth } from '../../helpers/errors.ts'
export { type Auth, type ErrorBody, expectError } from '../../helpers/errors.ts'

export interface Upload {
  id: string
  filename: string
  content_type: string
  size_bytes: number
  sha256: string
  width: number | null
  height: number | null
  purpose: string
  status: string
  expires_at: string
  attached_to: { type: string; id: string } | null
  created_by: string | null
  created_at: string
}

/** A 1×1 transparent PNG (67 bytes). */
export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

/** A PNG header claiming `width`×`height` (enough for the sniffing and the size; not a whole image). */
export function pngOf(width: number, height: number): Buffer {
  const png = Buffer.from(PNG_1x1)
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  return png
}

/** A minimal WAV file: `seconds` of silence, 8 kHz mono 16-bit. */
export function wavOf(seconds = 1): Buffer {
  const data = 8000 * 2 * seconds
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data, 4)
  header.write('WAVE', 8)
  header.write('fmt ', 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(8000, 24)
  header.writeUInt32LE(16000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data, 40)
  return Buffer.concat([header, Buffer.alloc(data)])
}

/** The start of an ELF executable. */
export const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)])

export async function uploadsApp(settings: Partial<Record<SettingName, string>> = {}) {
  const app = await makeTestApp(settings)
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  return { app, acme, globex }
}

export interface UploadOptions {
  filename?: string
  purpose?: string
  /** Where purpose goes: the form (default for multipart), or the query. */
  purposeIn?: 'form' | 'query'
  /** The Content-Type the client claims for the file part or raw body. */
  type?: string
  raw?: boolean
  /** Sent chunked (no Content-Length), in pieces of this size. */
  chunked?: number
  headers?: Record<string, string>
}

/** A multipart body as browsers send it; the file part last. */
export function multipartBody(bytes: Uint8Array, options: UploadOptions = {}): { body: Uint8Array; contentType: string } {
  const boundary = `----switchboardtest${Math.random().toString(16).slice(2)}`
  const head: string[] = []
  if (options.purpose !== undefined && options.purposeIn !== 'query')
    head.push(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${options.purpose}\r\n`)
  head.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? 'file.bin'}"\r\n` +
      `Content-Type: ${options.type ?? 'application/octet-stream'}\r\n\r\n`,
  )
  const body = Buffer.concat([Buffer.from(head.join('')), Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)])
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** A body sent in pieces without a Content-Length. */
export function chunkedStream(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close()
      controller.enqueue(bytes.slice(offset, offset + size))
      offset += size
    },
  })
}

export function uploadRequest(bytes: Uint8Array, options: UploadOptions = {}): { path: string; init: RequestInit } {
  const query = new URLSearchParams()
  if (options.raw) query.set('filename', options.filename ?? 'file.bin')
  if (options.purpose !== undefined && (options.raw || options.purposeIn === 'query')) query.set('purpose', options.purpose)
  const { body, contentType } = options.raw
    ? { body: bytes, contentType: options.type ?? 'application/octet-stream' }
    : multipartBody(bytes, options)
  const path = `/api/v1/uploads${query.size > 0 ? `?${query}` : ''}`
  const sent = options.chunked ? chunkedStream(body, options.chunked) : body
  return { path, init: { method: 'POST', headers: { 'content-type': contentType, ...options.headers }, body: sent } }
}

export function client(app: TestApp, auth: Auth) {
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method,
      headers: { ...auth, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const post = (bytes: Uint8Array, options: UploadOptions = {}) => {
    const { path, init } = uploadRequest(bytes, options)
    return app.request(path, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } })
  }
  const upload = async (bytes: Uint8Array, options: UploadOptions = {}): Promise<Upload> => {
    const response = await post(bytes, options)
    const body = await response.text()
    expect({ status: response.status, body }).toMatchObject({ status: 201 })
    return JSON.parse(body) as Upload
  }
  const get = async (id: string): Promise<Upload> => {
    const response = await send('GET', `/api/v1/uploads/${id}`)
    expect(response.status).toBe(200)
    return json<Upload>(response)
  }
  const content = (id: string, headers: Record<string, string> = {}) => send('GET', `/api/v1/uploads/${id}/content`, undefined, headers)
  const signedUrl = async (id: string): Promise<{ url: string; expires_at: string }> => {
    const response = await send('POST', `/api/v1/uploads/${id}/url`)
    expect(response.status).toBe(200)
    return json(response)
  }
  const remove = (id: string) => send('DELETE', `/api/v1/uploads/${id}`)
  return { send, post, upload, get, content, signedUrl, remove }
}

/** Fetches a signed URL through the app (its host is PUBLIC_URL's; the path and query are what count). */
export function fetchSigned(app: TestApp, url: string, headers: Record<string, string> = {}): Promise<Response> {
  const { pathname, search } = new URL(url)
  return app.request(`${pathname}${search}`, { headers })
}

/** Runs the upload_expiry task once at the clock's time. */
export async function runExpiry(app: TestApp, clock: FakeClock = app.clock): Promise<Record<string, unknown>> {
  const task = uploadsTasks(app.context).find((t) => t.name === 'upload_expiry')!
  const report = await task.run({ now: clock.now(), log: app.context.log, signal: new AbortController().signal })
  return (report ?? {}) as Record<string, unknown>
}

/** Every stored object or file of the app's storage (S3 bucket keys, or paths under DATA_DIR/files, partial ones too). */
export async function storedKeys(app: TestApp): Promise<string[]> {
  const s3 = app.config.s3
  if (s3) {
    const client = new S3Client({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    })
    // One bucket serves every app of the run: only this app's organizations' keys are its own.
    const orgs = await app.context.db.raw.all<{ id: string }>('SELECT id FROM organizations')
    const keys: string[] = []
    for (const { id } of orgs) {
      const listed = await client.list({ prefix: `${id}/` })
      for (const item of listed.contents ?? []) keys.push(item.key)
    }
    return keys
  }
  const root = join(app.dataDir, 'files')
  try {
    return (readdirSync(root, { recursive: true, withFileTypes: true }) as { isFile(): boolean; parentPath: string; name: string }[])
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
  } catch {
    return []
  }
}

export { json }
export type { SeededOrg }
