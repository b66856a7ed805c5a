// The MFA login challenge: the mfa_required response and its methods, verify -> tokens (amr), and the mfa_token's single use, expiry, unknown tokens, offered methods and attempt limit.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import {
  bearer,
  challenge,
  enrollSmsViaLog,
  enrollTotp,
  recoveryStepUp,
  expectError,
  freshOrg,
  jwtPayload,
  lastSmsCode,
  login,
  send,
  totpAt,
  verify,
  wrongTotp,
  type TokenBody,
} from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

/** A user with TOTP on, the clock moved to the next step so the enrollment code is not the current one. */
async function totpUser() {
  const seeded = await freshOrg(app)
  const { secret, recoveryCodes } = await enrollTotp(app, seeded.users.agent.auth)
  app.clock.advance(30_000)
  return {
    ...seeded,
    user: seeded.users.agent.user,
    auth: seeded.users.agent.auth,
    secret,
    recoveryCodes,
    code: () => totpAt(secret, app.clock.now()),
  }
}

describe('the login response of a user with MFA', () => {
  test('mfa_required, an mfa_ token and the methods; no tokens of any kind, never cached', async () => {
    const { user } = await totpUser()
    const sessionsOf = async () =>
      Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ?', [user.id]))!.n)
    const sessionsBefore = await sessionsOf()
    const response = await login(app, user.email)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    // The password step opens no session: that waits for the second factor.
    expect(await sessionsOf()).toBe(sessionsBefore)
    const body = await json<Record<string, unknown>>(response)
    expect(Object.keys(body).sort()).toEqual(['mfa_methods', 'mfa_required', 'mfa_token'])
    expect(body.mfa_required).toBe(true)
    expect(body.mfa_token).toMatch(/^mfa_[\w-]{43,}$/)
    expect(body.mfa_methods).toEqual(['totp'])
    expect(body).not.toHaveProperty('access_token')
    expect(body).not.toHaveProperty('refresh_token')
    // Every login gets its own token.
    const again = await challenge(app, user.email)
    expect(again.mfa_token).not.toBe(body.mfa_token)
  })

  test('an mfa_token is not an access token', async () => {
    const { user } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    const response = await send(app, 'GET', '/api/v1/me', undefined, bearer(mfa_token))
    expect(response.status).toBe(401)
  })

  test('a wrong password still answers INVALID_CREDENTIALS, not a challenge', async () => {
    const { user } = await totpUser()
    await expectError(await login(app, user.email, 'wrong password'), 401, 'INVALID_CREDENTIALS')
  })

  test('methods list only what the user has: sms only; both in the order totp, sms (whatever the enrollment order)', async () => {
    const { users } = await freshOrg(app)
    const codes = await enrollSmsViaLog(app, users.agent.auth, '+15005550006')
    expect((await challenge(app, users.agent.user.email)).mfa_methods).toEqual(['sms'])
    // Adding a second factor needs the step-up: here a recovery code of the first.
    await enrollTotp(app, users.agent.auth, recoveryStepUp(codes[0]!))
    expect((await challenge(app, users.agent.user.email)).mfa_methods).toEqual(['totp', 'sms'])
    // A pending (unconfirmed) enrollment is not offered.
    await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, users.viewer.auth)
    const viewer = await json<TokenBody>(await login(app, users.viewer.user.email))
    expect(viewer.access_token).toBeString()
  })
})

