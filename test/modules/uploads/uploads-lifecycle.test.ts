// The upload lifecycle, table-driven (every move from every status, through the API and the cron loop),
// expiry on the fake clock (pending uploads expire at expires_at, their bytes removed, in batches; attached
// ones never), and crash safety: a row recorded as `receiving` before any byte is stored, so bytes left by
// a process that died mid-upload (partial, or whole but never recorded) are found and removed, and a
// DELETE whose removal was cut off is finished by the cron loop.
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { contextFor, type UserActor } from '../../../src/context.ts'
import { UPLOAD_TRANSITIONS, type UploadStatus } from '../../../src/modules/uploads/lifecycle.ts'
import { ABANDONED_AFTER_MS, uploadExpiryIntervalMs } from '../../../src/modules/uploads/jobs.ts'
import { markUploadDeletedInTx, receiveUpload } from '../../../src/modules/uploads/index.ts'
import { newStorageKey, storageOf } from '../../../src/modules/uploads/storage/index.ts'
import { findUpload, insertUpload } from '../../../src/modules/uploads/store.ts'
import type { UploadRow } from '../../../src/modules/uploads/upload-json.ts'
import { loadConfig } from '../../../src/config.ts'
import { authenticate } from '../../../src/modules/auth/index.ts'
import { client, expectError, json, runExpiry, storedKeys, type Upload, uploadsApp } from './uploads-api.ts'

// Tokens outlive the hours the clock is moved by; a short expiry keeps the moves small.
const { app, acme } = await uploadsApp({ ACCESS_TOKEN_TTL: '86400', UPLOAD_EXPIRY: '600' })
afterAll(() => app.close())
const admin = client(app, acme.users.admin.auth)
const expiryMs = app.config.uploads.expiryMs

const row = (id: string) => findUpload(app.context.db, acme.org.id, id) as Promise<UploadRow>
const keyOf = async (id: string) => (await row(id)).storage_key
const stored = async (id: string) => storageOf(app.context).exists(await keyOf(id))

/** An upload brought to `status` through the API and the cron loop. */
async function uploadIn(status: string): Promise<Upload> {
  const upload = await admin.upload(Buffer.from(`in ${status}`), { filename: `${status}.txt` })
  if (status === 'attached')
    expect((await admin.send('POST', '/api/v1/tickets', { subject: 'x', upload_ids: [upload.id] })).status).toBe(201)
  if (status === 'deleted') expect((await admin.remove(upload.id)).status).toBe(204)
  if (status === 'expired') {
    await app.context.db.write('test.due', (tx) =>
      tx.raw.run('UPDATE uploads SET expires_at = ? WHERE id = ?', [app.clock.now(), upload.id]),
    )
    await runExpiry(app)
  }
  const now = await admin.get(upload.id)
  expect(now.status).toBe(status)
  return now
}

/** Each move by the way that makes it: attach (a ticket naming it), delete (the API), expire (the cron loop). */
const MOVES: Record<string, (upload: Upload) => Promise<number | string>> = {
  attached: async (upload) => (await admin.send('POST', '/api/v1/tickets', { subject: 'y', upload_ids: [upload.id] })).status,
  deleted: async (upload) => (await admin.remove(upload.id)).status,
  expired: async (upload) => {
    app.clock.advance(expiryMs)
    await runExpiry(app)
    return (await admin.get(upload.id)).status
  },
}

describe('every move from every status', () => {
  const statuses = ['pending', 'attached', 'expired', 'deleted'] as const
  const pairs = statuses.flatMap((from) => Object.keys(MOVES).map((to) => [from, to] as const))
  test.each(pairs)('%s -> %s', async (from, to) => {
    const upload = await uploadIn(from)
    const allowed = UPLOAD_TRANSITIONS[from][to as UploadStatus] !== undefined
    const result = await MOVES[to]!(upload)
    if (to === 'expired') {
      // The cron loop expires pending uploads only; any other stays as it was.
      expect(result).toBe(allowed ? 'expired' : from)
      return
    }
    if (allowed) expect(result).toBe(to === 'attached' ? 201 : 204)
    else {
      expect(result).toBe(409)
      expect((await admin.get(upload.id)).status).toBe(from)
    }
  })

  test('the refusals name both states', async () => {
    const upload = await uploadIn('deleted')
    const error = await expectError(await admin.remove(upload.id), 409, 'INVALID_STATE_TRANSITION')
    expect(error.message).toBe('A deleted upload cannot become deleted: it is final')
    const attached = await uploadIn('attached')
    const again = await expectError(
      await admin.send('POST', '/api/v1/tickets', { subject: 'z', upload_ids: [attached.id] }),
      409,
      'INVALID_STATE_TRANSITION',
    )
    expect(again.message).toContain('is attached')
    expect(again.message).toContain('only a pending upload can become attached')
  })
})

