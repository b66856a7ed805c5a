// Organization `mfa_required`: users without MFA get tokens for the enrollment routes only (403 MFA_ENROLLMENT_REQUIRED elsewhere), enroll with them, then log in with MFA to get full tokens.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import {
  bearer,
  challenge,
  enrollTotp,
  expectError,
  freshOrg,
  jwtPayload,
  lastSmsCode,
  login,
  send,
  status,
  totpAt,
  verify,
  type TokenBody,
} from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

/**
 * A fresh organization with mfa_required turned on by its admin, who has MFA and so keeps the session
 * (turning it on ends the sessions of users without it: organizations/mfa-required-enforcement.test.ts).
 */
async function requiringOrg() {
  const seeded = await freshOrg(app)
  await enrollTotp(app, seeded.users.admin.auth)
  const response = await send(app, 'PATCH', '/api/v1/organization/security', { mfa_required: true }, seeded.users.admin.auth)
  expect(response.status).toBe(200)
  expect((await json(response)).mfa_required).toBe(true)
  return seeded
}

async function restrictedLogin(email: string): Promise<TokenBody> {
  const response = await login(app, email)
  expect(response.status).toBe(200)
  const body = await json<TokenBody>(response)
  expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'mfa_enrollment_required', 'refresh_token', 'token_type', 'user'])
  expect(body.mfa_enrollment_required).toBe(true)
  return body
}

const ordinaryRoutes: [string, string, unknown?][] = [
  ['GET', '/api/v1/tickets'],
  ['GET', '/api/v1/me'],
  ['GET', '/api/v1/auth/sessions'],
  ['GET', '/api/v1/organization/security'],
  ['PATCH', '/api/v1/organization/security', { mfa_required: false }],
  ['GET', '/api/v1/audit-logs'],
  ['POST', '/api/v1/api-keys', { name: 'bypass', expires_at: new Date(Date.UTC(2026, 5, 1)).toISOString() }],
  ['POST', '/api/v1/auth/password', { current_password: PASSWORD, new_password: 'a brand new password 123' }],
]

