// What the calls tests share: an app with two organizations, requests as a client sends them, the shapes
// a client reads back, the lifecycle as the tests state it (independently of the module's table), calls
// brought to a status through the API's allowed moves only, and audio files made in the test.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import type { FakeClock } from '../../helpers/clock.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'
import type { Auth } from '../../helpers/errors.ts'
export { type Auth, type ErrorBody, expectError } from '../../helpers/errors.ts'

export interface Call {
  id: string
  direction: string
  from: string
  to: string
  contact_id: string | null
  agent_id: string | null
  queue: string | null
  status: string
  provider: string
  provider_call_id: string | null
  initialized_at: string
  ringing_at: string | null
  answered_at: string | null
  ended_at: string | null
  wait_seconds: number | null
  talk_seconds: number | null
  end_reason: string | null
  ticket_id: string | null
  created_at: string
  updated_at: string
}

export interface Recording {
  id: string
  call_id: string
  upload_id: string
  status: string
  duration_seconds: number | null
  content_type: string
  size_bytes: number
  sha256: string
  failure_reason: string | null
  retention_until: string
  ready_at: string | null
  deleted_at: string | null
  deleted_by: string | null
  created_by: string
  created_at: string
  updated_at: string
}

export const STATUSES = ['queued', 'ringing', 'in_progress', 'completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'] as const
export const TERMINAL = ['completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'] as const
/** Where each status may go (research §2.2, plus an answer straight from the queue). */
export const ALLOWED: Record<string, string[]> = {
  queued: ['ringing', 'in_progress', 'failed', 'canceled'],
  ringing: ['in_progress', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'],
  in_progress: ['completed'],
  completed: [],
  no_answer: [],
  busy: [],
  failed: [],
  canceled: [],
  rejected: [],
}
/** The allowed moves that bring a new (queued) call to each status. */
const PATHS: Record<string, string[]> = {
  queued: [],
  ringing: ['ringing'],
  in_progress: ['in_progress'],
  completed: ['in_progress', 'completed'],
  no_answer: ['ringing', 'no_answer'],
  busy: ['ringing', 'busy'],
  failed: ['failed'],
  canceled: ['canceled'],
  rejected: ['ringing', 'rejected'],
}

export async function callsApp(options: { clock?: FakeClock; settings?: Record<string, string> } = {}) {
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400', ...options.settings }, { clock: options.clock })
  afterAll(() => app.close())
  const acme: SeededOrg = await seedOrganization(app, 'acme')
  const globex: SeededOrg = await seedOrganization(app, 'globex')
  return { app, acme, globex }
}

let numbers = 0
/** A phone number no other call of the file uses (so no contact is found by accident). */
export const freshNumber = () => `+1415555${String(1000 + (++numbers % 9000)).padStart(4, '0')}`

export function callsClient(app: TestApp, defaultAuth: Auth) {
  const send = (method: string, path: string, auth: Auth = defaultAuth, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const create = async (body: Record<string, unknown> = {}, auth: Auth = defaultAuth): Promise<Call> => {
    const response = await send('POST', '/api/v1/calls', auth, { direction: 'inbound', from: freshNumber(), to: '+14155550199', ...body })
    expect(response.status).toBe(201)
    return json<Call>(response)
  }
  const get = async (id: string, auth: Auth = defaultAuth): Promise<Call> => {
    const response = await send('GET', `/api/v1/calls/${id}`, auth)
    expect(response.status).toBe(200)
    return json<Call>(response)
  }
  /** The operation that moves a call to `to`: ring, answer, or end with that status. */
  const move = (id: string, to: string, auth: Auth = defaultAuth, extra: Record<string, unknown> = {}) => {
    if (to === 'ringing') return send('POST', `/api/v1/calls/${id}/ring`, auth, extra)
    if (to === 'in_progress') return send('POST', `/api/v1/calls/${id}/answer`, auth, extra)
    return send('POST', `/api/v1/calls/${id}/end`, auth, { status: to, ...extra })
  }
  /** A call brought to `status` by allowed moves only. */
  const callIn = async (status: string, body: Record<string, unknown> = {}, auth: Auth = defaultAuth): Promise<Call> => {
    let call = await create(body, auth)
    for (const step of PATHS[status]!) {
      const response = await move(call.id, step, auth)
      expect(response.status).toBe(200)
      call = await json<Call>(response)
    }
    expect(call.status).toBe(status)
    return call
  }
  return { send, create, get, move, callIn }
}

/** A valid PCM WAV: 16-bit mono at `rate` Hz, `seconds` long, a quiet tone. */
export function wavFile(seconds: number, rate = 8000): Uint8Array<ArrayBuffer> {
  const samples = Math.round(seconds * rate)
  const dataBytes = samples * 2
  const file = Buffer.alloc(44 + dataBytes)
  file.write('RIFF', 0)
  file.writeUInt32LE(36 + dataBytes, 4)
  file.write('WAVE', 8)
  file.write('fmt ', 12)
  file.writeUInt32LE(16, 16)
  file.writeUInt16LE(1, 20) // PCM
  file.writeUInt16LE(1, 22) // mono
  file.writeUInt32LE(rate, 24)
  file.writeUInt32LE(rate * 2, 28) // bytes per second
  file.writeUInt16LE(2, 32) // block align
  file.writeUInt16LE(16, 34) // bits per sample
  file.write('data', 36)
  file.writeUInt32LE(dataBytes, 40)
  for (let i = 0; i < samples; i++) file.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 4000), 44 + i * 2)
  return Uint8Array.from(file)
}

/**
 * A constant-bit-rate MP3 of silent frames (MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono): each frame a
 * valid header and zeroed side information and data, 1152 samples (26.12 ms). No encoder is installed
 * here (no ffmpeg, lame or sox), so the frames are written by hand.
 */
export function mp3File(frames: number): Uint8Array<ArrayBuffer> {
  const frameBytes = 417 // 144 * 128000 / 44100, no padding
  const file = Buffer.alloc(frames * frameBytes)
  for (let f = 0; f < frames; f++) file.set([0xff, 0xfb, 0x90, 0xc0], f * frameBytes)
  return Uint8Array.from(file)
}
