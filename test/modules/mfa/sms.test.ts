// SMS through the default `log` provider: enrollment (E.164, masked number, 5 wrong codes, 5-minute codes), login codes via /sms/send, and the per-user throttle (30 s, 10 an hour, 429 body and Retry-After).
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, signIn } from '../../helpers/seed.ts'
import {
  challenge,
  enrollSmsViaLog,
  enrollTotp,
  expectError,
  freshOrg,
  jwtPayload,
  lastSmsCode,
  loggedSms,
  send,
  status,
  verify,
  type EnrolledBody,
  type TokenBody,
} from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

const PHONE = '+15005550006'
const startSms = (auth: Record<string, string>, phone = PHONE) => send(app, 'POST', '/api/v1/auth/mfa/sms', { phone }, auth)
const confirmSms = (auth: Record<string, string>, code: string) => send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code }, auth)
const sendLoginSms = (mfa_token: string) => send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })

/** Any 6-digit code but `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

async function expectRateLimited(response: Response): Promise<number> {
  expect(response.status).toBe(429)
  const body = await json<Record<string, unknown>>(response)
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'retry_after'])
  expect(body.code).toBe(429)
  expect(body.error).toBe('RATE_LIMITED')
  expect(body.message).toBeString()
  expect(Number.isInteger(body.retry_after)).toBe(true)
  expect(body.retry_after as number).toBeGreaterThan(0)
  expect(response.headers.get('retry-after')).toBe(String(body.retry_after))
  return body.retry_after as number
}

/** A user with SMS on, the clock moved past the enrollment message's 30 s throttle. */
async function smsUser(phone = PHONE) {
  const seeded = await freshOrg(app)
  const recoveryCodes = await enrollSmsViaLog(app, seeded.users.agent.auth, phone)
  app.clock.advance(30_000)
  return { ...seeded, user: seeded.users.agent.user, auth: seeded.users.agent.auth, recoveryCodes, phone }
}

