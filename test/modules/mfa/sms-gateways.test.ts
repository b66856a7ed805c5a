// SMS through real loopback receivers: the `webhook` provider (HMAC-SHA256 signature checked by the receiver, {to, text}, 503 on failure without leaking the code) and the `twilio` provider (path, Basic auth, form fields).
import { afterAll, describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import {
  challenge,
  codeOf,
  expectError,
  freshOrg,
  jwtPayload,
  send,
  SMS_LOG_MSG,
  verify,
  type EnrolledBody,
  type TokenBody,
} from './helpers.ts'

interface Received {
  method: string
  path: string
  headers: Headers
  body: Uint8Array
  text: string
  /** Webhook receivers only: whether X-Service-Signature matched the HMAC of the raw body. */
  signatureOk?: boolean
}

/** A real HTTP server on loopback that records every request and answers `answer.status`. */
function receiver(options: { webhookSecret?: string } = {}) {
  const received: Received[] = []
  const answer = { status: 200, headers: {} as Record<string, string>, body: '{}' }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const body = new Uint8Array(await request.arrayBuffer())
      const entry: Received = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
        body,
        text: new TextDecoder().decode(body),
      }
      if (options.webhookSecret !== undefined) {
        // What an operator's bridge does: recompute the HMAC of the exact bytes and compare in constant time.
        const expected = Buffer.from(`sha256=${createHmac('sha256', options.webhookSecret).update(body).digest('hex')}`)
        const presented = Buffer.from(request.headers.get('x-service-signature') ?? '')
        entry.signatureOk = presented.length === expected.length && timingSafeEqual(presented, expected)
        received.push(entry)
        if (!entry.signatureOk) return new Response('bad signature', { status: 401 })
      } else {
        received.push(entry)
      }
      return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json', ...answer.headers } })
    },
  })
  return { server, received, answer, url: `http://127.0.0.1:${server.port}` }
}

const PHONE = '+15005550006'
const startSms = (app: TestApp, auth: Record<string, string>, phone = PHONE) => send(app, 'POST', '/api/v1/auth/mfa/sms', { phone }, auth)
const confirmSms = (app: TestApp, auth: Record<string, string>, code: string) =>
  send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code }, auth)

