// TOTP: our RFC 6238 generator against the RFC's vectors, enrollment (URI, confirm, 409, status), removal, and the replay guard.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import {
  base32Decode,
  challenge,
  enrollTotp,
  expectError,
  freshOrg,
  hotp,
  login,
  send,
  status,
  stepOf,
  totpAt,
  totpForStep,
  verify,
  wrongTotp,
  type EnrolledBody,
  type TokenBody,
} from './helpers.ts'

describe('our RFC 6238 generator', () => {
  // RFC 6238 Appendix B, SHA-1 rows: the seed is the ASCII string "12345678901234567890", 8 digits.
  const seed = Buffer.from('12345678901234567890', 'ascii')
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ]

  test.each(vectors)('T = %d s -> %s', (seconds, expected) => {
    expect(hotp(seed, stepOf(seconds * 1000), 8)).toBe(expected)
  })

  test('base32 decoding follows RFC 4648 (test vectors, and the RFC 6238 seed)', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['MY======', 'f'],
      ['MZXQ====', 'fo'],
      ['MZXW6===', 'foo'],
      ['MZXW6YQ=', 'foob'],
      ['MZXW6YTB', 'fooba'],
      ['MZXW6YTBOI======', 'foobar'],
    ]
    for (const [encoded, plain] of cases) expect(base32Decode(encoded).toString('ascii')).toBe(plain)
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').equals(seed)).toBe(true)
    // The RFC 6238 vector through the base32 path, 6 digits (the low 6 digits of the 8-digit value).
    expect(totpAt('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082')
  })
})

const app = await makeTestApp()
afterAll(() => app.close())

describe('enrollment', () => {
  test('start returns a base32 secret and an otpauth URI for it (issuer, SHA1, 6 digits, 30 s)', async () => {
    const { users } = await freshOrg(app)
    const response = await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await json<{ secret: string; otpauth_uri: string }>(response)
    expect(Object.keys(body).sort()).toEqual(['otpauth_uri', 'secret'])
    expect(body.secret).toMatch(/^[A-Z2-7]+=*$/)
    // At least 160 bits, as RFC 4226 recommends.
    expect(base32Decode(body.secret).length).toBeGreaterThanOrEqual(20)

    const uri = new URL(body.otpauth_uri)
    expect(uri.protocol).toBe('otpauth:')
    expect(body.otpauth_uri.startsWith('otpauth://totp/')).toBe(true)
    const label = decodeURIComponent(body.otpauth_uri.slice('otpauth://totp/'.length).split('?')[0]!)
    expect(label).toBe(`Switchboard:${users.agent.user.email}`)
    const params = uri.searchParams
    expect(params.get('secret')).toBe(body.secret)
    expect(params.get('issuer')).toBe('Switchboard')
    expect(params.get('algorithm')).toBe('SHA1')
    expect(params.get('digits')).toBe('6')
    expect(params.get('period')).toBe('30')

    expect(await status(app, users.agent.auth)).toEqual({
      totp: { enabled: false, pending: true },
      sms: { enabled: false, phone: null, pending: false },
      recovery_codes_remaining: 0,
    })
  })

  test('a wrong code does not turn it on; the right code does and returns 10 distinct recovery codes', async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))

    await expectError(
      await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: wrongTotp(secret, app.clock.now()) }, auth),
      401,
      'INVALID_MFA_CODE',
    )
    expect((await status(app, auth)).totp).toEqual({ enabled: false, pending: true })
    // Not enabled yet: login still hands out tokens.
    expect((await json<TokenBody>(await login(app, users.agent.user.email))).access_token).toBeString()

    const response = await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, auth)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await json<EnrolledBody>(response)
    expect(Object.keys(body).sort()).toEqual(['enabled', 'method', 'recovery_codes'])
    expect(body.method).toBe('totp')
    expect(body.enabled).toBe(true)
    expect(body.recovery_codes).toHaveLength(10)
    expect(new Set(body.recovery_codes).size).toBe(10)
    for (const code of body.recovery_codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/)

    expect(await status(app, auth)).toEqual({
      totp: { enabled: true, pending: false },
      sms: { enabled: false, phone: null, pending: false },
      recovery_codes_remaining: 10,
    })
    const challenged = await challenge(app, users.agent.user.email)
    expect(challenged.mfa_methods).toEqual(['totp'])
  })

  test('a code of the previous and the next step is accepted at confirm (±1 window), two steps away is not', async () => {
    for (const offset of [-1, 1]) {
      const { users } = await freshOrg(app)
      const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
      const step = stepOf(app.clock.now())
      for (const far of [-2, 2]) {
        const code = totpForStep(secret, step + far)
        // Skip the (one in a million) case where the far code happens to equal an accepted one.
        if ([-1, 0, 1].some((d) => totpForStep(secret, step + d) === code)) continue
        await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code }, users.agent.auth), 401, 'INVALID_MFA_CODE')
      }
      const response = await send(
        app,
        'POST',
        '/api/v1/auth/mfa/totp/confirm',
        { code: totpForStep(secret, step + offset) },
        users.agent.auth,
      )
      expect(response.status).toBe(200)
    }
  })

  test('confirm without a started enrollment -> 409; malformed codes are refused', async () => {
    const { users } = await freshOrg(app)
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: '123456' }, users.agent.auth), 409, 'CONFLICT')
    const { secret } = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
    const right = totpAt(secret, app.clock.now())
    for (const code of [`${right}0`, right.slice(1), 'abcdef']) {
      await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code }, users.agent.auth), 401, 'INVALID_MFA_CODE')
    }
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', {}, users.agent.auth), 400, 'VALIDATION_FAILED', ['code'])
    expect((await status(app, users.agent.auth)).totp.enabled).toBe(false)
  })

  test('starting again restarts with a new secret; the old one no longer confirms', async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    const first = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
    const second = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
    expect(second.secret).not.toBe(first.secret)
    const oldCode = totpAt(first.secret, app.clock.now())
    if (![-1, 0, 1].some((d) => totpForStep(second.secret, stepOf(app.clock.now()) + d) === oldCode)) {
      await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: oldCode }, auth), 401, 'INVALID_MFA_CODE')
    }
    expect((await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(second.secret, app.clock.now()) }, auth)).status).toBe(
      200,
    )
  })

  test('starting while TOTP is on -> 409 CONFLICT, and the authenticator keeps working', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth), 409, 'CONFLICT')
    expect((await status(app, users.agent.auth)).totp).toEqual({ enabled: true, pending: false })
    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    expect((await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp')).status).toBe(200)
  })

  test('unauthenticated calls get 401', async () => {
    await expectError(await send(app, 'GET', '/api/v1/auth/mfa'), 401, 'UNAUTHENTICATED')
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp'), 401, 'UNAUTHENTICATED')
    await expectError(await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: '123456' }), 401, 'UNAUTHENTICATED')
    await expectError(await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code: '123456' }), 401, 'UNAUTHENTICATED')
  })
})

