// POST /oauth2/token with grant_type=refresh_token: rotation with reuse detection (the whole family
// dies), tokens bound to their client and kind (another client's, or a first-party one, is refused, and
// /api/v1/auth/refresh refuses an OAuth client's), the grant still live, `scope` only narrowing, and a
// new ID token with the same iss, sub, aud, auth_time and sid. Driven by openid-client and oauth4webapi.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { json } from '../../helpers/app.ts'
import { signIn } from '../../helpers/seed.ts'
import { claimsOf, clientOf, ISSUER, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme } = w
const agent = acme.users.agent.user
const dashboard = await w.register()
const other = await w.register({ name: 'Other app' })
const SCOPE = 'openid profile offline_access tickets:read tickets:write'
const config = await client.discovery(new URL(ISSUER), dashboard.id, undefined, client.ClientSecretBasic(dashboard.secret!), {
  [client.customFetch]: w.doFetch,
})

const me = (token: string) => app.request('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })
const refreshAs = (as: typeof dashboard, token: string, parameters?: Record<string, string>) =>
  oauth.refreshTokenGrantRequest(w.as, clientOf(as), oauth.ClientSecretBasic(as.secret!), token, {
    ...w.options,
    additionalParameters: parameters,
  })
const firstPartyRefresh = (token: string) =>
  app.request('/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: token }),
  })

/** Tokens from a fresh code exchange of the dashboard for the agent. */
async function tokens(scope = SCOPE) {
  const { code, browserSessionId } = await w.issueCode({ user: agent, client: dashboard, scope, signedInAt: app.clock.now() - 60_000 })
  const response = await w.exchange(dashboard, code)
  return { ...(await oauth.processAuthorizationCodeResponse(w.as, clientOf(dashboard), response)), browserSessionId }
}

async function expectInvalidGrant(response: Response) {
  expect(response.status).toBe(400)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect((await json(response)).error).toBe('invalid_grant')
}

describe('rotation', () => {
  test('openid-client refreshes: a new refresh token, a working access token, an ID token keeping iss, sub, aud, azp, auth_time and sid', async () => {
    const first = await tokens()
    const next = await client.refreshTokenGrant(config, first.refresh_token!)
    expect(next.refresh_token).not.toBe(first.refresh_token)
    expect(next.scope).toBe(SCOPE)
    expect((await me(next.access_token)).status).toBe(200)
    const before = claimsOf(first.id_token!)
    const after = next.claims()!
    for (const claim of ['iss', 'sub', 'aud', 'azp', 'auth_time', 'sid', 'amr']) expect<unknown>(after[claim]).toEqual(before[claim])
    expect(after.sid).toBe(first.browserSessionId)
    expect(after).not.toHaveProperty('nonce')
    expect(claimsOf(next.access_token)).toMatchObject({ client_id: dashboard.id, scope: SCOPE, sid: claimsOf(first.access_token).sid })
    expect((await w.audits('token.refresh')).some((r) => JSON.parse(r.details).client_id === dashboard.id)).toBe(true)
  })

  test('a refresh token presented again (reuse) is refused and the whole family dies: successor refused, access tokens 401', async () => {
    const first = await tokens()
    const second = await json(await refreshAs(dashboard, first.refresh_token!))
    await expectInvalidGrant(await refreshAs(dashboard, first.refresh_token!))
    await expectInvalidGrant(await refreshAs(dashboard, second.refresh_token as string))
    expect((await me(second.access_token as string)).status).toBe(401)
    expect((await me(first.access_token)).status).toBe(401)
    const reuse = (await w.audits('token.refresh_reuse_detected')).at(-1)!
    expect(JSON.parse(reuse.details)).toMatchObject({ client_id: dashboard.id })
  })

  test('the same refresh token sent twice at once: exactly one succeeds', async () => {
    const first = await tokens()
    const statuses = await Promise.all([1, 2].map(() => refreshAs(dashboard, first.refresh_token!).then((r) => r.status)))
    expect(statuses.sort()).toEqual([200, 400])
  })

  test('scope narrows the new access token (and its permissions); a wider scope is invalid_scope; the next refresh gets the grant back', async () => {
    const first = await tokens()
    const narrowed = await json(await refreshAs(dashboard, first.refresh_token!, { scope: 'tickets:read' }))
    expect(narrowed).toMatchObject({ scope: 'tickets:read' })
    expect(narrowed).not.toHaveProperty('id_token')
    expect(claimsOf(narrowed.access_token as string).permissions).toEqual(['ticket:read'])
    const wider = await refreshAs(dashboard, narrowed.refresh_token as string, { scope: 'tickets:read users:read' })
    expect(wider.status).toBe(400)
    expect((await json(wider)).error).toBe('invalid_scope')
    const third = await tokens()
    const full = await json(await refreshAs(dashboard, third.refresh_token!))
    expect(full.scope).toBe(SCOPE)
    expect(claimsOf(full.access_token as string).permissions).toEqual(['ticket:read', 'ticket:create', 'ticket:update', 'ticket:comment'])
  })
})