describe('webhook provider', async () => {
  const SECRET = 'sms-webhook-secret-0123456789abcdef'
  const hook = receiver({ webhookSecret: SECRET })
  const app = await makeTestApp({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: `${hook.url}/sms/inbound`, SMS_WEBHOOK_SECRET: SECRET })
  afterAll(async () => {
    await app.close()
    hook.server.stop(true)
  })

  /** Every captured log line: none may hold a code or the secret. */
  const allLogs = () => app.logs.lines.join('\n')

  test('enrollment: a signed POST of {to, text} with the code; the code confirms; the log holds no code', async () => {
    hook.answer.status = 200
    const { users } = await freshOrg(app)
    const before = hook.received.length
    const response = await startSms(app, users.agent.auth)
    expect(response.status).toBe(202)
    expect((await json<{ expires_in: number }>(response)).expires_in).toBe(300)

    const calls = hook.received.slice(before)
    expect(calls).toHaveLength(1)
    const call = calls[0]!
    expect(call.method).toBe('POST')
    expect(call.path).toBe('/sms/inbound')
    expect(call.headers.get('content-type')).toStartWith('application/json')
    expect(call.headers.get('x-service-signature')).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(call.signatureOk).toBe(true)
    // The signature is over these bytes with this secret, not any other.
    expect(call.headers.get('x-service-signature')).not.toBe(
      `sha256=${createHmac('sha256', 'another-secret-0123456789').update(call.body).digest('hex')}`,
    )
    const body = JSON.parse(call.text) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['text', 'to'])
    expect(body.to).toBe(PHONE)
    const code = codeOf(body.text as string)
    // One 6-digit code in the text, nothing that could be mistaken for another.
    expect((body.text as string).match(/\d{6,}/g)).toEqual([code])

    expect(allLogs()).not.toContain(code)
    expect(allLogs()).not.toContain(SECRET)
    expect(app.logs.records().some((r) => r.msg === SMS_LOG_MSG)).toBe(false)

    const confirmed = await confirmSms(app, users.agent.auth, code)
    expect(confirmed.status).toBe(200)
    expect((await json<EnrolledBody>(confirmed)).recovery_codes).toHaveLength(10)
  })

  test('login: /sms/send texts through the webhook and the code completes the login', async () => {
    hook.answer.status = 204
    hook.answer.body = ''
    const { users } = await freshOrg(app)
    expect((await startSms(app, users.agent.auth)).status).toBe(202)
    expect((await confirmSms(app, users.agent.auth, codeOf(JSON.parse(hook.received.at(-1)!.text).text))).status).toBe(200)
    app.clock.advance(30_000)

    const { mfa_token } = await challenge(app, users.agent.user.email)
    const before = hook.received.length
    const sent = await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })
    expect(sent.status).toBe(202)
    const calls = hook.received.slice(before)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.signatureOk).toBe(true)
    const message = JSON.parse(calls[0]!.text) as { to: string; text: string }
    expect(message.to).toBe(PHONE)
    const code = codeOf(message.text)
    expect(allLogs()).not.toContain(code)

    const response = await verify(app, mfa_token, code, 'sms')
    expect(response.status).toBe(200)
    expect(jwtPayload((await json<TokenBody>(response)).access_token).amr).toEqual(['pwd', 'sms', 'mfa'])
  })

  test('a receiver answering 500 -> 503 SERVICE_UNAVAILABLE; the "sms not sent" line has no code and no secret', async () => {
    hook.answer.status = 500
    hook.answer.body = '{"error":"gateway down"}'
    const { users } = await freshOrg(app)
    const logsBefore = app.logs.lines.length
    const before = hook.received.length
    await expectError(await startSms(app, users.agent.auth), 503, 'SERVICE_UNAVAILABLE')
    expect(hook.received.length).toBe(before + 1)
    const code = codeOf(JSON.parse(hook.received.at(-1)!.text).text)

    const lines = app.logs.lines.slice(logsBefore)
    const failure = app.logs
      .records()
      .slice(logsBefore)
      .filter((r) => r.msg === 'sms not sent')
    expect(failure).toHaveLength(1)
    expect(failure[0]!.level).toBe('error')
    expect(failure[0]!.provider).toBe('webhook')
    for (const line of lines) {
      expect(line).not.toContain(code)
      expect(line).not.toContain(SECRET)
      expect(line).not.toContain(PHONE)
    }
    expect(allLogs()).not.toContain(code)
    expect(allLogs()).not.toContain(SECRET)
  })

  test('a failed login text -> 503 too, and a retry after the throttle goes through', async () => {
    hook.answer.status = 200
    hook.answer.body = '{}'
    const { users } = await freshOrg(app)
    expect((await startSms(app, users.agent.auth)).status).toBe(202)
    expect((await confirmSms(app, users.agent.auth, codeOf(JSON.parse(hook.received.at(-1)!.text).text))).status).toBe(200)
    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    hook.answer.status = 502
    const logsBefore = app.logs.lines.length
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token }), 503, 'SERVICE_UNAVAILABLE')
    const lost = codeOf(JSON.parse(hook.received.at(-1)!.text).text)
    for (const line of app.logs.lines.slice(logsBefore)) expect(line).not.toContain(lost)

    hook.answer.status = 200
    app.clock.advance(30_000)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })).status).toBe(202)
    expect((await verify(app, mfa_token, codeOf(JSON.parse(hook.received.at(-1)!.text).text), 'sms')).status).toBe(200)
  })

  test('a resend the gateway refuses leaves the code already delivered valid', async () => {
    hook.answer.status = 200
    hook.answer.body = '{}'
    const { users } = await freshOrg(app)
    expect((await startSms(app, users.agent.auth)).status).toBe(202)
    expect((await confirmSms(app, users.agent.auth, codeOf(JSON.parse(hook.received.at(-1)!.text).text))).status).toBe(200)
    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })).status).toBe(202)
    const delivered = codeOf(JSON.parse(hook.received.at(-1)!.text).text)

    // The user asks again; the gateway fails, so the new code never reaches the phone.
    app.clock.advance(30_000)
    hook.answer.status = 500
    try {
      await expectError(await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token }), 503, 'SERVICE_UNAVAILABLE')
    } finally {
      hook.answer.status = 200
    }
    // The code the user does have still completes the login.
    expect((await verify(app, mfa_token, delivered, 'sms')).status).toBe(200)
  })

  test('an enrollment resend the gateway refuses leaves the code already delivered valid', async () => {
    hook.answer.status = 200
    const { users } = await freshOrg(app)
    expect((await startSms(app, users.agent.auth)).status).toBe(202)
    const delivered = codeOf(JSON.parse(hook.received.at(-1)!.text).text)
    app.clock.advance(30_000)
    hook.answer.status = 500
    try {
      await expectError(await startSms(app, users.agent.auth), 503, 'SERVICE_UNAVAILABLE')
    } finally {
      hook.answer.status = 200
    }
    expect((await confirmSms(app, users.agent.auth, delivered)).status).toBe(200)
  })

  test('a redirect is not followed: 503, one request', async () => {
    hook.answer.status = 302
    hook.answer.headers = { location: `${hook.url}/elsewhere` }
    const { users } = await freshOrg(app)
    const before = hook.received.length
    await expectError(await startSms(app, users.agent.auth), 503, 'SERVICE_UNAVAILABLE')
    expect(hook.received.slice(before).map((r) => r.path)).toEqual(['/sms/inbound'])
    hook.answer.headers = {}
  })
})

