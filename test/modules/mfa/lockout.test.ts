// Limits around the second factor: wrong codes across sign-ins pause the MFA step (429), a password
// change ends sign-ins waiting for their code, codes with spaces count, an expired SMS enrollment is
// no longer pending.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import { challenge, enrollTotp, expectError, freshOrg, send, status, totpAt, verify, wrongTotp } from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

async function totpUser() {
  const seeded = await freshOrg(app, 'lock')
  const { secret } = await enrollTotp(app, seeded.users.agent.auth)
  app.clock.advance(30_000)
  return { user: seeded.users.agent.user, auth: seeded.users.agent.auth, secret, code: () => totpAt(secret, app.clock.now()) }
}

describe('wrong codes across sign-ins', () => {
  test('10 wrong codes within 15 minutes pause the MFA step with 429, even for the right code, until the window passes', async () => {
    const { user, secret, code } = await totpUser()
    // Two challenges used up with 5 wrong codes each: 10 failures.
    for (let round = 0; round < 2; round++) {
      const { mfa_token } = await challenge(app, user.email)
      for (let i = 0; i < 5; i++)
        await expectError(await verify(app, mfa_token, wrongTotp(secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    }
    const third = await challenge(app, user.email)
    const refused = await verify(app, third.mfa_token, code(), 'totp')
    expect(refused.status).toBe(429)
    const body = await json<{ code: number; retry_after: number; error: string }>(refused)
    expect(body).toMatchObject({ code: 429, error: 'RATE_LIMITED' })
    expect(body.retry_after).toBeGreaterThan(0)
    expect(body.retry_after).toBeLessThanOrEqual(15 * 60)
    expect(refused.headers.get('retry-after')).toBe(String(body.retry_after))

    // After retry_after the window has moved past the failures: a new sign-in completes.
    app.clock.advance(body.retry_after * 1000)
    const fourth = await challenge(app, user.email)
    expect((await verify(app, fourth.mfa_token, code(), 'totp')).status).toBe(200)
  })

  test('9 wrong codes do not pause it; the pause is per user', async () => {
    const alice = await totpUser()
    const bob = await totpUser()
    const first = await challenge(app, alice.user.email)
    for (let i = 0; i < 5; i++)
      await expectError(await verify(app, first.mfa_token, wrongTotp(alice.secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    const second = await challenge(app, alice.user.email)
    for (let i = 0; i < 4; i++)
      await expectError(await verify(app, second.mfa_token, wrongTotp(alice.secret, app.clock.now()), 'totp'), 401, 'INVALID_MFA_CODE')
    expect((await verify(app, second.mfa_token, alice.code(), 'totp')).status).toBe(200)
    const other = await challenge(app, bob.user.email)
    expect((await verify(app, other.mfa_token, bob.code(), 'totp')).status).toBe(200)
  })
})

test('a password change ends the sign-ins waiting for their second factor', async () => {
  const { user, auth, code } = await totpUser()
  const pending = await challenge(app, user.email)
  const changed = await send(
    app,
    'POST',
    '/api/v1/auth/password',
    { current_password: PASSWORD, new_password: 'a brand new passphrase' },
    auth,
  )
  expect(changed.status).toBe(204)
  await expectError(await verify(app, pending.mfa_token, code(), 'totp'), 401, 'TOKEN_INVALID')
})

test('a TOTP code typed with spaces is accepted at enrollment and at sign-in', async () => {
  const seeded = await freshOrg(app, 'space')
  const auth = seeded.users.viewer.auth
  const start = await json<{ secret: string }>(await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth))
  const spaced = (c: string) => ` ${c.slice(0, 3)} ${c.slice(3)} `
  expect(
    (await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: spaced(totpAt(start.secret, app.clock.now())) }, auth)).status,
  ).toBe(200)
  app.clock.advance(30_000)
  const { mfa_token } = await challenge(app, seeded.users.viewer.user.email)
  expect((await verify(app, mfa_token, spaced(totpAt(start.secret, app.clock.now())), 'totp')).status).toBe(200)
})

test('an SMS enrollment whose code expired is no longer pending', async () => {
  const seeded = await freshOrg(app, 'pend')
  const auth = seeded.users.viewer.auth
  expect((await send(app, 'POST', '/api/v1/auth/mfa/sms', { phone: '+15005550006' }, auth)).status).toBe(202)
  expect((await status(app, auth)).sms.pending).toBe(true)
  app.clock.advance(5 * 60 * 1000)
  expect((await status(app, auth)).sms.pending).toBe(false)
})