describe('removal', () => {
  test('needs the password (400 naming it) and a current code (401); with both -> 204 and login asks no more', async () => {
    const { users } = await freshOrg(app)
    const auth = users.agent.auth
    const { secret } = await enrollTotp(app, auth)
    app.clock.advance(30_000)
    const now = () => app.clock.now()
    const remove = (body: unknown) => send(app, 'DELETE', '/api/v1/auth/mfa/totp', body, auth)

    await expectError(await remove({ password: 'not my password', code: totpAt(secret, now()) }), 400, 'VALIDATION_FAILED', ['password'])
    await expectError(await remove({ password: PASSWORD, code: wrongTotp(secret, now()) }), 401, 'INVALID_MFA_CODE')
    await expectError(await remove({ password: PASSWORD }), 400, 'VALIDATION_FAILED', ['code'])
    await expectError(await remove({ code: totpAt(secret, now()) }), 400, 'VALIDATION_FAILED', ['password'])
    expect((await status(app, auth)).totp.enabled).toBe(true)
    await challenge(app, users.agent.user.email)

    const response = await remove({ password: PASSWORD, code: totpAt(secret, now()) })
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    expect(await status(app, auth)).toEqual({
      totp: { enabled: false, pending: false },
      sms: { enabled: false, phone: null, pending: false },
      recovery_codes_remaining: 0,
    })

    const after = await login(app, users.agent.user.email)
    expect(after.status).toBe(200)
    const body = await json<TokenBody & { mfa_required?: boolean }>(after)
    expect(body.mfa_required).toBeUndefined()
    expect(body.access_token).toBeString()
    // Off now: removing again is a conflict, and a new enrollment can start.
    await expectError(await remove({ password: PASSWORD, code: totpAt(secret, now()) }), 409, 'CONFLICT')
    expect((await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth)).status).toBe(200)
  })

  test('the code that completed the last login cannot be used again to remove TOTP', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    app.clock.advance(30_000)
    const code = totpAt(secret, app.clock.now())
    const { mfa_token } = await challenge(app, users.agent.user.email)
    expect((await verify(app, mfa_token, code, 'totp')).status).toBe(200)
    await expectError(
      await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code }, users.agent.auth),
      401,
      'INVALID_MFA_CODE',
    )
    expect((await status(app, users.agent.auth)).totp.enabled).toBe(true)
  })
})