describe('webhook provider, receiver unreachable', async () => {
  // A port that was just free: nothing listens on it any more.
  const gone = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const url = `http://127.0.0.1:${gone.port}/sms`
  gone.stop(true)
  const SECRET = 'another-webhook-secret-0123456789'
  const app = await makeTestApp({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: url, SMS_WEBHOOK_SECRET: SECRET })
  afterAll(() => app.close())

  test('-> 503 SERVICE_UNAVAILABLE, logged without the secret', async () => {
    const { users } = await freshOrg(app)
    await expectError(await startSms(app, users.agent.auth), 503, 'SERVICE_UNAVAILABLE')
    expect(app.logs.records().filter((r) => r.msg === 'sms not sent')).toHaveLength(1)
    expect(app.logs.lines.join('\n')).not.toContain(SECRET)
  })
})

describe('twilio provider', async () => {
  const SID = 'AC0123456789abcdef0123456789abcdef'
  const TOKEN = 'twilio-auth-token-0123456789abcdef'
  const twilio = receiver()
  twilio.answer.status = 201
  twilio.answer.body = '{"sid":"SM0123456789abcdef0123456789abcdef","status":"queued"}'
  const fromNumber = await makeTestApp({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: '+15005550000',
    TWILIO_API_URL: twilio.url,
  })
  const fromService = await makeTestApp({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: 'MG0123456789abcdef0123456789abcdef',
    TWILIO_API_URL: twilio.url,
  })
  afterAll(async () => {
    await fromNumber.close()
    await fromService.close()
    twilio.server.stop(true)
  })

  function checkRequest(call: Received): URLSearchParams {
    expect(call.method).toBe('POST')
    expect(call.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`)
    expect(call.headers.get('authorization')).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`)
    expect(call.headers.get('content-type')).toStartWith('application/x-www-form-urlencoded')
    return new URLSearchParams(call.text)
  }

  test('a phone-number sender: To, From, Body on the Messages resource with Basic auth; the code confirms', async () => {
    const { users } = await freshOrg(fromNumber)
    const before = twilio.received.length
    expect((await startSms(fromNumber, users.agent.auth)).status).toBe(202)
    const calls = twilio.received.slice(before)
    expect(calls).toHaveLength(1)
    const form = checkRequest(calls[0]!)
    expect([...form.keys()].sort()).toEqual(['Body', 'From', 'To'])
    expect(form.get('To')).toBe(PHONE)
    expect(form.get('From')).toBe('+15005550000')
    const code = codeOf(form.get('Body')!)
    expect(fromNumber.logs.lines.join('\n')).not.toContain(code)
    expect(fromNumber.logs.lines.join('\n')).not.toContain(TOKEN)
    expect((await confirmSms(fromNumber, users.agent.auth, code)).status).toBe(200)

    // And a login.
    fromNumber.clock.advance(30_000)
    const { mfa_token } = await challenge(fromNumber, users.agent.user.email)
    expect((await send(fromNumber, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })).status).toBe(202)
    const login = checkRequest(twilio.received.at(-1)!)
    expect(login.get('To')).toBe(PHONE)
    expect((await verify(fromNumber, mfa_token, codeOf(login.get('Body')!), 'sms')).status).toBe(200)
  })

  test('a messaging service sender (MG…): MessagingServiceSid instead of From', async () => {
    const { users } = await freshOrg(fromService)
    const before = twilio.received.length
    expect((await startSms(fromService, users.agent.auth, '+4915112345678')).status).toBe(202)
    const calls = twilio.received.slice(before)
    expect(calls).toHaveLength(1)
    const form = checkRequest(calls[0]!)
    expect([...form.keys()].sort()).toEqual(['Body', 'MessagingServiceSid', 'To'])
    expect(form.get('MessagingServiceSid')).toBe('MG0123456789abcdef0123456789abcdef')
    expect(form.get('To')).toBe('+4915112345678')
    expect((await confirmSms(fromService, users.agent.auth, codeOf(form.get('Body')!))).status).toBe(200)
  })

  test('Twilio refusing the message (400) -> 503, logged without the code or the auth token', async () => {
    twilio.answer.status = 400
    twilio.answer.body = '{"code":21211,"message":"The \'To\' number is not a valid phone number."}'
    try {
      const { users } = await freshOrg(fromNumber)
      await expectError(await startSms(fromNumber, users.agent.auth, '+15005550001'), 503, 'SERVICE_UNAVAILABLE')
      const code = codeOf(new URLSearchParams(twilio.received.at(-1)!.text).get('Body')!)
      const logs = fromNumber.logs.lines.join('\n')
      expect(logs).toContain('sms not sent')
      expect(logs).not.toContain(code)
      expect(logs).not.toContain(TOKEN)
    } finally {
      twilio.answer.status = 201
    }
  })
})
