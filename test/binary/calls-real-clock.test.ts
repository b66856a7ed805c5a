// The calls module's time-driven behaviours on the compiled binary and the real clock, with its own
// cron loop (ticks of 100 ms; the recordings' tasks run every 10 s): wait and talk seconds measured by
// the real clock; a recording read in the background after its request answered; a recording left
// `processing` (as a crash would leave it: set in the database, its last change a minute ago) picked up
// and completed; a recording whose retention ends a few seconds from now deleted by the cron loop as
// `system`, its audio gone. Plus a Twilio callback signed for the binary's PUBLIC_URL, over the network.
// One wait of at most ~12 s.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type DataDirDb, openDataDirDb } from '../helpers/data-dir-db.ts'
import { freePort, type RunningServer, startServer } from '../helpers/process.ts'
import { mp3File, wavFile } from '../modules/calls/calls-api.ts'

const folder = tempDir('switchboard-calls-clock-')
const port = String(freePort())
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@calls-clock.test',
  ADMIN_PASSWORD: 'calls-clock-test-password',
  CRON_TICK_MS: '100',
  PORT: port,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
}
const ACCOUNT = 'AC00000000000000000000000000000b1e'
const TOKEN = 'b1e55ed0b1e55ed0b1e55ed0b1e55ed0'

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

let server: RunningServer
let db: DataDirDb
let token = ''

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const json = body !== undefined && !(body instanceof Uint8Array)
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : json ? JSON.stringify(body) : (body as Uint8Array),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : {} }
}

async function ok(reply: Promise<{ status: number; body: Json }>, status = 200): Promise<Json> {
  const got = await reply
  expect({ status: got.status, body: got.body }).toMatchObject({ status })
  return got.body
}

const addRecording = (callId: string, audio: Uint8Array, type: string) =>
  ok(call('POST', `/api/v1/calls/${callId}/recordings?filename=clock`, audio, { 'content-type': type }), 201)