describe('a user without MFA in an organization that requires it', () => {
  test('login -> tokens flagged mfa_enrollment_required', async () => {
    const { users } = await requiringOrg()
    const body = await restrictedLogin(users.agent.user.email)
    const claims = jwtPayload(body.access_token)
    expect(claims.mfa_enrollment_required).toBe(true)
    expect(claims.amr).toEqual(['pwd'])
  })

  test('those tokens get 403 MFA_ENROLLMENT_REQUIRED on ordinary routes, whatever the role', async () => {
    const { users } = await requiringOrg()
    for (const role of ['agent', 'supervisor', 'super_admin'] as const) {
      const { access_token } = await restrictedLogin(users[role].user.email)
      for (const [method, path, body] of ordinaryRoutes) {
        const response = await send(app, method, path, body, bearer(access_token))
        await expectError(response, 403, 'MFA_ENROLLMENT_REQUIRED')
      }
    }
    // Nothing changed through them.
    const security = await send(app, 'GET', '/api/v1/organization/security', undefined, users.admin.auth)
    expect((await json(security)).mfa_required).toBe(true)
  })

  test('they reach the MFA status and TOTP enrollment; after enrolling, a fresh login asks for MFA and its tokens work everywhere', async () => {
    const { users } = await requiringOrg()
    const restricted = await restrictedLogin(users.agent.user.email)
    const auth = bearer(restricted.access_token)

    expect(await status(app, auth)).toEqual({
      totp: { enabled: false, pending: false },
      sms: { enabled: false, phone: null, pending: false },
      recovery_codes_remaining: 0,
    })
    const start = await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth)
    expect(start.status).toBe(200)
    const { secret } = await json<{ secret: string }>(start)
    const confirm = await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()) }, auth)
    expect(confirm.status).toBe(200)
    expect((await status(app, auth)).totp.enabled).toBe(true)

    // The session that was opened without MFA stays restricted.
    await expectError(await send(app, 'GET', '/api/v1/me', undefined, auth), 403, 'MFA_ENROLLMENT_REQUIRED')

    app.clock.advance(30_000)
    const { mfa_token, mfa_methods } = await challenge(app, users.agent.user.email)
    expect(mfa_methods).toEqual(['totp'])
    const verified = await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp')
    expect(verified.status).toBe(200)
    const full = await json<TokenBody>(verified)
    expect(full).not.toHaveProperty('mfa_enrollment_required')
    expect(jwtPayload(full.access_token)).not.toHaveProperty('mfa_enrollment_required')
    for (const path of ['/api/v1/tickets', '/api/v1/me', '/api/v1/auth/sessions', '/api/v1/auth/mfa']) {
      expect({ path, status: (await send(app, 'GET', path, undefined, bearer(full.access_token))).status }).toEqual({ path, status: 200 })
    }
  })

  test('they reach SMS enrollment too', async () => {
    const { users } = await requiringOrg()
    const auth = bearer((await restrictedLogin(users.viewer.user.email)).access_token)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms', { phone: '+15005550006' }, auth)).status).toBe(202)
    expect((await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: lastSmsCode(app, '+15005550006') }, auth)).status).toBe(200)
    expect((await challenge(app, users.viewer.user.email)).mfa_methods).toEqual(['sms'])
  })

  test('they can log out, which ends the restricted session', async () => {
    const { users } = await requiringOrg()
    const restricted = await restrictedLogin(users.agent.user.email)
    const response = await send(app, 'POST', '/api/v1/auth/logout', undefined, bearer(restricted.access_token))
    expect(response.status).toBe(204)
    await expectError(await send(app, 'GET', '/api/v1/auth/mfa', undefined, bearer(restricted.access_token)), 401, 'TOKEN_INVALID')
    await expectError(await send(app, 'POST', '/api/v1/auth/refresh', { refresh_token: restricted.refresh_token }), 401, 'TOKEN_INVALID')
  })

  test('refreshing restricted tokens gives restricted tokens', async () => {
    const { users } = await requiringOrg()
    const restricted = await restrictedLogin(users.agent.user.email)
    const refreshed = await send(app, 'POST', '/api/v1/auth/refresh', { refresh_token: restricted.refresh_token })
    expect(refreshed.status).toBe(200)
    const { access_token } = await json<TokenBody>(refreshed)
    expect(jwtPayload(access_token).mfa_enrollment_required).toBe(true)
    await expectError(await send(app, 'GET', '/api/v1/tickets', undefined, bearer(access_token)), 403, 'MFA_ENROLLMENT_REQUIRED')
    expect((await send(app, 'GET', '/api/v1/auth/mfa', undefined, bearer(access_token))).status).toBe(200)
  })
})

describe('users with MFA, and turning the requirement off', () => {
  test('a user who has MFA gets the usual challenge and full tokens', async () => {
    const seeded = await freshOrg(app)
    const { secret } = await enrollTotp(app, seeded.users.agent.auth)
    expect((await send(app, 'PATCH', '/api/v1/organization/security', { mfa_required: true }, seeded.users.super_admin.auth)).status).toBe(
      200,
    )
    app.clock.advance(30_000)
    const { mfa_token } = await challenge(app, seeded.users.agent.user.email)
    const body = await json<TokenBody>(await verify(app, mfa_token, totpAt(secret, app.clock.now()), 'totp'))
    expect(body).not.toHaveProperty('mfa_enrollment_required')
    expect((await send(app, 'GET', '/api/v1/tickets', undefined, bearer(body.access_token))).status).toBe(200)
  })

  test('with mfa_required off (the default, or turned off again) a user without MFA gets full tokens', async () => {
    const { users } = await requiringOrg()
    await restrictedLogin(users.agent.user.email)
    const off = await send(app, 'PATCH', '/api/v1/organization/security', { mfa_required: false }, users.admin.auth)
    expect(off.status).toBe(200)
    const body = await json<TokenBody>(await login(app, users.agent.user.email))
    expect(body).not.toHaveProperty('mfa_enrollment_required')
    expect((await send(app, 'GET', '/api/v1/tickets', undefined, bearer(body.access_token))).status).toBe(200)
  })

  test('the requirement of one organization does not touch another', async () => {
    await requiringOrg()
    const other = await freshOrg(app)
    const body = await json<TokenBody>(await login(app, other.users.agent.user.email))
    expect(body).not.toHaveProperty('mfa_enrollment_required')
    expect((await send(app, 'GET', '/api/v1/me', undefined, bearer(body.access_token))).status).toBe(200)
  })
})