describe('a refresh token belongs to its client and its kind', () => {
  test("another client's refresh token is invalid_grant, and revokes nothing: its owner still refreshes", async () => {
    const first = await tokens()
    await expectInvalidGrant(await refreshAs(other, first.refresh_token!))
    expect((await refreshAs(dashboard, first.refresh_token!)).status).toBe(200)
  })

  test('a first-party refresh token is refused at /oauth2/token, and still works at /api/v1/auth/refresh', async () => {
    const session = await signIn(app, agent)
    await expectInvalidGrant(await refreshAs(dashboard, session.refreshToken))
    expect((await firstPartyRefresh(session.refreshToken)).status).toBe(200)
  })

  test("an OAuth client's refresh token is refused at /api/v1/auth/refresh, and still works at /oauth2/token", async () => {
    const first = await tokens()
    const refused = await firstPartyRefresh(first.refresh_token!)
    expect(refused.status).toBe(401)
    expect((await json(refused)).code).toBe('TOKEN_INVALID')
    expect((await refreshAs(dashboard, first.refresh_token!)).status).toBe(200)
  })

  test('garbage is invalid_grant; a missing refresh_token is invalid_request', async () => {
    await expectInvalidGrant(await refreshAs(dashboard, 'rt_not-a-token'))
    const response = await w.form('/oauth2/token', {
      grant_type: 'refresh_token',
      client_id: dashboard.id,
      client_secret: dashboard.secret!,
    })
    expect((await json(response)).error).toBe('invalid_request')
  })
})

describe('the grant', () => {
  test('revoking the grant (DELETE /api/v1/me/oauth-grants/{id}) kills refresh (invalid_grant) and the access token (401)', async () => {
    const first = await tokens()
    const list = await json<{ oauth_grants: { id: string; client_id: string }[] }>(
      await app.request('/api/v1/me/oauth-grants', { headers: acme.users.agent.auth }),
    )
    const grant = list.oauth_grants.find((g) => g.client_id === dashboard.id)!
    const deleted = await app.request(`/api/v1/me/oauth-grants/${grant.id}`, { method: 'DELETE', headers: acme.users.agent.auth })
    expect(deleted.status).toBe(204)
    await expectInvalidGrant(await refreshAs(dashboard, first.refresh_token!))
    expect((await me(first.access_token)).status).toBe(401)
  })

  test('a scope the user no longer grants is no longer given on refresh', async () => {
    const first = await tokens()
    // The user consented again, to less (the browser side replaces the grant's scope).
    await app.context.db.raw.run('UPDATE oauth_grants SET scope = ? WHERE user_id = ? AND client_id = ?', [
      'openid offline_access tickets:read',
      agent.id,
      dashboard.id,
    ])
    const next = await json(await refreshAs(dashboard, first.refresh_token!))
    expect(next.scope).toBe('openid offline_access tickets:read')
  })

  test('a user disabled since cannot refresh', async () => {
    const first = await tokens()
    await app.context.db.raw.run("UPDATE users SET status = 'disabled' WHERE id = ?", [agent.id])
    try {
      await expectInvalidGrant(await refreshAs(dashboard, first.refresh_token!))
    } finally {
      await app.context.db.raw.run("UPDATE users SET status = 'active' WHERE id = ?", [agent.id])
    }
  })
})