describe('expiry (upload_expiry, fake clock)', () => {
  test('pending uploads expire at expires_at, not a millisecond before; their bytes are removed', async () => {
    const upload = await admin.upload(Buffer.from('soon gone'), { filename: 'gone.txt' })
    expect(upload.expires_at).toBe(new Date(app.clock.now() + expiryMs).toISOString())
    app.clock.advance(expiryMs - 1)
    await runExpiry(app)
    expect((await admin.get(upload.id)).status).toBe('pending')
    expect(await stored(upload.id)).toBe(true)
    app.clock.advance(1)
    const report = await runExpiry(app)
    expect(report).toMatchObject({ worked: true })
    expect(Number(report.expired)).toBeGreaterThanOrEqual(1)
    expect(await admin.get(upload.id)).toEqual({ ...upload, status: 'expired' })
    expect(await stored(upload.id)).toBe(false)
    expect((await row(upload.id)).purged_at).toBe(app.clock.now())
    await expectError(await admin.content(upload.id), 404, 'NOT_FOUND')
    // Nothing more to do: a quiet run.
    expect(await runExpiry(app)).toMatchObject({ worked: false, expired: 0, purged: 0, abandoned: 0 })
  })

  test('in batches: 230 due uploads all expire in one run', async () => {
    const { app: many, acme: org } = await uploadsApp({ ACCESS_TOKEN_TTL: '86400' })
    try {
      const c = client(many, org.users.agent.auth)
      for (let i = 0; i < 230; i++) await c.upload(Buffer.from(`n${i}`), { filename: 'n.txt', raw: true })
      const keptByTicket = await c.upload(Buffer.from('kept'), { filename: 'kept.txt' })
      expect((await c.send('POST', '/api/v1/tickets', { subject: 'keeps it', upload_ids: [keptByTicket.id] })).status).toBe(201)
      many.clock.advance(many.config.uploads.expiryMs)
      expect(await runExpiry(many)).toMatchObject({ expired: 230, purged: 230, abandoned: 0 })
      const list = await json<{ total_count: number }>(await c.send('GET', '/api/v1/uploads?status=expired&include_total=true'))
      expect(list.total_count).toBe(230)
      // What stays stored is the attached upload's file alone.
      expect(await storedKeys(many)).toEqual([(await findUpload(many.context.db, org.org.id, keptByTicket.id))!.storage_key])
    } finally {
      await many.close()
    }
  })

  test('the task is registered; its interval follows UPLOAD_EXPIRY (at most a minute, at least a cron tick)', () => {
    expect(app.context.scheduler.status().upload_expiry).toBeDefined()
    const interval = (env: Record<string, string>) => uploadExpiryIntervalMs(loadConfig({ DATA_DIR: '/tmp/x', ...env }))
    expect(interval({})).toBe(60_000)
    expect(interval({ UPLOAD_EXPIRY: '120' })).toBe(30_000)
    expect(interval({ UPLOAD_EXPIRY: '1' })).toBe(1000)
    expect(interval({ UPLOAD_EXPIRY: '1', CRON_TICK_MS: '100' })).toBe(250)
    expect(interval({ UPLOAD_EXPIRY: '1', CRON_TICK_MS: '500' })).toBe(500)
  })
})

