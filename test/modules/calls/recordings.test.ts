// Call recordings through the API (local disk in the SQLite run, S3 in the PostgreSQL one): a WAV made
// in the test and an MP3 of hand-written frames, added from an upload or as the raw body (one endpoint:
// JSON {upload_id} or the audio; its 400s, 413s, 415s, 404s and Idempotency-Key), read for their
// duration after the commit; the lifecycle table (DELETE from every status; processing's two verdicts);
// the signed media URL with a range request; DELETE keeping the record and removing the bytes;
// retention and the pickup of abandoned processing by the cron tasks (fake clock); who may do what.
import { describe, expect, test } from 'bun:test'
import { callsTasks } from '../../../src/modules/calls/index.ts'
import { backgroundProcessingSettled } from '../../../src/modules/calls/recordings/process-recording.ts'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { type Auth, callsApp, callsClient, expectError, mp3File, type Recording, wavFile } from './calls-api.ts'

const DAY_MS = 86_400_000
const clock = new FakeClock()
const { app, acme, globex } = await callsApp({ clock, settings: { UPLOAD_MAX_BYTES: '400000' } })
const { users } = acme
const { send, create, callIn } = callsClient(app, users.admin.auth)
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

/** An upload of purpose recording (or another), its bytes as the raw body. */
async function upload(bytes: Uint8Array, filename: string, auth: Auth = users.admin.auth, purpose = 'recording'): Promise<string> {
  const response = await app.request(`/api/v1/uploads?filename=${filename}&purpose=${purpose}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body: bytes,
  })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

const addFromUpload = (callId: string, uploadId: string, auth: Auth = users.admin.auth) =>
  send('POST', `/api/v1/calls/${callId}/recordings`, auth, { upload_id: uploadId })

/** The audio as the body of the same endpoint (streamed: chunked, no Content-Length, unless `headers` gives one). */
const addRaw = (
  callId: string,
  bytes: Uint8Array | ReadableStream<Uint8Array>,
  auth: Auth = users.admin.auth,
  contentType = 'audio/mpeg',
  headers: Record<string, string> = {},
) =>
  app.request(`/api/v1/calls/${callId}/recordings?filename=call.mp3`, {
    method: 'POST',
    headers: { ...auth, 'content-type': contentType, ...headers },
    body: bytes,
  })

/** `bytes` in chunks of 64 KiB, as a client streaming a file sends them (no Content-Length). */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close()
      controller.enqueue(bytes.slice(at, at + 65_536))
      at += 65_536
    },
  })
}

const counts = async () => ({
  uploads: (await app.context.db.raw.get<{ n: number }>('SELECT COUNT(*) AS n FROM uploads'))!.n,
  recordings: (await app.context.db.raw.get<{ n: number }>('SELECT COUNT(*) AS n FROM recordings'))!.n,
})

async function getRecording(id: string, auth: Auth = users.admin.auth): Promise<Recording> {
  const response = await send('GET', `/api/v1/recordings/${id}`, auth)
  expect(response.status).toBe(200)
  return json<Recording>(response)
}

/** A recording, once its audio has been read. */
async function settled(response: Response, auth: Auth = users.admin.auth): Promise<Recording> {
  expect(response.status).toBe(201)
  const made = await json<Recording>(response)
  expect(made.status).toBe('processing')
  await backgroundProcessingSettled(app.context)
  return getRecording(made.id, auth)
}

/** A WAV header with no format chunk: sniffed as audio, unreadable as audio. */
function brokenWav(): Uint8Array {
  const file = Buffer.alloc(64)
  file.write('RIFF', 0)
  file.writeUInt32LE(56, 4)
  file.write('WAVE', 8)
  file.write('junk', 12)
  file.writeUInt32LE(44, 16)
  return new Uint8Array(file)
}

const task = (name: string) => callsTasks(app.context).find((t) => t.name === name)!
/** Runs a cron task as the scheduler would, at `now` (default the app's clock). */
const runTask = (name: string, now = clock.now()) => task(name).run({ now, log: app.context.log, signal: new AbortController().signal })

describe('adding a recording', () => {
  test('from an upload: a 2.5 s WAV becomes completed with its duration, hash and retention', async () => {
    const call = await callIn('completed')
    const audio = wavFile(2.5)
    const uploadId = await upload(audio, 'call.wav')
    const recording = await settled(await addFromUpload(call.id, uploadId))
    expect(recording).toMatchObject({
      call_id: call.id,
      upload_id: uploadId,
      status: 'completed',
      duration_seconds: 2.5,
      size_bytes: audio.byteLength,
      sha256: sha256(audio),
      failure_reason: null,
      deleted_at: null,
      created_by: users.admin.user.id,
    })
    expect(recording.content_type).toMatch(/^audio\/(wav|x-wav|wave|vnd\.wave)$/)
    expect(Date.parse(recording.retention_until) - Date.parse(recording.created_at)).toBe(90 * DAY_MS)
    expect(recording.ready_at).not.toBeNull()
    const uploaded = await json<{ status: string; attached_to: unknown }>(await send('GET', `/api/v1/uploads/${uploadId}`))
    expect(uploaded).toMatchObject({ status: 'attached', attached_to: { type: 'recording', id: recording.id } })
  })

  test('as the raw body: an MP3 of 77 frames lasts 77 × 1152 / 44100 s', async () => {
    const call = await callIn('in_progress')
    const audio = mp3File(77)
    const recording = await settled(await addRaw(call.id, audio))
    expect(recording).toMatchObject({
      status: 'completed',
      content_type: 'audio/mpeg',
      size_bytes: audio.byteLength,
      sha256: sha256(audio),
    })
    expect(recording.duration_seconds).toBeCloseTo((77 * 1152) / 44100, 2)
  })

  test('audio that cannot be read: failed, with the reason; its media is 409', async () => {
    const call = await callIn('completed')
    const recording = await settled(await addFromUpload(call.id, await upload(brokenWav(), 'broken.wav')))
    expect(recording.status).toBe('failed')
    expect(recording.failure_reason).toContain('audio')
    expect(recording.duration_seconds).toBeNull()
    await expectError(await send('GET', `/api/v1/recordings/${recording.id}/media`), 409, 'CONFLICT')
  })

  test('refused: not audio (415), too large (413), the wrong purpose (400), used or foreign uploads, foreign calls', async () => {
    const call = await callIn('completed')
    await expectError(
      await addRaw(call.id, new TextEncoder().encode('not audio at all, just text'), users.admin.auth, 'audio/wav'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    )
    await expectError(await addRaw(call.id, wavFile(30)), 413, 'PAYLOAD_TOO_LARGE')
    const attachment = await upload(wavFile(0.5), 'a.wav', users.admin.auth, 'attachment')
    await expectError(await addFromUpload(call.id, attachment), 400, 'VALIDATION_FAILED', 'upload_id')
    const used = await upload(wavFile(0.5), 'b.wav')
    expect((await addFromUpload(call.id, used)).status).toBe(201)
    await expectError(await addFromUpload(call.id, used), 409, 'INVALID_STATE_TRANSITION')
    const theirs = await upload(wavFile(0.5), 'c.wav', globex.users.admin.auth)
    await expectError(await addFromUpload(call.id, theirs), 404, 'NOT_FOUND')
    const theirCall = await callsClient(app, globex.users.admin.auth).create()
    await expectError(await addFromUpload(theirCall.id, await upload(wavFile(0.5), 'd.wav')), 404, 'NOT_FOUND')
    await expectError(await addRaw(theirCall.id, mp3File(10)), 404, 'NOT_FOUND')
    await backgroundProcessingSettled(app.context)
  })

  test('one endpoint, two bodies: JSON {upload_id} is checked as any body (400s), the audio streamed; any other type 415', async () => {
    const call = await callIn('completed')
    const before = await counts()
    const post = (body: string, contentType = 'application/json') =>
      app.request(`/api/v1/calls/${call.id}/recordings`, {
        method: 'POST',
        headers: { ...users.admin.auth, 'content-type': contentType },
        body,
      })
    for (const body of ['{}', '', 'null', '{"upload_id": ""}', '{"upload_id": 42}', JSON.stringify({ upload_id: 'x'.repeat(65) })]) {
      const error = await expectError(await post(body), 400, 'VALIDATION_FAILED', 'upload_id')
      expect(error.errors).toHaveLength(1)
    }
    await expectError(await post('[1]'), 400, 'VALIDATION_FAILED', 'body')
    await expectError(await post('{"upload_id": '), 400, 'VALIDATION_FAILED', 'body')
    await expectError(await addFromUpload(call.id, 'upl_01KAX3M6W9P8T2V5G7H4J3C1QZ'), 404, 'NOT_FOUND')
    // JSON is read with MAX_BODY_BYTES (1 MiB here), not the audio's cap (UPLOAD_MAX_BYTES, 400 000 bytes here).
    await expectError(await post(JSON.stringify({ upload_id: 'x'.repeat(500_000) })), 400, 'VALIDATION_FAILED', 'upload_id')
    await expectError(await post(JSON.stringify({ upload_id: 'x'.repeat(1_100_000) })), 413, 'PAYLOAD_TOO_LARGE')
    // No body at all is the JSON case, its field missing.
    const empty = await app.request(`/api/v1/calls/${call.id}/recordings`, { method: 'POST', headers: users.admin.auth })
    await expectError(empty, 400, 'VALIDATION_FAILED', 'upload_id')
    for (const type of ['text/csv', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'video/mp4']) {
      const error = await expectError(await addRaw(call.id, mp3File(10), users.admin.auth, type), 415, 'UNSUPPORTED_MEDIA_TYPE')
      expect(error.message).toBe(
        'Send the body as JSON with Content-Type: application/json, or with Content-Type: audio/* or application/octet-stream',
      )
    }
    expect(await counts()).toEqual(before)
    // Any audio type, octet-stream, or JSON with a charset: each its own way.
    for (const type of ['audio/mpeg', 'audio/x-anything', 'application/octet-stream'])
      expect((await settled(await addRaw(call.id, mp3File(10), users.admin.auth, type))).status).toBe('completed')
    const upload_id = await upload(wavFile(0.5), 'charset.wav')
    expect((await post(JSON.stringify({ upload_id }), 'application/json; charset=utf-8')).status).toBe(201)
    await backgroundProcessingSettled(app.context)
  })

  test('raw audio over UPLOAD_MAX_BYTES: 413, declared or streamed, with nothing stored', async () => {
    const call = await callIn('completed')
    const before = await counts()
    const big = mp3File(2000)
    expect(big.byteLength).toBeGreaterThan(400_000)
    // Declared: refused before the body is read.
    const declared = await addRaw(call.id, big, users.admin.auth, 'audio/mpeg', { 'content-length': String(big.byteLength) })
    expect((await expectError(declared, 413, 'PAYLOAD_TOO_LARGE')).message).toBe('The request body is larger than 400000 bytes')
    // Chunked: refused once the 400 001st byte comes; what was stored of it is removed.
    await expectError(await addRaw(call.id, chunked(big)), 413, 'PAYLOAD_TOO_LARGE')
    expect(await counts()).toEqual(before)
    // Just under the cap, chunked, is taken.
    const fits = mp3File(900)
    expect(fits.byteLength).toBeLessThan(400_000)
    expect((await settled(await addRaw(call.id, chunked(fits)))).size_bytes).toBe(fits.byteLength)
  })

  test("raw audio for another organization's call, or a call an agent may not see: 404, nothing stored", async () => {
    const theirCall = await callsClient(app, globex.users.admin.auth).create()
    const others = await create({ agent_id: users.supervisor.user.id })
    const before = await counts()
    await expectError(await addRaw(theirCall.id, mp3File(10)), 404, 'NOT_FOUND')
    await expectError(await addRaw(theirCall.id, chunked(mp3File(10)), users.admin.auth, 'application/octet-stream'), 404, 'NOT_FOUND')
    await expectError(await addRaw('cal_missing', mp3File(10)), 404, 'NOT_FOUND')
    await expectError(await addRaw(others.id, mp3File(10), users.agent.auth), 404, 'NOT_FOUND')
    expect(await counts()).toEqual(before)
  })

  test('an Idempotency-Key: the same audio again is the first answer; other audio, or JSON, under it is 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const call = await callIn('completed')
    const key = { 'idempotency-key': crypto.randomUUID() }
    const uploads = async () => Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM uploads'))!.n)
    const uploadsBefore = await uploads()
    const audio = mp3File(12)
    const first = await settled(await addRaw(call.id, audio, users.admin.auth, 'audio/mpeg', key))
    const again = await addRaw(call.id, chunked(audio), users.admin.auth, 'audio/mpeg', key)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await json<Recording>(again)).id).toBe(first.id)
    await expectError(await addRaw(call.id, mp3File(13), users.admin.auth, 'audio/mpeg', key), 409, 'IDEMPOTENCY_KEY_REUSED')
    const byJson = await app.request(`/api/v1/calls/${call.id}/recordings`, {
      method: 'POST',
      headers: { ...users.admin.auth, ...key, 'content-type': 'application/json' },
      body: JSON.stringify({ upload_id: await upload(wavFile(0.5), 'key.wav') }),
    })
    await expectError(byJson, 409, 'IDEMPOTENCY_KEY_REUSED')
    const recordings = await json<{ recordings: Recording[] }>(await send('GET', `/api/v1/calls/${call.id}/recordings`))
    expect(recordings.recordings.map((r) => r.id)).toEqual([first.id])
    // The audio of the replay and of the refused request was nobody's: gone. The first's and key.wav stay.
    expect(await uploads()).toBe(uploadsBefore + 2)
  })

  test("a call's recordings are listed oldest first, deleted ones included", async () => {
    const call = await callIn('completed')
    const first = await settled(await addRaw(call.id, mp3File(10)))
    clock.advance(1000)
    const second = await settled(await addRaw(call.id, mp3File(20)))
    expect((await send('DELETE', `/api/v1/recordings/${first.id}`)).status).toBe(200)
    const body = await json<{ recordings: Recording[] }>(await send('GET', `/api/v1/calls/${call.id}/recordings`))
    expect(body.recordings.map((r) => [r.id, r.status])).toEqual([
      [first.id, 'deleted'],
      [second.id, 'completed'],
    ])
  })
})

describe('media', () => {
  test('a signed URL that works without a token, with ranges', async () => {
    const call = await callIn('completed')
    const audio = wavFile(2.5)
    const recording = await settled(await addFromUpload(call.id, await upload(audio, 'ranged.wav')))
    const media = await json<{ url: string; expires_at: string }>(await send('GET', `/api/v1/recordings/${recording.id}/media`))
    expect(Date.parse(media.expires_at) - clock.now()).toBeLessThanOrEqual(300_000)
    const path = media.url.slice(app.config.publicUrl.length)
    const whole = await app.request(path)
    expect(whole.status).toBe(200)
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(audio)
    // The WAV header alone, then a range from the middle, as a player seeking would ask.
    const header = await app.request(path, { headers: { range: 'bytes=0-43' } })
    expect(header.status).toBe(206)
    expect(header.headers.get('content-range')).toBe(`bytes 0-43/${audio.byteLength}`)
    expect(new Uint8Array(await header.arrayBuffer())).toEqual(audio.subarray(0, 44))
    const middle = await app.request(path, { headers: { range: 'bytes=20000-20999' } })
    expect(middle.status).toBe(206)
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(audio.subarray(20000, 21000))
  })
})

describe('lifecycle', () => {
  /** A recording in `status`: completed or failed as read; processing as a crash leaves one (set in the database). */
  async function recordingIn(status: string): Promise<Recording> {
    const call = await callIn('completed')
    const made = await settled(await addFromUpload(call.id, await upload(status === 'failed' ? brokenWav() : wavFile(1), `${status}.wav`)))
    if (status === 'processing')
      await app.context.db.raw.run("UPDATE recordings SET status = 'processing', ready_at = NULL, duration_ms = NULL WHERE id = ?", [
        made.id,
      ])
    if (status === 'deleted') expect((await send('DELETE', `/api/v1/recordings/${made.id}`)).status).toBe(200)
    return getRecording(made.id)
  }

  test.each(['processing', 'completed', 'failed', 'deleted'])('DELETE of a %s recording', async (status) => {
    const recording = await recordingIn(status)
    expect(recording.status).toBe(status)
    const response = await send('DELETE', `/api/v1/recordings/${recording.id}`)
    if (status === 'deleted') {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      expect(error.message).toBe('A deleted recording cannot become deleted: it is final')
      expect(await getRecording(recording.id)).toEqual(recording)
    } else {
      expect(response.status).toBe(200)
      expect(await json<Recording>(response)).toMatchObject({
        status: 'deleted',
        deleted_by: users.admin.user.id,
        deleted_at: new Date(clock.now()).toISOString(),
      })
    }
  })

  test('processing left behind by a crash is read by the cron task: completed (recording.ready) or failed', async () => {
    const good = await recordingIn('processing')
    const bad = await recordingIn('failed')
    await app.context.db.raw.run("UPDATE recordings SET status = 'processing', failure_reason = NULL WHERE id = ?", [bad.id])
    // Not before it has been left a minute: its own process may still be reading it.
    expect(await runTask('recording_processing')).toMatchObject({ found: 0 })
    clock.advance(61_000)
    expect(await runTask('recording_processing')).toMatchObject({ found: 2, processed: 2 })
    expect(await getRecording(good.id)).toMatchObject({ status: 'completed', duration_seconds: 1 })
    expect((await getRecording(bad.id)).status).toBe('failed')
    const ready = await app.context.db.raw.all<{ body: string }>(
      "SELECT body FROM events WHERE type = 'recording.ready' ORDER BY id DESC LIMIT 1",
    )
    expect(JSON.parse(ready[0]!.body).data.recording).toMatchObject({ id: good.id, status: 'completed' })
    expect(await runTask('recording_processing')).toMatchObject({ found: 0 })
  })

  test('DELETE keeps the record and removes the bytes: the upload is deleted, the media and a URL given before are 404', async () => {
    const call = await callIn('completed')
    const recording = await settled(await addFromUpload(call.id, await upload(wavFile(1), 'gone.wav')))
    const media = await json<{ url: string }>(await send('GET', `/api/v1/recordings/${recording.id}/media`))
    const path = media.url.slice(app.config.publicUrl.length)
    expect((await app.request(path)).status).toBe(200)
    const deleted = await json<Recording>(await send('DELETE', `/api/v1/recordings/${recording.id}`))
    expect(deleted.deleted_at).toBe(new Date(clock.now()).toISOString())
    expect(deleted).toEqual({
      ...recording,
      status: 'deleted',
      deleted_by: users.admin.user.id,
      deleted_at: deleted.deleted_at,
      updated_at: deleted.deleted_at as string,
    })
    expect(await getRecording(recording.id)).toEqual(deleted)
    await expectError(await app.request(path), 404, 'NOT_FOUND')
    await expectError(await send('GET', `/api/v1/recordings/${recording.id}/media`), 404, 'NOT_FOUND')
    const uploaded = await json<{ status: string }>(await send('GET', `/api/v1/uploads/${recording.upload_id}`))
    expect(uploaded.status).toBe('deleted')
    await expectError(await send('GET', `/api/v1/uploads/${recording.upload_id}/content`), 404, 'NOT_FOUND')
    const purged = await app.context.db.raw.get<{ purged_at: number | null }>('SELECT purged_at FROM uploads WHERE id = ?', [
      recording.upload_id,
    ])
    expect(purged?.purged_at).not.toBeNull()
    const audit = await app.context.db.raw.get<{ details: string }>(
      "SELECT details FROM audit_logs WHERE event = 'recording.deleted' AND target_id = ?",
      [recording.id],
    )
    expect(JSON.parse(audit!.details)).toEqual({ call_id: call.id, reason: 'deleted' })
  })
})

describe('retention', () => {
  test("the organization's retention: the cron task deletes recordings past it, as system", async () => {
    const response = await send('PATCH', '/api/v1/organization/calls', users.admin.auth, { recording_retention_days: 30 })
    expect((await json<{ recording_retention_days: number }>(response)).recording_retention_days).toBe(30)
    const call = await callIn('completed')
    const recording = await settled(await addRaw(call.id, mp3File(5)))
    expect(Date.parse(recording.retention_until) - Date.parse(recording.created_at)).toBe(30 * DAY_MS)
    const other = await callsClient(app, globex.users.admin.auth).create()
    const theirs = await settled(await addRaw(other.id, mp3File(5), globex.users.admin.auth), globex.users.admin.auth)
    expect(Date.parse(theirs.retention_until) - Date.parse(theirs.created_at)).toBe(90 * DAY_MS)
    // The task runs at a later time than the app's (whose tokens would expire over 30 days).
    const due = Date.parse(recording.retention_until)
    await runTask('recording_retention', due - 1)
    expect((await getRecording(recording.id)).status).toBe('completed')
    const report = await runTask('recording_retention', due)
    expect(report).toMatchObject({ worked: true, deleted: 1 })
    expect(await getRecording(recording.id)).toMatchObject({
      status: 'deleted',
      deleted_by: 'system',
      deleted_at: new Date(due).toISOString(),
    })
    expect((await getRecording(theirs.id, globex.users.admin.auth)).status).toBe('completed')
    await expectError(await send('GET', `/api/v1/uploads/${recording.upload_id}/content`), 404, 'NOT_FOUND')
    const audit = await app.context.db.raw.get<{ actor_type: string; actor_id: string; details: string }>(
      "SELECT actor_type, actor_id, details FROM audit_logs WHERE event = 'recording.deleted' AND target_id = ?",
      [recording.id],
    )
    expect(audit).toMatchObject({ actor_type: 'system', actor_id: 'cron' })
    expect(JSON.parse(audit!.details)).toEqual({ call_id: call.id, reason: 'retention' })
    // Nothing left to do: the next run finds nothing.
    expect(await runTask('recording_retention', due)).toMatchObject({ worked: false, deleted: 0 })
    await send('PATCH', '/api/v1/organization/calls', users.admin.auth, { recording_retention_days: 90 })
  })
})

describe('who may', () => {
  test('agents add and read the recordings of their own and unassigned calls; only admins delete; viewers read', async () => {
    const agent = callsClient(app, users.agent.auth)
    const own = await agent.callIn('in_progress')
    const recording = await settled(await addRaw(own.id, mp3File(5), users.agent.auth))
    expect(recording.created_by).toBe(users.agent.user.id)
    const others = await create({ agent_id: users.supervisor.user.id })
    const theirs = await settled(await addRaw(others.id, mp3File(5)))
    await expectError(await addRaw(others.id, mp3File(5), users.agent.auth), 404, 'NOT_FOUND')
    await expectError(await send('GET', `/api/v1/recordings/${theirs.id}`, users.agent.auth), 404, 'NOT_FOUND')
    await expectError(await send('GET', `/api/v1/recordings/${theirs.id}/media`, users.agent.auth), 404, 'NOT_FOUND')
    await expectError(await send('GET', `/api/v1/calls/${others.id}/recordings`, users.agent.auth), 404, 'NOT_FOUND')
    expect((await send('GET', `/api/v1/recordings/${recording.id}/media`, users.agent.auth)).status).toBe(200)
    for (const role of ['agent', 'supervisor', 'viewer'] as const)
      await expectError(await send('DELETE', `/api/v1/recordings/${recording.id}`, users[role].auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await addRaw(own.id, mp3File(5), users.viewer.auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await addRaw(own.id, mp3File(5), users.supervisor.auth), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await send('GET', `/api/v1/recordings/${theirs.id}`, users.viewer.auth)).status).toBe(200)
    await expectError(await send('DELETE', `/api/v1/recordings/${theirs.id}`, globex.users.admin.auth), 404, 'NOT_FOUND')
  })
})
