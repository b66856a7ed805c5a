// Personal access tokens cannot manage MFA: every /api/v1/auth/mfa management route answers 403 INSUFFICIENT_PERMISSIONS to a PAT, through either header.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import { enrollTotp, expectError, freshOrg, loggedSms, send, status, totpAt } from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())

async function personalAccessToken(auth: Record<string, string>): Promise<string> {
  const expiresAt = new Date(app.clock.now() + 30 * 24 * 3600_000).toISOString()
  const response = await send(app, 'POST', '/api/v1/api-keys', { name: 'ci', expires_at: expiresAt }, auth)
  expect(response.status).toBe(201)
  const { token } = await json<{ token: string }>(response)
  expect(token).toStartWith('pat_live_')
  return token
}

const routes = (code: string): [string, string, unknown?][] => [
  ['GET', '/api/v1/auth/mfa'],
  ['POST', '/api/v1/auth/mfa/totp'],
  ['POST', '/api/v1/auth/mfa/totp/confirm', { code }],
  ['DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code }],
  ['POST', '/api/v1/auth/mfa/sms', { phone: '+15005550006' }],
  ['POST', '/api/v1/auth/mfa/sms/confirm', { code }],
  ['DELETE', '/api/v1/auth/mfa/sms', { password: PASSWORD }],
]

describe('a personal access token', () => {
  test('works for ordinary calls, but every MFA management route answers 403 INSUFFICIENT_PERMISSIONS (both headers)', async () => {
    const { users } = await freshOrg(app)
    const token = await personalAccessToken(users.agent.auth)
    const headers: Record<string, string>[] = [{ 'x-api-key': token }, { authorization: `Bearer ${token}` }]
    for (const header of headers) {
      // The token itself is good.
      const me = await send(app, 'GET', '/api/v1/me', undefined, header)
      expect(me.status).toBe(200)
      expect((await json(me)).id).toBe(users.agent.user.id)
      for (const [method, path, body] of routes('123456')) {
        const response = await send(app, method, path, body, header)
        const error = await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
        expect({ method, path, code: error.code }).toEqual({ method, path, code: 'INSUFFICIENT_PERMISSIONS' })
      }
    }
    // Nothing happened: no enrollment started, no text sent.
    expect(await status(app, users.agent.auth)).toEqual({
      totp: { enabled: false, pending: false },
      sms: { enabled: false, phone: null, pending: false },
      recovery_codes_remaining: 0,
    })
    expect(loggedSms(app).filter((m) => m.to === '+15005550006')).toHaveLength(0)
  })

  test('cannot turn off TOTP even with the right password and a current code', async () => {
    const { users } = await freshOrg(app)
    const { secret } = await enrollTotp(app, users.admin.auth)
    const token = await personalAccessToken(users.admin.auth)
    app.clock.advance(30_000)
    const code = totpAt(secret, app.clock.now())
    await expectError(
      await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code }, { 'x-api-key': token }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect((await status(app, users.admin.auth)).totp.enabled).toBe(true)
    // The code was not spent by the refused call.
    expect((await send(app, 'DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code }, users.admin.auth)).status).toBe(204)
  })
})
