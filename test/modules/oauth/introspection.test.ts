// POST /oauth2/introspect (RFC 7662) through openid-client and oauth4webapi: a confidential client must
// authenticate; a live token of its organization is active with what it is; anything revoked, expired,
// forged, of another client (refresh tokens) or of another organization is just `{active: false}`.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { json } from '../../helpers/app.ts'
import { basicHeader, claimsOf, clientOf, ISSUER, type RegisteredClient, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme, globex } = w
const agent = acme.users.agent.user
const dashboard = await w.register({ grant_types: ['authorization_code', 'refresh_token', 'client_credentials'] })
const other = await w.register({ name: 'Other app' })
const foreign = await w.register({ name: 'Globex app' }, globex.users.admin.auth)
const config = await client.discovery(new URL(ISSUER), dashboard.id, undefined, client.ClientSecretBasic(dashboard.secret!), {
  [client.customFetch]: w.doFetch,
})

async function tokens(as: RegisteredClient = dashboard, user = agent) {
  const { code } = await w.issueCode({ user, client: as, scope: 'openid offline_access tickets:read' })
  return oauth.processAuthorizationCodeResponse(w.as, clientOf(as), await w.exchange(as, code))
}
const introspect = async (token: string, as: RegisteredClient = dashboard) =>
  json(await w.form('/oauth2/introspect', { token }, basicHeader(as.id, as.secret!)))

describe('who may introspect', () => {
  test('no client authentication, a wrong secret, or a public client: 401 invalid_client', async () => {
    const spa = await w.register({ name: 'SPA', client_type: 'public' })
    const t = await tokens()
    for (const response of [
      await w.form('/oauth2/introspect', { token: t.access_token }),
      await w.form('/oauth2/introspect', { token: t.access_token }, basicHeader(dashboard.id, 'ocs_wrong')),
      await w.form('/oauth2/introspect', { token: t.access_token, client_id: spa.id }),
    ]) {
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="switchboard"')
      expect((await json(response)).error).toBe('invalid_client')
    }
  })

  test('no token: 400 invalid_request', async () => {
    const response = await w.form('/oauth2/introspect', {}, basicHeader(dashboard.id, dashboard.secret!))
    expect(response.status).toBe(400)
    expect((await json(response)).error).toBe('invalid_request')
  })
})

describe('active tokens', () => {
  test('openid-client: an access token is active with its scope, client, subject, times, ids; the answer is never cached', async () => {
    const t = await tokens()
    const info = await client.tokenIntrospection(config, t.access_token)
    const claims = claimsOf(t.access_token)
    expect({ ...info } as Record<string, unknown>).toEqual({
      active: true,
      scope: 'openid offline_access tickets:read',
      client_id: dashboard.id,
      token_type: 'Bearer',
      exp: claims.exp as number,
      iat: claims.iat as number,
      nbf: claims.nbf as number,
      sub: agent.id,
      aud: 'https://api.acme.test',
      iss: ISSUER,
      jti: claims.jti as string,
      sid: claims.sid as string,
    })
    const raw = await w.form('/oauth2/introspect', { token: t.access_token }, basicHeader(dashboard.id, dashboard.secret!))
    expect(raw.headers.get('cache-control')).toBe('no-store')
  })

  test('oauth4webapi: the client’s own refresh token is active; a used one is not', async () => {
    const t = await tokens()
    const response = await oauth.introspectionRequest(
      w.as,
      clientOf(dashboard),
      oauth.ClientSecretBasic(dashboard.secret!),
      t.refresh_token!,
      w.options,
    )
    const info = await oauth.processIntrospectionResponse(w.as, clientOf(dashboard), response)
    expect(info).toMatchObject({
      active: true,
      client_id: dashboard.id,
      sub: agent.id,
      scope: 'openid offline_access tickets:read',
      iss: ISSUER,
    })
    expect(info.exp).toBeGreaterThan(Math.floor(app.clock.now() / 1000))
    await oauth.refreshTokenGrantRequest(w.as, clientOf(dashboard), oauth.ClientSecretBasic(dashboard.secret!), t.refresh_token!, w.options)
    expect(await introspect(t.refresh_token!)).toEqual({ active: false })
  })

  test('a first-party token and a client-credentials token of the organization are active too', async () => {
    expect(await introspect(acme.users.viewer.accessToken)).toMatchObject({ active: true, sub: acme.users.viewer.user.id })
    expect(await introspect(acme.users.viewer.accessToken)).not.toHaveProperty('client_id')
    const cc = await json(await w.form('/oauth2/token', { grant_type: 'client_credentials' }, basicHeader(dashboard.id, dashboard.secret!)))
    expect(await introspect(cc.access_token as string)).toMatchObject({ active: true, sub: dashboard.id, client_id: dashboard.id })
  })
})

describe('inactive tokens: {active: false} and nothing more', () => {
  test('garbage, a forged signature, a revoked access token', async () => {
    const t = await tokens()
    expect(await introspect('garbage')).toEqual({ active: false })
    expect(await introspect(`${t.access_token.slice(0, -4)}AAAA`)).toEqual({ active: false })
    await w.form('/oauth2/revoke', { token: t.access_token }, basicHeader(dashboard.id, dashboard.secret!))
    expect(await introspect(t.access_token)).toEqual({ active: false })
  })

  test("another client's refresh token; another organization's access tokens", async () => {
    const mine = await tokens(other)
    expect(await introspect(mine.refresh_token!)).toEqual({ active: false })
    expect(await introspect(mine.access_token)).toMatchObject({ active: true })
    const theirs = await tokens(foreign, globex.users.agent.user)
    expect(await introspect(theirs.access_token)).toEqual({ active: false })
    expect(await introspect(globex.users.agent.accessToken)).toEqual({ active: false })
    expect(await introspect(theirs.access_token, foreign)).toMatchObject({ active: true })
  })

  // Last: the clock moves on for the rest of the file.
  test('an expired access token', async () => {
    const t = await tokens()
    app.clock.advance(3_600_001)
    expect(await introspect(t.access_token)).toEqual({ active: false })
  })
})