describe('enrollment', () => {
  test('start -> 202 with the number masked; the code is in the log; the right code turns SMS on with 10 recovery codes', async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    const before = loggedSms(app).length
    const response = await startSms(auth)
    expect(response.status).toBe(202)
    const body = await json<{ phone: string; expires_in: number }>(response)
    expect(Object.keys(body).sort()).toEqual(['expires_in', 'phone'])
    expect(body.expires_in).toBe(300)
    expect(body.phone).not.toBe(PHONE)
    expect(body.phone).not.toContain('5005550')
    expect(body.phone.endsWith('0006')).toBe(true)
    expect(body.phone.startsWith('+')).toBe(true)

    const sent = loggedSms(app).slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.to).toBe(PHONE)
    expect(sent[0]!.text).toMatch(/\b\d{6}\b/)
    expect(await status(app, auth)).toEqual({
      totp: { enabled: false, pending: false },
      sms: { enabled: false, phone: null, pending: true },
      recovery_codes_remaining: 0,
    })

    const code = lastSmsCode(app, PHONE)
    await expectError(await confirmSms(auth, otherThan(code)), 401, 'INVALID_MFA_CODE')
    const confirmed = await confirmSms(auth, code)
    expect(confirmed.status).toBe(200)
    expect(confirmed.headers.get('cache-control')).toBe('no-store')
    const enrolled = await json<EnrolledBody>(confirmed)
    expect(enrolled.method).toBe('sms')
    expect(enrolled.enabled).toBe(true)
    expect(enrolled.recovery_codes).toHaveLength(10)
    expect(new Set(enrolled.recovery_codes).size).toBe(10)

    const after = await status(app, auth)
    expect(after.sms.enabled).toBe(true)
    expect(after.sms.pending).toBe(false)
    expect(after.sms.phone).toBe(body.phone)
    expect(after.recovery_codes_remaining).toBe(10)
    expect((await challenge(app, users.agent.user.email)).mfa_methods).toEqual(['sms'])
    // The code is used up.
    await expectError(await confirmSms(auth, code), 409, 'CONFLICT')
  })

  test('a number not in E.164 form -> 400 naming phone, and nothing is sent', async () => {
    const { users } = await freshOrg(app)
    const before = loggedSms(app).length
    for (const phone of ['5005550006', '+05005550006', '+1 500 555 0006', '+1-500-555-0006', 'phone', '+1234', '+1234567890123456', '']) {
      await expectError(await startSms(users.agent.auth, phone), 400, 'VALIDATION_FAILED', ['phone'])
    }
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/sms', {}, users.agent.auth), 400, 'VALIDATION_FAILED', ['phone'])
    expect(loggedSms(app).length).toBe(before)
    expect((await status(app, users.agent.auth)).sms.pending).toBe(false)
  })

  test('confirm with nothing started -> 409', async () => {
    const { users } = await freshOrg(app)
    await expectError(await confirmSms(users.agent.auth, '123456'), 409, 'CONFLICT')
  })

  test('5 wrong codes end the enrollment: then even the right code -> 409, and a new start works', async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    expect((await startSms(auth)).status).toBe(202)
    const code = lastSmsCode(app, PHONE)
    for (let i = 1; i <= 4; i++) await expectError(await confirmSms(auth, otherThan(code)), 401, 'INVALID_MFA_CODE')
    expect((await status(app, auth)).sms.pending).toBe(true)
    await expectError(await confirmSms(auth, otherThan(code)), 401, 'INVALID_MFA_CODE')
    await expectError(await confirmSms(auth, code), 409, 'CONFLICT')
    expect((await status(app, auth)).sms).toEqual({ enabled: false, phone: null, pending: false })

    app.clock.advance(30_000)
    expect((await startSms(auth)).status).toBe(202)
    expect((await confirmSms(auth, lastSmsCode(app, PHONE))).status).toBe(200)
  })

  test('the enrollment code lasts 5 minutes: at 4:59 it confirms, at 5:00 -> 409', async () => {
    const { users } = await freshOrg(app)
    expect((await startSms(users.agent.auth)).status).toBe(202)
    app.clock.advance(5 * 60_000 - 1000)
    expect((await confirmSms(users.agent.auth, lastSmsCode(app, PHONE))).status).toBe(200)

    expect((await startSms(users.viewer.auth, '+15005550009')).status).toBe(202)
    app.clock.advance(5 * 60_000)
    await expectError(await confirmSms(users.viewer.auth, lastSmsCode(app, '+15005550009')), 409, 'CONFLICT')
    expect((await status(app, users.viewer.auth)).sms.enabled).toBe(false)
  })

  test("a second start replaces the first: the first number's code no longer confirms", async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    expect((await startSms(auth, '+15005550001')).status).toBe(202)
    const first = lastSmsCode(app, '+15005550001')
    app.clock.advance(30_000)
    expect((await startSms(auth, '+15005550002')).status).toBe(202)
    const second = lastSmsCode(app, '+15005550002')
    if (first !== second) await expectError(await confirmSms(auth, first), 401, 'INVALID_MFA_CODE')
    expect((await confirmSms(auth, second)).status).toBe(200)
    expect((await status(app, auth)).sms.phone!.endsWith('0002')).toBe(true)
  })

  test('a new number replaces the confirmed one once confirmed; login codes go to the new number', async () => {
    const { user, auth, recoveryCodes } = await smsUser('+15005550003')
    expect((await startSms(auth, '+15005550004')).status).toBe(202)
    // Until confirmed, the old number stays.
    expect((await status(app, auth)).sms).toMatchObject({ enabled: true, pending: true })
    expect((await status(app, auth)).sms.phone!.endsWith('0003')).toBe(true)
    // The move needs the step-up (step-up.test.ts covers it): here the password and a recovery code.
    const stepUp = { password: PASSWORD, current_method: 'recovery', current_code: recoveryCodes[0] }
    expect(
      (await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: lastSmsCode(app, '+15005550004'), ...stepUp }, auth)).status,
    ).toBe(200)
    expect((await status(app, auth)).sms.phone!.endsWith('0004')).toBe(true)

    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, user.email)
    const before = loggedSms(app).length
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    expect(
      loggedSms(app)
        .slice(before)
        .map((m) => m.to),
    ).toEqual(['+15005550004'])
  })

  test('removal needs the password', async () => {
    const { user, auth } = await smsUser()
    await expectError(await send(app, 'DELETE', '/api/v1/auth/mfa/sms', { password: 'nope nope nope' }, auth), 400, 'VALIDATION_FAILED', [
      'password',
    ])
    expect((await status(app, auth)).sms.enabled).toBe(true)
    expect((await send(app, 'DELETE', '/api/v1/auth/mfa/sms', { password: PASSWORD }, auth)).status).toBe(204)
    expect((await status(app, auth)).sms).toEqual({ enabled: false, phone: null, pending: false })
    const login = await send(app, 'POST', '/api/v1/auth/login', { email: user.email, password: PASSWORD })
    expect((await json<TokenBody>(login)).access_token).toBeString()
  })
})

