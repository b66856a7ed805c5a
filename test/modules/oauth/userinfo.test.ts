// GET|POST /userinfo (OpenID Connect Core §5.3, RFC 6750): an OAuth client's access token carrying
// openid, in the Authorization header or a POST body; the claims by scope, `sub` equal to the ID
// token's; 401 invalid_token and 403 insufficient_scope with WWW-Authenticate.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { json } from '../../helpers/app.ts'
import { basicHeader, claimsOf, clientOf, ISSUER, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme } = w
const agent = acme.users.agent.user
const dashboard = await w.register({ grant_types: ['authorization_code', 'refresh_token', 'client_credentials'] })
const config = await client.discovery(new URL(ISSUER), dashboard.id, undefined, client.ClientSecretBasic(dashboard.secret!), {
  [client.customFetch]: w.doFetch,
})

async function tokens(scope: string) {
  const { code } = await w.issueCode({ user: agent, client: dashboard, scope })
  return oauth.processAuthorizationCodeResponse(w.as, clientOf(dashboard), await w.exchange(dashboard, code))
}
const get = (headers: Record<string, string>, query = '') => app.request(`/userinfo${query}`, { headers })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function expectRefusal(response: Response, status: number, error: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect((await json(response)).error).toBe(error)
  return response.headers.get('www-authenticate')
}

describe('the claims', () => {
  test('openid-client fetches them with the ID token’s sub: profile gives name and updated_at (a number), email gives email and email_verified', async () => {
    const t = await tokens('openid profile email')
    const info = await client.fetchUserInfo(config, t.access_token, claimsOf(t.id_token!).sub as string)
    const row = (await app.context.db.raw.get<{ updated_at: number }>('SELECT updated_at FROM users WHERE id = ?', [agent.id]))!
    expect({ ...info } as Record<string, unknown>).toEqual({
      sub: agent.id,
      name: agent.name,
      updated_at: Math.floor(Number(row.updated_at) / 1000),
      email: agent.email,
      email_verified: false,
    })
  })

  test('by scope only: openid alone gives sub; openid email no name', async () => {
    expect(await json(await get(bearer((await tokens('openid')).access_token)))).toEqual({ sub: agent.id })
    expect(await json(await get(bearer((await tokens('openid email')).access_token)))).toEqual({
      sub: agent.id,
      email: agent.email,
      email_verified: false,
    })
  })

  test('GET and POST with the header, and POST with access_token in a form body, answer the same JSON, never cached', async () => {
    const { access_token } = await tokens('openid profile')
    const viaGet = await get(bearer(access_token))
    expect(viaGet.status).toBe(200)
    expect(viaGet.headers.get('content-type')).toStartWith('application/json')
    expect(viaGet.headers.get('cache-control')).toBe('no-store')
    const viaPost = await app.request('/userinfo', { method: 'POST', headers: bearer(access_token) })
    const viaBody = await w.form('/userinfo', { access_token })
    const expected = await json(viaGet)
    expect(await json(viaPost)).toEqual(expected)
    expect(await json(viaBody)).toEqual(expected)
  })
})

describe('refusals', () => {
  test('no token: 401 with the bare Bearer challenge; a bad, forged or revoked one: 401 error="invalid_token"', async () => {
    expect(await expectRefusal(await get({}), 401, 'invalid_request')).toBe('Bearer realm="switchboard"')
    const t = await tokens('openid')
    const forged = `${t.access_token.slice(0, -4)}AAAA`
    for (const token of ['garbage', forged])
      expect(await expectRefusal(await get(bearer(token)), 401, 'invalid_token')).toStartWith(
        'Bearer realm="switchboard", error="invalid_token"',
      )
    const revoked = await w.form('/oauth2/revoke', { token: t.access_token }, basicHeader(dashboard.id, dashboard.secret!))
    expect(revoked.status).toBe(200)
    expect(await expectRefusal(await get(bearer(t.access_token)), 401, 'invalid_token')).toContain('error="invalid_token"')
  })

  test('an expired token: 401 invalid_token', async () => {
    const other = await w.register({ name: 'Expiring' })
    const { code } = await w.issueCode({ user: agent, client: other, scope: 'openid' })
    const body = await json(await w.exchange(other, code))
    app.clock.advance(3_600_000)
    try {
      expect(await expectRefusal(await get(bearer(body.access_token as string)), 401, 'invalid_token')).toContain('expired')
    } finally {
      app.clock.advance(-3_600_000)
    }
  })

  test('a token without openid, a first-party token, a client-credentials token: 403 insufficient_scope', async () => {
    const noOpenid = (await tokens('tickets:read')).access_token
    const cc = await json(await w.form('/oauth2/token', { grant_type: 'client_credentials' }, basicHeader(dashboard.id, dashboard.secret!)))
    for (const token of [noOpenid, acme.users.agent.accessToken, cc.access_token as string]) {
      const challenge = await expectRefusal(await get(bearer(token)), 403, 'insufficient_scope')
      expect(challenge).toContain('error="insufficient_scope"')
      expect(challenge).toContain('scope="openid"')
    }
  })

  test('the token in the URL, or both in the header and the body: 400 invalid_request', async () => {
    const { access_token } = await tokens('openid')
    await expectRefusal(await get({}, `?access_token=${access_token}`), 400, 'invalid_request')
    const both = await app.request('/userinfo', {
      method: 'POST',
      headers: { ...bearer(access_token), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token }).toString(),
    })
    await expectRefusal(both, 400, 'invalid_request')
    await expectRefusal(await get({ authorization: 'Basic abc' }), 400, 'invalid_request')
  })

  test("a user disabled since: 401; the organization's IP allowlist: 403", async () => {
    const { access_token } = await tokens('openid')
    await app.context.db.raw.run('UPDATE organizations SET allowed_ips = ? WHERE id = ?', ['["203.0.113.0/24"]', agent.organization_id])
    try {
      await expectRefusal(await get(bearer(access_token)), 403, 'access_denied')
    } finally {
      await app.context.db.raw.run("UPDATE organizations SET allowed_ips = '[]' WHERE id = ?", [agent.organization_id])
    }
    await app.context.db.raw.run("UPDATE users SET status = 'disabled' WHERE id = ?", [agent.id])
    try {
      await expectRefusal(await get(bearer(access_token)), 401, 'invalid_token')
    } finally {
      await app.context.db.raw.run("UPDATE users SET status = 'active' WHERE id = ?", [agent.id])
    }
  })
})