describe('replay', () => {
  test('the code used at confirm is refused at a login in the same step', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    await expectError(await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    // Later in the same 30 s window it is still the same code, still refused.
    app.clock.advance(20_000)
    expect(stepOf(app.clock.now())).toBe(stepOf(app.clock.now() - 20_000))
    await expectError(await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    // The next step's code is accepted.
    app.clock.advance(10_000)
    expect((await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp')).status).toBe(200)
  })

  test('a code accepted at verify is refused on a fresh login, in its step and the next; the previous step too', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    app.clock.advance(30_000)
    const step = stepOf(app.clock.now())
    const used = totpForStep(secret, step)
    const first = await challenge(app, users.agent.user.email)
    expect((await verify(app, first.mfa_token, used, 'totp')).status).toBe(200)

    const second = await challenge(app, users.agent.user.email)
    await expectError(await verify(app, second.mfa_token, used, 'totp'), 401, 'INVALID_MFA_CODE')
    // One step older than the last accepted one: inside the ±1 window, but a replay.
    await expectError(await verify(app, second.mfa_token, totpForStep(secret, step - 1), 'totp'), 401, 'INVALID_MFA_CODE')
    // In the next step the used code is the "previous step" one: still refused.
    app.clock.advance(30_000)
    await expectError(await verify(app, second.mfa_token, used, 'totp'), 401, 'INVALID_MFA_CODE')
    // The code of the new step is accepted.
    expect((await verify(app, second.mfa_token, totpForStep(secret, step + 1), 'totp')).status).toBe(200)
  })

  test("a code of the next step, accepted early, makes the current step's code a replay", async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    app.clock.advance(30_000)
    const step = stepOf(app.clock.now())
    const first = await challenge(app, users.agent.user.email)
    expect((await verify(app, first.mfa_token, totpForStep(secret, step + 1), 'totp')).status).toBe(200)
    const second = await challenge(app, users.agent.user.email)
    await expectError(await verify(app, second.mfa_token, totpForStep(secret, step), 'totp'), 401, 'INVALID_MFA_CODE')
    app.clock.advance(30_000)
    await expectError(await verify(app, second.mfa_token, totpForStep(secret, step + 1), 'totp'), 401, 'INVALID_MFA_CODE')
    app.clock.advance(30_000)
    expect((await verify(app, second.mfa_token, totpForStep(secret, step + 2), 'totp')).status).toBe(200)
  })

  test('a previous-step code newer than the last accepted one is accepted (the refusals above are replays, not the window)', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    const enrolledStep = stepOf(app.clock.now())
    app.clock.advance(90_000)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    // Two steps old is outside the window even though it is newer than the last accepted step.
    const twoOld = totpForStep(secret, enrolledStep + 1)
    if (![-1, 0, 1].some((d) => totpForStep(secret, enrolledStep + 3 + d) === twoOld)) {
      await expectError(await verify(app, mfa_token, twoOld, 'totp'), 401, 'INVALID_MFA_CODE')
    }
    expect((await verify(app, mfa_token, totpForStep(secret, enrolledStep + 2), 'totp')).status).toBe(200)
  })

  test('two logins racing with the same code: exactly one succeeds', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.agent.auth)
    app.clock.advance(30_000)
    const code = totpAt(secret, app.clock.now())
    const [a, b] = await Promise.all([challenge(app, users.agent.user.email), challenge(app, users.agent.user.email)])
    const responses = await Promise.all([verify(app, a.mfa_token, code, 'totp'), verify(app, b.mfa_token, code, 'totp')])
    expect(responses.map((r) => r.status).sort()).toEqual([200, 401])
  })

  test('the replay guard is per user: two users with codes of the same step both get in', async () => {
    const { users } = await freshOrg(app)
    const one = await enrollTotp(app, users.agent.auth)
    const two = await enrollTotp(app, users.viewer.auth)
    app.clock.advance(30_000)
    const a = await challenge(app, users.agent.user.email)
    const b = await challenge(app, users.viewer.user.email)
    expect((await verify(app, a.mfa_token, totpAt(one.secret, app.clock.now()), 'totp')).status).toBe(200)
    expect((await verify(app, b.mfa_token, totpAt(two.secret, app.clock.now()), 'totp')).status).toBe(200)
  })
})
