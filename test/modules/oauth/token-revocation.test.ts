// POST /oauth2/revoke (RFC 7009) through openid-client and oauth4webapi: a client revokes its own
// tokens (a refresh token ends its family, an access token is refused until it expires); another
// client's token, or an unknown one, is left alone with the same 200.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { json } from '../../helpers/app.ts'
import { basicHeader, claimsOf, clientOf, ISSUER, type RegisteredClient, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme } = w
const agent = acme.users.agent.user
const dashboard = await w.register()
const other = await w.register({ name: 'Other app' })
const spa = await w.register({ name: 'SPA', client_type: 'public' })
const config = await client.discovery(new URL(ISSUER), dashboard.id, undefined, client.ClientSecretBasic(dashboard.secret!), {
  [client.customFetch]: w.doFetch,
})

async function tokens(as: RegisteredClient = dashboard) {
  const verifier = oauth.generateRandomCodeVerifier()
  const challenge = as.secret === null ? await oauth.calculatePKCECodeChallenge(verifier) : null
  const { code } = await w.issueCode({ user: agent, client: as, scope: 'openid offline_access', codeChallenge: challenge })
  const response = await w.exchange(as, code, challenge === null ? oauth.nopkce : verifier)
  return oauth.processAuthorizationCodeResponse(w.as, clientOf(as), response)
}
const me = (token: string) => app.request('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })
const refresh = (as: RegisteredClient, token: string) =>
  oauth.refreshTokenGrantRequest(
    w.as,
    clientOf(as),
    as.secret === null ? oauth.None() : oauth.ClientSecretBasic(as.secret),
    token,
    w.options,
  )

describe('revoking your own tokens', () => {
  test('openid-client revokes an access token: refused from then on (its family is not), audited', async () => {
    const t = await tokens()
    await client.tokenRevocation(config, t.access_token)
    expect((await me(t.access_token)).status).toBe(401)
    expect((await refresh(dashboard, t.refresh_token!)).status).toBe(200)
    const record = (await w.audits('oauth.token.revoked')).at(-1)!
    expect(JSON.parse(record.details)).toEqual({
      client_id: dashboard.id,
      token_type: 'access_token',
      session_id: claimsOf(t.access_token).sid,
    })
  })

  test('oauth4webapi revokes a refresh token: the whole family ends (refresh invalid_grant, access tokens 401); 200, empty, never cached', async () => {
    const t = await tokens()
    const response = await oauth.revocationRequest(
      w.as,
      clientOf(dashboard),
      oauth.ClientSecretBasic(dashboard.secret!),
      t.refresh_token!,
      w.options,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.clone().text()).toBe('')
    await oauth.processRevocationResponse(response)
    expect((await json(await refresh(dashboard, t.refresh_token!))).error).toBe('invalid_grant')
    expect((await me(t.access_token)).status).toBe(401)
  })

  test('a public client revokes its own refresh token with its client_id alone', async () => {
    const t = await tokens(spa)
    const response = await w.form('/oauth2/revoke', { token: t.refresh_token!, client_id: spa.id, token_type_hint: 'refresh_token' })
    expect(response.status).toBe(200)
    expect((await json(await refresh(spa, t.refresh_token!))).error).toBe('invalid_grant')
  })
})

describe('what is left alone', () => {
  test("another client's tokens: 200, and they still work", async () => {
    const theirs = await tokens(other)
    for (const token of [theirs.access_token, theirs.refresh_token!, acme.users.agent.accessToken])
      expect((await w.form('/oauth2/revoke', { token }, basicHeader(dashboard.id, dashboard.secret!))).status).toBe(200)
    expect((await me(theirs.access_token)).status).toBe(200)
    expect((await me(acme.users.agent.accessToken)).status).toBe(200)
    expect((await refresh(other, theirs.refresh_token!)).status).toBe(200)
  })

  test('an unknown or malformed token: 200', async () => {
    for (const token of ['garbage', 'rt_unknown', 'a.b.c'])
      expect((await w.form('/oauth2/revoke', { token }, basicHeader(dashboard.id, dashboard.secret!))).status).toBe(200)
  })

  test('no token is invalid_request; no client authentication invalid_client', async () => {
    const missing = await w.form('/oauth2/revoke', {}, basicHeader(dashboard.id, dashboard.secret!))
    expect(missing.status).toBe(400)
    expect((await json(missing)).error).toBe('invalid_request')
    const anonymous = await w.form('/oauth2/revoke', { token: 'x' })
    expect(anonymous.status).toBe(401)
    expect((await json(anonymous)).error).toBe('invalid_client')
  })
})