describe('login', () => {
  test('challenge, send -> 202, the code from the log, verify with sms -> tokens', async () => {
    const { user } = await smsUser()
    const before = loggedSms(app).length
    const { mfa_token, mfa_methods } = await challenge(app, user.email)
    expect(mfa_methods).toEqual(['sms'])
    // Nothing is texted until asked for.
    expect(loggedSms(app).length).toBe(before)
    const response = await sendLoginSms(mfa_token)
    expect(response.status).toBe(202)
    const body = await json<{ phone: string; expires_in: number }>(response)
    expect(body.expires_in).toBe(300)
    expect(body.phone).not.toContain('5005550')
    expect(body.phone.endsWith('0006')).toBe(true)
    const sent = loggedSms(app).slice(before)
    expect(sent.map((m) => m.to)).toEqual([PHONE])

    const code = lastSmsCode(app, PHONE)
    await expectError(await verify(app, mfa_token, otherThan(code), 'sms'), 401, 'INVALID_MFA_CODE')
    const ok = await verify(app, mfa_token, code, 'sms')
    expect(ok.status).toBe(200)
    const tokens = await json<TokenBody>(ok)
    expect(tokens.user.id).toBe(user.id)
    expect(jwtPayload(tokens.access_token).amr).toEqual(['pwd', 'sms', 'mfa'])
  })

  test('an sms verify before any code was sent is a wrong code', async () => {
    const { user } = await smsUser()
    const { mfa_token } = await challenge(app, user.email)
    await expectError(await verify(app, mfa_token, '123456', 'sms'), 401, 'INVALID_MFA_CODE')
  })

  test('a new send replaces the previous code', async () => {
    const { user } = await smsUser()
    const { mfa_token } = await challenge(app, user.email)
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    const first = lastSmsCode(app, PHONE)
    app.clock.advance(30_000)
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    const second = lastSmsCode(app, PHONE)
    if (first !== second) await expectError(await verify(app, mfa_token, first, 'sms'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, mfa_token, second, 'sms')).status).toBe(200)
  })

  test("a login code is not an enrollment code, nor is one login's code good for another login", async () => {
    const { user, auth } = await smsUser()
    const a = await challenge(app, user.email)
    const b = await challenge(app, user.email)
    expect((await sendLoginSms(a.mfa_token)).status).toBe(202)
    const code = lastSmsCode(app, PHONE)
    await expectError(await verify(app, b.mfa_token, code, 'sms'), 401, 'INVALID_MFA_CODE')
    await expectError(await confirmSms(auth, code), 409, 'CONFLICT')
    expect((await verify(app, a.mfa_token, code, 'sms')).status).toBe(200)
  })

  test('the code lasts 5 minutes: 4:59 after sending it works, 5:00 after it does not', async () => {
    const { user } = await smsUser()
    const early = await challenge(app, user.email)
    expect((await sendLoginSms(early.mfa_token)).status).toBe(202)
    app.clock.advance(5 * 60_000 - 1000)
    expect((await verify(app, early.mfa_token, lastSmsCode(app, PHONE), 'sms')).status).toBe(200)

    app.clock.advance(30_000)
    const late = await challenge(app, user.email)
    expect((await sendLoginSms(late.mfa_token)).status).toBe(202)
    app.clock.advance(5 * 60_000)
    const response = await verify(app, late.mfa_token, lastSmsCode(app, PHONE), 'sms')
    expect(response.status).toBe(401)
    // The code is stored to expire no later than 5 minutes after it was sent.
    const row = (await app.context.db.raw.get<{ sms_expires_at: number }>(
      'SELECT sms_expires_at FROM mfa_challenges WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
      [user.id],
    ))!
    expect(row.sms_expires_at).toBeLessThanOrEqual(app.clock.now())
  })

  test('a code is good once: after a successful verify the SMS code (and its token) are spent', async () => {
    const { user } = await smsUser()
    const { mfa_token } = await challenge(app, user.email)
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    const code = lastSmsCode(app, PHONE)
    expect((await verify(app, mfa_token, code, 'sms')).status).toBe(200)
    await expectError(await verify(app, mfa_token, code, 'sms'), 401, 'TOKEN_INVALID')
  })

  test('5 wrong SMS codes end the login', async () => {
    const { user } = await smsUser()
    const { mfa_token } = await challenge(app, user.email)
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    const code = lastSmsCode(app, PHONE)
    for (let i = 1; i <= 5; i++) await expectError(await verify(app, mfa_token, otherThan(code), 'sms'), 401, 'INVALID_MFA_CODE')
    await expectError(await verify(app, mfa_token, code, 'sms'), 401, 'TOKEN_INVALID')
    app.clock.advance(30_000)
    await expectError(await sendLoginSms(mfa_token), 401, 'TOKEN_INVALID')
  })

  test('send for a login that does not offer sms -> 400 naming mfa_token; unknown, used or expired tokens -> 401', async () => {
    const { users } = await freshOrg(app)
    await enrollTotp(app, users.agent.auth)
    const totpOnly = await challenge(app, users.agent.user.email)
    let before = loggedSms(app).length
    await expectError(await sendLoginSms(totpOnly.mfa_token), 400, 'VALIDATION_FAILED', ['mfa_token'])
    await expectError(await sendLoginSms('mfa_unknown'), 401, 'TOKEN_INVALID')
    await expectError(await sendLoginSms('garbage'), 401, 'TOKEN_INVALID')
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/sms/send', {}), 400, 'VALIDATION_FAILED', ['mfa_token'])
    expect(loggedSms(app).length).toBe(before)

    const { user } = await smsUser()
    before = loggedSms(app).length
    const spent = await challenge(app, user.email)
    expect((await sendLoginSms(spent.mfa_token)).status).toBe(202)
    expect((await verify(app, spent.mfa_token, lastSmsCode(app, PHONE), 'sms')).status).toBe(200)
    app.clock.advance(30_000)
    await expectError(await sendLoginSms(spent.mfa_token), 401, 'TOKEN_INVALID')
    const expired = await challenge(app, user.email)
    app.clock.advance(5 * 60_000)
    await expectError(await sendLoginSms(expired.mfa_token), 401, 'TOKEN_INVALID')
    expect(loggedSms(app).length).toBe(before + 1)
  })
})