/** Polls until `check` holds, up to `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (check(value) || Date.now() > deadline) return value
    await Bun.sleep(100)
  }
}

const s = {} as {
  timed: Json
  background: Json
  abandoned: { id: string; readyBefore: number }
  retained: { id: string; uploadId: string; mediaPath: string; until: number }
  twilio: { status: number; sid: string }
}

describe('calls and recordings on the real clock (one binary, one wait of about 12 s)', () => {
  beforeAll(async () => {
    server = await startServer([await compiledBinary()], env, folder)
    db = await openDataDirDb(env.DATA_DIR)
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    })
    token = ((await login.json()) as Json).access_token

    // Wait and talk seconds: answered 1.2 s after it began, ended 1.2 s after that.
    const timed = await ok(call('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550123', to: '+14155550199' }), 201)
    await Bun.sleep(1_200)
    await ok(call('POST', `/api/v1/calls/${timed.id}/answer`, {}))
    await Bun.sleep(1_200)
    s.timed = await ok(call('POST', `/api/v1/calls/${timed.id}/end`, {}))

    // A recording read in the background after its request answered.
    const made = await addRecording(timed.id, mp3File(40), 'audio/mpeg')
    expect(made.status).toBe('processing')
    s.background = await eventually(
      () => ok(call('GET', `/api/v1/recordings/${made.id}`)),
      (r) => r.status !== 'processing',
      3_000,
    )

    // Left processing a minute ago, as a process dying before reading it would leave it.
    const abandoned = await addRecording(timed.id, wavFile(1.5), 'audio/wav')
    await eventually(
      () => ok(call('GET', `/api/v1/recordings/${abandoned.id}`)),
      (r) => r.status === 'completed',
      3_000,
    )
    await db.run("UPDATE recordings SET status = 'processing', duration_ms = NULL, ready_at = NULL, updated_at = ? WHERE id = ?", [
      Date.now() - 61_000,
      abandoned.id,
    ])
    s.abandoned = { id: abandoned.id, readyBefore: Date.now() }

    // Retention ending 2 s from now: the real clock carries it over.
    const retained = await addRecording(timed.id, wavFile(1), 'audio/wav')
    await eventually(
      () => ok(call('GET', `/api/v1/recordings/${retained.id}`)),
      (r) => r.status === 'completed',
      3_000,
    )
    const until = Date.now() + 2_000
    await db.run('UPDATE recordings SET retention_until = ? WHERE id = ?', [until, retained.id])
    const media = await ok(call('GET', `/api/v1/recordings/${retained.id}/media`))
    const mediaPath = (media.url as string).slice(env.PUBLIC_URL.length)
    expect((await fetch(`${server.url}${mediaPath}`, { headers: { range: 'bytes=0-11' } })).status).toBe(206)
    s.retained = { id: retained.id, uploadId: retained.upload_id, mediaPath, until }

    // Twilio, over the network, signed for the URL the binary is reached at.
    await ok(call('PATCH', '/api/v1/organization/calls', { twilio_account_sid: ACCOUNT, twilio_auth_token: TOKEN }))
    const sid = 'CA00000000000000000000000000c10c4'
    const params = {
      AccountSid: ACCOUNT,
      CallSid: sid,
      CallStatus: 'completed',
      CallDuration: '7',
      Direction: 'outbound-api',
      From: '+14155550123',
      To: '+14155550177',
    }
    const signature = getExpectedTwilioSignature(TOKEN, `${env.PUBLIC_URL}/api/v1/integrations/twilio/voice-status`, params)
    const twilio = await fetch(`${server.url}/api/v1/integrations/twilio/voice-status`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: new URLSearchParams(params).toString(),
    })
    s.twilio = { status: twilio.status, sid }

    // The one wait: the recordings' tasks run every 10 s. The retention task marks the recording deleted,
    // commits, then removes the audio and marks its upload purged: waited for too, not raced.
    await eventually(
      async () => [
        (await ok(call('GET', `/api/v1/recordings/${s.abandoned.id}`))).status,
        (await ok(call('GET', `/api/v1/recordings/${s.retained.id}`))).status,
        (await db.get<{ purged_at: number | null }>('SELECT purged_at FROM uploads WHERE id = ?', [s.retained.uploadId]))?.purged_at ??
          null,
      ],
      ([abandonedStatus, retainedStatus, purgedAt]) => abandonedStatus === 'completed' && retainedStatus === 'deleted' && purgedAt !== null,
      // Generous: one run of each task is due within 10 s; a loaded machine may run it later.
      40_000,
    )
  }, 120_000)

  afterAll(async () => {
    await db?.close()
    await server?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  test('wait and talk seconds come from the real times', () => {
    // 1.2 s of sleep each, plus whatever a loaded machine adds to the requests (once 1.64 s: 2 seconds).
    const seconds = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 1000)
    expect(s.timed).toMatchObject({
      status: 'completed',
      wait_seconds: seconds(s.timed.initialized_at, s.timed.answered_at),
      talk_seconds: seconds(s.timed.answered_at, s.timed.ended_at),
    })
    expect(s.timed.wait_seconds).toBeGreaterThanOrEqual(1)
    expect(s.timed.talk_seconds).toBeGreaterThanOrEqual(1)
  })

  test('a recording is read in the background, after its request answered', () => {
    expect(s.background).toMatchObject({ status: 'completed' })
    expect(s.background.duration_seconds).toBeCloseTo((40 * 1152) / 44100, 2)
  })

  test('a recording left processing is picked up by the cron loop and completed', async () => {
    const recording = await ok(call('GET', `/api/v1/recordings/${s.abandoned.id}`))
    expect(recording).toMatchObject({ status: 'completed', duration_seconds: 1.5 })
    expect(Date.parse(recording.ready_at)).toBeGreaterThan(s.abandoned.readyBefore)
  })

  test('a recording past its retention is deleted by the cron loop as system, its audio gone', async () => {
    const recording = await ok(call('GET', `/api/v1/recordings/${s.retained.id}`))
    expect(recording).toMatchObject({ status: 'deleted', deleted_by: 'system' })
    expect(Date.parse(recording.deleted_at)).toBeGreaterThanOrEqual(s.retained.until)
    expect((await call('GET', `/api/v1/recordings/${s.retained.id}/media`)).status).toBe(404)
    expect((await fetch(`${server.url}${s.retained.mediaPath}`)).status).toBe(404)
    const upload = await db.get<{ status: string; purged_at: number | null }>('SELECT status, purged_at FROM uploads WHERE id = ?', [
      s.retained.uploadId,
    ])
    expect(upload?.status).toBe('deleted')
    expect(upload?.purged_at).not.toBeNull()
  })

  test('a Twilio callback signed for PUBLIC_URL drives a call on the binary', async () => {
    expect(s.twilio.status).toBe(204)
    const list = await ok(call('GET', '/api/v1/calls?provider=twilio'))
    expect(list.calls).toHaveLength(1)
    expect(list.calls[0]).toMatchObject({ provider_call_id: s.twilio.sid, direction: 'outbound', status: 'completed', talk_seconds: 7 })
  })
})