describe('verify', () => {
  test('totp: the login response; the access token works and its amr is pwd, otp, mfa', async () => {
    const { user, code } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    const response = await verify(app, mfa_token, code(), 'totp')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await json<TokenBody>(response)
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user'])
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, user: { id: user.id, email: user.email } })
    expect(body.refresh_token).toMatch(/^rt_/)
    const payload = jwtPayload(body.access_token)
    expect(payload.amr).toEqual(['pwd', 'otp', 'mfa'])
    expect(payload.sub).toBe(user.id)
    expect(payload).not.toHaveProperty('mfa_enrollment_required')

    const me = await send(app, 'GET', '/api/v1/me', undefined, bearer(body.access_token))
    expect(me.status).toBe(200)
    expect((await json(me)).id).toBe(user.id)
    // The refresh token works too, and the refreshed access token keeps the amr.
    const refreshed = await send(app, 'POST', '/api/v1/auth/refresh', { refresh_token: body.refresh_token })
    expect(refreshed.status).toBe(200)
    expect(jwtPayload((await json<TokenBody>(refreshed)).access_token).amr).toEqual(['pwd', 'otp', 'mfa'])
  })

  test('sms: amr is pwd, sms, mfa', async () => {
    const { users } = await freshOrg(app)
    await enrollSmsViaLog(app, users.agent.auth, '+15005550007')
    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, users.agent.user.email)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/send', { mfa_token })).status).toBe(202)
    const response = await verify(app, mfa_token, lastSmsCode(app, '+15005550007'), 'sms')
    expect(response.status).toBe(200)
    const body = await json<TokenBody>(response)
    expect(jwtPayload(body.access_token).amr).toEqual(['pwd', 'sms', 'mfa'])
    expect((await send(app, 'GET', '/api/v1/me', undefined, bearer(body.access_token))).status).toBe(200)
  })

  test('recovery: amr is pwd, mfa; accepted though not listed', async () => {
    const { user, recoveryCodes } = await totpUser()
    const { mfa_token, mfa_methods } = await challenge(app, user.email)
    expect(mfa_methods).not.toContain('recovery')
    const response = await verify(app, mfa_token, recoveryCodes[0]!, 'recovery')
    expect(response.status).toBe(200)
    const body = await json<TokenBody>(response)
    expect(jwtPayload(body.access_token).amr).toEqual(['pwd', 'mfa'])
    expect((await send(app, 'GET', '/api/v1/me', undefined, bearer(body.access_token))).status).toBe(200)
  })

  test('the mfa_token is single use: a second verify -> 401 TOKEN_INVALID', async () => {
    const { user, code, secret } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    expect((await verify(app, mfa_token, code(), 'totp')).status).toBe(200)
    app.clock.advance(30_000)
    await expectError(await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp'), 401, 'TOKEN_INVALID')
    // Whatever the method.
    await expectError(await verify(app, mfa_token, 'aaaa-bbbb-cccc-dddd', 'recovery'), 401, 'TOKEN_INVALID')
  })

  test('the mfa_token lasts 5 minutes: at 4:59 it works, at 5:00 -> 401 TOKEN_INVALID', async () => {
    const { user, secret } = await totpUser()
    const early = await challenge(app, user.email)
    app.clock.advance(5 * 60_000 - 1000)
    expect((await verify(app, early.mfa_token, totpAt(secret, app.clock.now()), 'totp')).status).toBe(200)

    app.clock.advance(30_000)
    const late = await challenge(app, user.email)
    app.clock.advance(5 * 60_000)
    await expectError(await verify(app, late.mfa_token, totpAt(secret, app.clock.now()), 'totp'), 401, 'TOKEN_INVALID')
  })

  test('unknown, garbage and forged tokens -> 401 TOKEN_INVALID', async () => {
    const { user, code, recoveryCodes } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    const forged = `mfa_${'A'.repeat(43)}`
    const altered = mfa_token.slice(0, -1) + (mfa_token.endsWith('A') ? 'B' : 'A')
    for (const token of [forged, altered, 'mfa_', 'garbage', mfa_token.slice(4), ' ']) {
      await expectError(await verify(app, token, code(), 'totp'), 401, 'TOKEN_INVALID')
      await expectError(await verify(app, token, recoveryCodes[0]!, 'recovery'), 401, 'TOKEN_INVALID')
    }
    // None of that touched the real challenge.
    expect((await verify(app, mfa_token, code(), 'totp')).status).toBe(200)
  })

  test('a method not offered -> 400 naming method, and does not spend the token; unknown methods too', async () => {
    const { user, code } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    for (let i = 0; i < 6; i++) await expectError(await verify(app, mfa_token, '123456', 'sms'), 400, 'VALIDATION_FAILED', ['method'])
    await expectError(await verify(app, mfa_token, code(), 'email'), 400, 'VALIDATION_FAILED', ['method'])
    expect((await verify(app, mfa_token, code(), 'totp')).status).toBe(200)
  })

  test('an SMS user cannot verify with totp', async () => {
    const { users } = await freshOrg(app)
    await enrollSmsViaLog(app, users.agent.auth, '+15005550008')
    const { mfa_token } = await challenge(app, users.agent.user.email)
    await expectError(await verify(app, mfa_token, '123456', 'totp'), 400, 'VALIDATION_FAILED', ['method'])
  })

  test('missing fields -> 400 naming each', async () => {
    const response = await send(app, 'POST', '/api/v1/auth/mfa/verify', { code: '123456' })
    const body = await expectError(response, 400, 'VALIDATION_FAILED')
    expect(body.errors!.map((e) => e.field).sort()).toEqual(['method', 'mfa_token'])
  })

  test('5 wrong codes: each 401 INVALID_MFA_CODE, then even the right code -> 401 TOKEN_INVALID', async () => {
    const { user, code, secret } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    for (let i = 1; i <= 5; i++) {
      await expectError(await verify(app, mfa_token, wrongTotp(secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    }
    await expectError(await verify(app, mfa_token, code(), 'totp'), 401, 'TOKEN_INVALID')
    // The code was not spent by that refusal: a new login takes it.
    const fresh = await challenge(app, user.email)
    expect((await verify(app, fresh.mfa_token, code(), 'totp')).status).toBe(200)
  })

  test('4 wrong codes leave the token usable; wrong recovery codes count as attempts', async () => {
    const { user, code, secret, recoveryCodes } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    for (let i = 1; i <= 2; i++)
      await expectError(await verify(app, mfa_token, wrongTotp(secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    for (let i = 1; i <= 2; i++) await expectError(await verify(app, mfa_token, 'zzzz-zzzz-zzzz-zzzz', 'recovery'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, mfa_token, code(), 'totp')).status).toBe(200)

    const next = await challenge(app, user.email)
    for (let i = 1; i <= 5; i++)
      await expectError(await verify(app, next.mfa_token, 'zzzz-zzzz-zzzz-zzzz', 'recovery'), 401, 'INVALID_MFA_CODE')
    await expectError(await verify(app, next.mfa_token, recoveryCodes[0]!, 'recovery'), 401, 'TOKEN_INVALID')
  })

  test('each login has its own attempt count', async () => {
    const { user, code, secret } = await totpUser()
    const a = await challenge(app, user.email)
    const b = await challenge(app, user.email)
    for (let i = 1; i <= 5; i++)
      await expectError(await verify(app, a.mfa_token, wrongTotp(secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, b.mfa_token, code(), 'totp')).status).toBe(200)
  })

  test("a token of one user cannot be completed with another user's code", async () => {
    const alice = await totpUser()
    const bob = await totpUser()
    const { mfa_token } = await challenge(app, alice.user.email)
    await expectError(await verify(app, mfa_token, bob.code(), 'totp'), 401, 'INVALID_MFA_CODE')
    await expectError(await verify(app, mfa_token, bob.recoveryCodes[0]!, 'recovery'), 401, 'INVALID_MFA_CODE')
    const ok = await json<TokenBody>(await verify(app, mfa_token, alice.code(), 'totp'))
    expect(ok.user.id).toBe(alice.user.id)
  })

  test('a user disabled after the password step cannot complete the login', async () => {
    const { users, user, code } = await totpUser()
    const { mfa_token } = await challenge(app, user.email)
    const disabled = await send(app, 'DELETE', `/api/v1/users/${user.id}`, undefined, users.admin.auth)
    expect(disabled.status).toBeLessThan(300)
    await expectError(await verify(app, mfa_token, code(), 'totp'), 401, 'TOKEN_INVALID')
  })
})
