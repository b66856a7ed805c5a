// Every password check made with a token in hand (password change, MFA removal, MFA step-up) draws on
// the login attempt limit — 10 a minute per address and per e-mail address — so a stolen token buys no
// more guesses than the login form (issue 12, item 14). 429 in the spec's shape, with Retry-After.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { enrollSmsViaLog, lastSmsCode } from '../mfa/helpers.ts'

const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true' })
afterAll(() => app.close())
// In-process requests share one (unknown) address: each test starts with its minute budget spent long ago.
beforeEach(() => app.clock.advance(5 * 60_000))

let orgs = 0
const fresh = () => seedOrganization(app, `attempts${++orgs}`)
const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

async function expect429(response: Response) {
  expect(response.status).toBe(429)
  const body = await json<Record<string, unknown>>(response)
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'retry_after'])
  expect(body).toMatchObject({ code: 429, error: 'RATE_LIMITED' })
  expect(String(body.message)).toContain('login attempts per minute')
  expect(response.headers.get('retry-after')).toBe(String(body.retry_after))
  expect(body.retry_after as number).toBeGreaterThan(0)
}

describe('password change', () => {
  test('10 wrong current passwords -> 400 each; the 11th attempt, even the right one -> 429; a minute later it works', async () => {
    const { users } = await fresh()
    const change = (current_password: string) =>
      send('POST', '/api/v1/auth/password', users.agent.auth, { current_password, new_password: 'a brand new password' })
    for (let i = 0; i < 10; i++) expect((await change(`wrong guess ${i}`)).status).toBe(400)
    await expect429(await change(PASSWORD))
    // The same budget as the login form: signing in with this e-mail waits too.
    await expect429(await send('POST', '/api/v1/auth/login', {}, { email: users.agent.user.email, password: PASSWORD }))
    app.clock.advance(2 * 60_000)
    expect((await change(PASSWORD)).status).toBe(204)
  })
})

describe('MFA removal', () => {
  test('DELETE /api/v1/auth/mfa/sms: the 11th password guess in a minute -> 429, and SMS stays on', async () => {
    const { users } = await fresh()
    await enrollSmsViaLog(app, users.agent.auth, '+15005550301')
    for (let i = 0; i < 10; i++)
      expect((await send('DELETE', '/api/v1/auth/mfa/sms', users.agent.auth, { password: `wrong guess ${i}` })).status).toBe(400)
    await expect429(await send('DELETE', '/api/v1/auth/mfa/sms', users.agent.auth, { password: PASSWORD }))
    const status = await json<{ sms: { enabled: boolean } }>(await send('GET', '/api/v1/auth/mfa', users.agent.auth))
    expect(status.sms.enabled).toBe(true)
  })

  test('DELETE /api/v1/auth/mfa/totp counts the same way', async () => {
    const { users } = await fresh()
    for (let i = 0; i < 10; i++)
      await send('DELETE', '/api/v1/auth/mfa/totp', users.agent.auth, { password: `wrong guess ${i}`, code: '123456' })
    await expect429(await send('DELETE', '/api/v1/auth/mfa/totp', users.agent.auth, { password: PASSWORD, code: '123456' }))
  })
})

describe('MFA step-up', () => {
  test('password guesses in a factor change count too', async () => {
    const { users } = await fresh()
    await enrollSmsViaLog(app, users.agent.auth, '+15005550302')
    app.clock.advance(30_000)
    expect((await send('POST', '/api/v1/auth/mfa/sms', users.agent.auth, { phone: '+15005550303' })).status).toBe(202)
    const confirm = (password: string) =>
      send('POST', '/api/v1/auth/mfa/sms/confirm', users.agent.auth, {
        code: lastSmsCode(app, '+15005550303'),
        password,
        current_method: 'recovery',
        current_code: 'aaaa-bbbb-cccc-dddd',
      })
    for (let i = 0; i < 10; i++) expect((await confirm(`wrong guess ${i}`)).status).toBe(400)
    await expect429(await confirm(PASSWORD))
  })
})