describe('crash safety', () => {
  /** A row as receiveUpload writes it first, before any byte. */
  async function receivingRow(): Promise<UploadRow> {
    const now = app.clock.now()
    const receiving: UploadRow = {
      id: `upl_CRASH${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
      organization_id: acme.org.id,
      filename: 'crashed.bin',
      content_type: '',
      size_bytes: 0,
      sha256: '',
      width: null,
      height: null,
      purpose: 'attachment',
      status: 'receiving',
      storage_key: newStorageKey(acme.org.id),
      expires_at: now + expiryMs,
      attached_type: null,
      attached_id: null,
      attached_at: null,
      created_by: acme.users.admin.user.id,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      deleted_by: null,
      purged_at: null,
    }
    await app.context.db.write('test.receiving', (tx) => insertUpload(tx, receiving))
    return receiving
  }
  const rowExists = async (id: string) => (await app.context.db.raw.get('SELECT id FROM uploads WHERE id = ?', [id])) !== undefined

  test('bytes stored whole but never recorded, and a partial write: removed with their rows after ABANDONED_AFTER_MS', async () => {
    const whole = await receivingRow()
    const writer = await storageOf(app.context).begin(whole.storage_key)
    await writer.write(Buffer.from('all of it'))
    await writer.commit()
    const partial = await receivingRow()
    // A partial file as a dead process leaves it on the local disk (an S3 multipart upload cut off is invisible).
    if (!app.config.s3) await Bun.write(join(app.dataDir, 'files', '.partial', `${partial.storage_key.replace('/', '_')}.part`), 'half of')
    if (!app.config.s3) expect((await storedKeys(app)).some((k) => k.includes(partial.storage_key.split('/')[1]!))).toBe(true)
    // Never shown: the API does not know either.
    await expectError(await admin.send('GET', `/api/v1/uploads/${whole.id}`), 404, 'NOT_FOUND')
    const listed = await json<{ uploads: Upload[] }>(await admin.send('GET', '/api/v1/uploads?page_size=100'))
    expect(listed.uploads.map((u) => u.id)).not.toContain(whole.id)

    // An upload may still be arriving: untouched before the bound.
    app.clock.advance(ABANDONED_AFTER_MS - 1)
    expect(await runExpiry(app)).toMatchObject({ abandoned: 0 })
    expect(await storageOf(app.context).exists(whole.storage_key)).toBe(true)
    app.clock.advance(2)
    expect(await runExpiry(app)).toMatchObject({ abandoned: 2 })
    expect(await storageOf(app.context).exists(whole.storage_key)).toBe(false)
    expect(await rowExists(whole.id)).toBe(false)
    expect(await rowExists(partial.id)).toBe(false)
    // On the local disk the partial file went too.
    const keys = await storedKeys(app)
    expect(keys.filter((k) => k.includes(whole.storage_key.split('/')[1]!) || k.includes(partial.storage_key.split('/')[1]!))).toEqual([])
  })

  test('an upload slower than the bound is swept meanwhile: 409, nothing left', async () => {
    const ctx = contextFor(
      app.context,
      (await authenticate(app.context, new Request('http://localhost/', { headers: acme.users.admin.auth }), {
        ip: '127.0.0.1',
        userAgent: 'test',
        requestId: 'r',
      })) as UserActor,
    )
    const before = await storedKeys(app)
    async function* slow() {
      yield new Uint8Array(300 * 1024)
      app.clock.advance(ABANDONED_AFTER_MS + 1)
      await runExpiry(app)
      yield new Uint8Array(10)
    }
    const error = await receiveUpload(ctx, { chunks: slow(), filename: 'slow.bin', purpose: 'attachment' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'CONFLICT' })
    expect(await storedKeys(app)).toEqual(before)
  })

  test('a DELETE whose removal of the bytes was cut off is finished by the cron loop', async () => {
    const upload = await admin.upload(Buffer.from('to delete'), { filename: 'd.txt' })
    const before = await row(upload.id)
    // As DELETE does, but the process "dies" before removing the bytes.
    await app.context.db.write('test.delete', (tx) => markUploadDeletedInTx(tx, before, app.clock.now(), acme.users.admin.user.id))
    expect(await stored(upload.id)).toBe(true)
    expect(await runExpiry(app)).toMatchObject({ purged: 1 })
    expect(await stored(upload.id)).toBe(false)
    expect(await admin.get(upload.id)).toMatchObject({ status: 'deleted' })
    expect((await row(upload.id)).deleted_by).toBe(acme.users.admin.user.id)
  })
})
