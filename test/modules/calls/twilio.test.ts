// Twilio's voice status callbacks, signed by the twilio package's own getExpectedTwilioSignature (the
// counterpart of its validateRequest): a genuine callback creates and moves the call through the
// lifecycle with the API's events; repeats and out-of-order callbacks change nothing and are still 204;
// forged ones (another token, a changed parameter, a changed URL, none) and unknown accounts are 403,
// alike. The account is connected by the organization's call settings, its token write-only.
import { describe, expect, test } from 'bun:test'
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { type Call, callsApp, callsClient, expectError } from './calls-api.ts'

const clock = new FakeClock()
const { app, acme, globex } = await callsApp({ clock })
const { users } = acme
const { send } = callsClient(app, users.admin.auth)
const PATH = '/api/v1/integrations/twilio/voice-status'
const ACCOUNT = 'AC0123456789abcdef0123456789abcdef'
const TOKEN = 'f1e2d3c4b5a697887766554433221100'

type Params = Record<string, string>

/** A callback as Twilio sends it: form-encoded, signed over PUBLIC_URL + path (+ query) and the sorted parameters. */
function callback(params: Params, options: { token?: string; signedUrl?: string; query?: string; signature?: string | null } = {}) {
  const query = options.query ?? ''
  const url = options.signedUrl ?? `${app.config.publicUrl}${PATH}${query}`
  const signature = options.signature === undefined ? getExpectedTwilioSignature(options.token ?? TOKEN, url, params) : options.signature
  return app.request(`${PATH}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature === null ? {} : { 'x-twilio-signature': signature }) },
    body: new URLSearchParams(params).toString(),
  })
}

let sids = 0
const status = (CallSid: string, CallStatus: string, extra: Params = {}): Params => ({
  AccountSid: ACCOUNT,
  CallSid,
  CallStatus,
  Direction: 'inbound',
  From: '+14155550123',
  To: '+14155550199',
  ApiVersion: '2010-04-01',
  ...extra,
})
const newSid = () => `CA${String(++sids).padStart(32, '0')}`

async function callOf(sid: string): Promise<Call | undefined> {
  const body = await json<{ calls: Call[] }>(await send('GET', '/api/v1/calls?provider=twilio&page_size=100'))
  return body.calls.find((c) => c.provider_call_id === sid)
}

async function eventsOf(callId: string): Promise<string[]> {
  const rows = await app.context.db.raw.all<{ type: string; body: string }>(
    "SELECT type, body FROM events WHERE type LIKE 'call.%' ORDER BY id",
  )
  return rows.filter((r) => (JSON.parse(r.body) as { data: { call: Call } }).data.call.id === callId).map((r) => r.type)
}

describe('settings', () => {
  test('connecting the account: the token is write-only, required, and an account belongs to one organization', async () => {
    const before = await json<Record<string, unknown>>(await send('GET', '/api/v1/organization/calls'))
    expect(before).toEqual({
      recording_retention_days: 90,
      twilio_account_sid: null,
      twilio_auth_token_set: false,
      twilio_status_callback_url: `${app.config.publicUrl}${PATH}`,
      updated_at: null,
    })
    await expectError(
      await send('PATCH', '/api/v1/organization/calls', users.admin.auth, { twilio_account_sid: ACCOUNT }),
      400,
      'VALIDATION_FAILED',
      'twilio_auth_token',
    )
    await expectError(
      await send('PATCH', '/api/v1/organization/calls', users.admin.auth, { twilio_account_sid: 'AC123' }),
      400,
      'VALIDATION_FAILED',
    )
    const response = await send('PATCH', '/api/v1/organization/calls', users.admin.auth, {
      twilio_account_sid: ACCOUNT,
      twilio_auth_token: TOKEN,
    })
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(text).not.toContain(TOKEN)
    expect(JSON.parse(text)).toMatchObject({ twilio_account_sid: ACCOUNT, twilio_auth_token_set: true })
    // At rest it is sealed, not the token; no log line and no audit record holds it.
    const row = await app.context.db.raw.get<{ twilio_auth_token_encrypted: string }>(
      'SELECT * FROM call_settings WHERE organization_id = ?',
      [acme.org.id],
    )
    expect(JSON.stringify(row)).not.toContain(TOKEN)
    expect(app.logs.lines.join('\n')).not.toContain(TOKEN)
    const audit = await app.context.db.raw.all<{ details: string }>(
      "SELECT details FROM audit_logs WHERE event = 'organization.call_settings_updated'",
    )
    expect(audit.map((a) => JSON.parse(a.details))).toEqual([{ changed: ['twilio_account_sid', 'twilio_auth_token'] }])
    expect(JSON.stringify(audit)).not.toContain(TOKEN)
    // Another organization cannot connect the same account.
    await expectError(
      await send('PATCH', '/api/v1/organization/calls', globex.users.admin.auth, { twilio_account_sid: ACCOUNT, twilio_auth_token: TOKEN }),
      409,
      'CONFLICT',
      'twilio_account_sid',
    )
    // Who may: organization:read and organization:update.
    await expectError(await send('GET', '/api/v1/organization/calls', users.agent.auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(
      await send('PATCH', '/api/v1/organization/calls', users.supervisor.auth, { recording_retention_days: 5 }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(
      await send('PATCH', '/api/v1/organization/calls', users.admin.auth, { recording_retention_days: 0 }),
      400,
      'VALIDATION_FAILED',
    )
  })
})

describe('genuine callbacks drive the lifecycle', () => {
  test('ringing creates the call; in-progress answers it; completed ends it; each with its event', async () => {
    const sid = newSid()
    expect((await callback(status(sid, 'ringing', { From: '+1 415 555 0123' }))).status).toBe(204)
    const created = (await callOf(sid))!
    expect(created).toMatchObject({
      provider: 'twilio',
      provider_call_id: sid,
      direction: 'inbound',
      from: '+14155550123',
      status: 'ringing',
      agent_id: null,
    })
    clock.advance(5_000)
    expect((await callback(status(sid, 'in-progress'))).status).toBe(204)
    expect(await callOf(sid)).toMatchObject({ status: 'in_progress', wait_seconds: 5 })
    clock.advance(42_000)
    expect((await callback(status(sid, 'completed', { CallDuration: '42' }))).status).toBe(204)
    expect(await callOf(sid)).toMatchObject({ status: 'completed', talk_seconds: 42, end_reason: 'completed' })
    expect(await eventsOf(created.id)).toEqual(['call.started', 'call.answered', 'call.completed'])
  })

  test('repeated and out-of-order callbacks change nothing and are answered 204', async () => {
    const sid = newSid()
    await callback(status(sid, 'initiated', { Direction: 'outbound-api' }))
    await callback(status(sid, 'ringing', { Direction: 'outbound-api' }))
    await callback(status(sid, 'in-progress', { Direction: 'outbound-api' }))
    const answered = (await callOf(sid))!
    expect(answered).toMatchObject({ direction: 'outbound', status: 'in_progress' })
    clock.advance(1_000)
    for (const late of ['ringing', 'initiated', 'queued', 'in-progress'])
      expect((await callback(status(sid, late, { Direction: 'outbound-api' }))).status).toBe(204)
    expect(await callOf(sid)).toEqual(answered)
    await callback(status(sid, 'completed', { Direction: 'outbound-api' }))
    const ended = (await callOf(sid))!
    for (const late of ['completed', 'busy', 'in-progress', 'no-answer']) expect((await callback(status(sid, late))).status).toBe(204)
    expect(await callOf(sid)).toEqual(ended)
    expect(await eventsOf(ended.id)).toEqual(['call.started', 'call.answered', 'call.completed'])
  })

  test("completed alone (Twilio's default callback): the call goes through every step, answered CallDuration seconds before", async () => {
    const sid = newSid()
    expect((await callback(status(sid, 'completed', { CallDuration: '65' }))).status).toBe(204)
    const call = (await callOf(sid))!
    expect(call).toMatchObject({ status: 'completed', talk_seconds: 65, wait_seconds: 0, ended_at: new Date(clock.now()).toISOString() })
    expect(Date.parse(call.ended_at!) - Date.parse(call.answered_at!)).toBe(65_000)
    expect(await eventsOf(call.id)).toEqual(['call.started', 'call.answered', 'call.completed'])
  })

  test('a CallDuration that is no whole number of seconds up to 24 h is 400 naming it, and changes nothing', async () => {
    for (const CallDuration of ['99999999999999999999', '86401', '-5', '1.5', '1e3', 'abc']) {
      const sid = newSid()
      const response = await callback(status(sid, 'completed', { CallDuration }))
      const error = await expectError(response, 400, 'VALIDATION_FAILED', 'CallDuration')
      expect(error.errors).toEqual([{ field: 'CallDuration', message: 'must be whole seconds from 0 to 86400' }])
      expect(await callOf(sid)).toBeUndefined()
    }
    const sid = newSid()
    expect((await callback(status(sid, 'completed', { CallDuration: '86400' }))).status).toBe(204)
    expect((await callOf(sid))?.talk_seconds).toBe(86_400)
  })

  test('no-answer, busy, canceled, failed; client callers kept as sent; the contact found by number', async () => {
    const contact = await json<{ id: string }>(
      await send('POST', '/api/v1/contacts', users.admin.auth, { name: 'Twilio Caller', phone: '+14155550177' }),
    )
    const cases: [string, string, Params][] = [
      ['no-answer', 'no_answer', {}],
      ['busy', 'busy', { From: '+14155550177' }],
      ['canceled', 'canceled', { From: 'client:alice' }],
      ['failed', 'failed', {}],
    ]
    for (const [twilio, ours, extra] of cases) {
      const sid = newSid()
      expect((await callback(status(sid, twilio, extra))).status).toBe(204)
      const call = (await callOf(sid))!
      expect(call).toMatchObject({ status: ours, talk_seconds: 0, answered_at: null })
      if (extra.From === '+14155550177') expect(call.contact_id).toBe(contact.id)
      if (extra.From === 'client:alice') expect(call).toMatchObject({ from: 'client:alice', contact_id: null })
    }
  })

  test('a URL with a query is signed with it; an unknown CallStatus is answered and ignored', async () => {
    const sid = newSid()
    expect((await callback(status(sid, 'ringing'), { query: '?tenant=acme&x=%27' })).status).toBe(204)
    expect((await callOf(sid))?.status).toBe('ringing')
    expect((await callback(status(sid, 'answered-by-robot'))).status).toBe(204)
    expect((await callOf(sid))?.status).toBe('ringing')
    await expectError(await callback({ AccountSid: ACCOUNT, CallStatus: 'ringing' }), 400, 'VALIDATION_FAILED', 'CallSid')
  })
})

describe('forged callbacks are refused alike (403), changing nothing', () => {
  const sid = 'CAffffffffffffffffffffffffffffffff'
  const genuine = status(sid, 'ringing')
  const cases: [string, () => Promise<Response>][] = [
    ['signed with another token', () => callback(genuine, { token: 'fedcba9876543210fedcba9876543210' })],
    [
      'a parameter changed after signing',
      () =>
        callback(
          { ...genuine },
          { signature: getExpectedTwilioSignature(TOKEN, `${app.config.publicUrl}${PATH}`, { ...genuine, From: '+19999999999' }) },
        ),
    ],
    [
      'a parameter added after signing',
      () =>
        callback(
          { ...genuine, CallDuration: '1' },
          { signature: getExpectedTwilioSignature(TOKEN, `${app.config.publicUrl}${PATH}`, genuine) },
        ),
    ],
    ['signed for another URL', () => callback(genuine, { signedUrl: `https://evil.example${PATH}` })],
    [
      'signed without the query it was sent with',
      () => callback(genuine, { query: '?tenant=acme', signedUrl: `${app.config.publicUrl}${PATH}` }),
    ],
    ['no signature', () => callback(genuine, { signature: null })],
    ['an empty signature', () => callback(genuine, { signature: '' })],
    [
      'an unknown account, genuinely signed with its own token',
      () => callback({ ...genuine, AccountSid: 'AC99999999999999999999999999999999' }),
    ],
    ['no account', () => callback({ CallSid: sid, CallStatus: 'ringing' })],
  ]
  test.each(cases)('%s', async (_, forged) => {
    const error = await expectError(await forged(), 403, 'INSUFFICIENT_PERMISSIONS')
    expect(error.message).toBe('The X-Twilio-Signature does not match this request for a connected Twilio account')
    expect(await callOf(sid)).toBeUndefined()
  })

  test('the genuine one is then accepted', async () => {
    expect((await callback(genuine)).status).toBe(204)
    expect((await callOf(sid))?.status).toBe('ringing')
  })
})