describe('throttling', () => {
  test('a second send within 30 s -> 429 with the exact body and Retry-After; 30 s later it is sent', async () => {
    const { user } = await smsUser()
    const { mfa_token } = await challenge(app, user.email)
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    const before = loggedSms(app).length
    expect(await expectRateLimited(await sendLoginSms(mfa_token))).toBe(30)
    app.clock.advance(20_000)
    expect(await expectRateLimited(await sendLoginSms(mfa_token))).toBe(10)
    expect(loggedSms(app).length).toBe(before)
    app.clock.advance(10_000)
    expect((await sendLoginSms(mfa_token)).status).toBe(202)
    expect(loggedSms(app).length).toBe(before + 1)
  })

  test('the throttle is per user, across enrollment and login messages and across logins', async () => {
    const { users } = await freshOrg(app)
    expect((await startSms(users.agent.auth)).status).toBe(202)
    expect((await confirmSms(users.agent.auth, lastSmsCode(app, PHONE))).status).toBe(200)
    // Another user is not held back.
    expect((await startSms(users.viewer.auth, '+15005550010')).status).toBe(202)
    app.clock.advance(10_000)
    // The enrollment message 10 s ago counts.
    const a = await challenge(app, users.agent.user.email)
    await expectRateLimited(await sendLoginSms(a.mfa_token))
    await expectRateLimited(await startSms(users.agent.auth, '+15005550011'))
    app.clock.advance(20_000)
    expect((await sendLoginSms(a.mfa_token)).status).toBe(202)
    // A new login does not reset it.
    const b = await challenge(app, users.agent.user.email)
    await expectRateLimited(await sendLoginSms(b.mfa_token))
  })

  test('more than 10 messages in an hour -> 429 until the oldest is an hour old', async () => {
    const { user, users } = await smsUser()
    // The enrollment message was the first of the hour (30 s ago); 9 more, 30 s apart.
    const start = app.clock.now() - 30_000
    let current = await challenge(app, user.email)
    for (let i = 2; i <= 10; i++) {
      if (app.clock.now() - start >= 4 * 60_000) current = await challenge(app, user.email)
      expect((await sendLoginSms(current.mfa_token)).status).toBe(202)
      app.clock.advance(30_000)
    }
    current = await challenge(app, user.email)
    const retryAfter = await expectRateLimited(await sendLoginSms(current.mfa_token))
    const elapsed = app.clock.now() - start
    expect(retryAfter).toBe(Math.ceil((60 * 60_000 - elapsed) / 1000))
    // Still refused much later in the hour, and for enrollment too.
    app.clock.advance(30 * 60_000)
    current = await challenge(app, user.email)
    await expectRateLimited(await sendLoginSms(current.mfa_token))
    const { auth } = await signIn(app, users.agent.user)
    await expectRateLimited(await startSms(auth, '+15005550012'))
    // Once the first message is an hour old, one more can go.
    app.clock.advance(start + 60 * 60_000 - app.clock.now())
    current = await challenge(app, user.email)
    expect((await sendLoginSms(current.mfa_token)).status).toBe(202)
    app.clock.advance(30_000)
    expect((await verify(app, current.mfa_token, lastSmsCode(app, PHONE), 'sms')).status).toBe(200)
  })

  test('retry_after is when a retry can succeed: right after the 10th message of the hour it is the hourly wait, not 30 s', async () => {
    const { user } = await smsUser()
    const start = app.clock.now() - 30_000
    let current = await challenge(app, user.email)
    for (let i = 2; i <= 10; i++) {
      if (i > 2) app.clock.advance(30_000)
      if (app.clock.now() - start >= 4 * 60_000) current = await challenge(app, user.email)
      expect((await sendLoginSms(current.mfa_token)).status).toBe(202)
    }
    // The 10th message went out just now: both limits apply; only the end of the hour lets one through.
    const retryAfter = await expectRateLimited(await sendLoginSms(current.mfa_token))
    const hourly = Math.ceil((start + 60 * 60_000 - app.clock.now()) / 1000)
    expect(retryAfter).toBe(hourly)
    // Proof that the shorter wait would be wrong: 30 s later it is still refused.
    app.clock.advance(30_000)
    current = await challenge(app, user.email)
    await expectRateLimited(await sendLoginSms(current.mfa_token))
  })
})
