// Issue 17 on the compiled binary and the real clock, with the shortest settings: UPLOAD_EXPIRY=2 s and
// SIGNED_URL_TTL=2 s. Everything is set up first, then ONE wait of a few seconds: the binary's own cron loop
// (upload_expiry every max(tick, min(60 s, expiry / 4)) = 500 ms) expires the unattached upload and removes
// its bytes while the attached one stays, and the signed URL made before the wait is refused (403) while a
// fresh one works. Storage: the local disk (SQLite run) or S3 (PostgreSQL run, through engineEnv).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { S3Client } from 'bun'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { s3Server, TEST_ENGINE } from '../helpers/engine.ts'
import { startServer, type RunningServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-uploads-real-clock-')
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@uploads-clock.test',
  ADMIN_PASSWORD: 'uploads-clock-password',
  UPLOAD_EXPIRY: '2',
  SIGNED_URL_TTL: '2',
  CRON_TICK_MS: '100',
}
/** Past the expiry (2 s), one run of the task (500 ms) and whole seconds of a signed URL's expiry. */
const WAIT_MS = 4_500

// biome-ignore lint/suspicious/noExplicitAny: response bodies of several shapes
type Json = Record<string, any>
let server: RunningServer
let auth: { authorization: string }
const s = {} as { pending: Json; attached: Json; signedBefore: string; waitedAt: number }

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { method, headers: { ...auth, ...headers }, body })
}
async function jsonOf(response: Response, status: number): Promise<Json> {
  const text = await response.text()
  expect({ status: response.status, text }).toMatchObject({ status })
  return JSON.parse(text)
}

/** Files of the storage, whatever it is: DATA_DIR/files, or this binary's objects in the S3 bucket. */
async function storedFiles(organizationId: string): Promise<string[]> {
  if (TEST_ENGINE === 'postgres') {
    const settings = (await s3Server()).settings
    const client = new S3Client({
      bucket: settings.S3_BUCKET,
      endpoint: settings.S3_ENDPOINT,
      accessKeyId: settings.S3_ACCESS_KEY_ID,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
    })
    return ((await client.list({ prefix: `${organizationId}/` })).contents ?? []).map((c) => c.key)
  }
  const root = join(env.DATA_DIR, 'files', organizationId)
  return existsSync(root) ? readdirSync(root) : []
}

beforeAll(async () => {
  const binary = await compiledBinary()
  server = await startServer([binary], env)
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
  })
  auth = { authorization: `Bearer ${(await jsonOf(login, 200)).access_token}` }

  s.pending = await jsonOf(await call('POST', '/api/v1/uploads?filename=loose.txt', 'expires on its own'), 201)
  s.attached = await jsonOf(await call('POST', '/api/v1/uploads?filename=kept.txt', 'kept by its ticket'), 201)
  const ticket = await call('POST', '/api/v1/tickets', JSON.stringify({ subject: 'Keeps a file', upload_ids: [s.attached.id] }), {
    'content-type': 'application/json',
  })
  await jsonOf(ticket, 201)
  s.signedBefore = (await jsonOf(await call('POST', `/api/v1/uploads/${s.attached.id}/url`), 200)).url
  expect((await fetch(s.signedBefore)).status).toBe(200)
  // The one wait.
  await Bun.sleep(WAIT_MS)
  s.waitedAt = Date.now()
}, 180_000)
afterAll(async () => {
  await server?.stop()
  rmSync(folder, { recursive: true, force: true })
})

test('the unattached upload expired by the binary’s cron loop, its bytes removed; the attached one stays', async () => {
  expect(Date.parse(s.pending.expires_at) - Date.parse(s.pending.created_at)).toBe(2000)
  const pending = await jsonOf(await call('GET', `/api/v1/uploads/${s.pending.id}`), 200)
  expect(pending.status).toBe('expired')
  expect((await call('GET', `/api/v1/uploads/${s.pending.id}/content`)).status).toBe(404)
  const attached = await jsonOf(await call('GET', `/api/v1/uploads/${s.attached.id}`), 200)
  expect(attached.status).toBe('attached')
  expect(await (await call('GET', `/api/v1/uploads/${s.attached.id}/content`)).text()).toBe('kept by its ticket')
  const me = await jsonOf(await call('GET', '/api/v1/me'), 200)
  const files = await storedFiles(me.organization_id ?? me.organization?.id)
  expect(files).toHaveLength(1)
  const health = await jsonOf(await fetch(`${server.url}/health`), 200)
  expect(JSON.stringify(health)).toContain('upload_expiry')
})

test('a signed URL is refused after SIGNED_URL_TTL; a fresh one works', async () => {
  const refused = await fetch(s.signedBefore)
  expect(refused.status).toBe(403)
  expect(((await refused.json()) as { message: string }).message).toBe('The download link has expired: ask for a new one')
  const fresh = (await jsonOf(await call('POST', `/api/v1/uploads/${s.attached.id}/url`), 200)).url
  expect(await (await fetch(fresh)).text()).toBe('kept by its ticket')
})
