// GET/DELETE /api/v1/me/oauth-grants: your live consents, newest first and paginated, with the client's
// name; revoking one ends that client's tokens for you at once. Only with a sign-in's access token;
// another user's or organization's grant is 404.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { json } from '../../helpers/app.ts'
import { clientOf, type RegisteredClient, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme, globex } = w
const supervisor = acme.users.supervisor
const first = await w.register({ name: 'First app' })
const second = await w.register({ name: 'Second app' })
const gone = await w.register({ name: 'Gone app' })

interface Grant {
  id: string
  client_id: string
  client_name: string
  scopes: string[]
  created_at: string
  updated_at: string
}
type GrantPage = { oauth_grants: Grant[]; next_page_token: string }

const list = async (headers = supervisor.auth, query = '') =>
  json<GrantPage>(await app.request(`/api/v1/me/oauth-grants${query}`, { headers }))
const revoke = (id: string, headers = supervisor.auth) => app.request(`/api/v1/me/oauth-grants/${id}`, { method: 'DELETE', headers })
const me = (token: string) => app.request('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })

async function consent(client: RegisteredClient, user = supervisor.user, scope = 'openid offline_access tickets:read') {
  const { code } = await w.issueCode({ user, client, scope })
  app.clock.advance(1000)
  return oauth.processAuthorizationCodeResponse(w.as, clientOf(client), await w.exchange(client, code))
}

const firstTokens = await consent(first)
await consent(second, supervisor.user, 'openid profile')
await consent(gone)
await consent(first, acme.users.agent.user)
await app.request(`/api/v1/oauth-clients/${gone.id}`, { method: 'DELETE', headers: acme.users.admin.auth })

describe('GET /api/v1/me/oauth-grants', () => {
  test('your live grants of clients that exist, newest first, with the client name, scopes and times', async () => {
    const page = await list()
    expect(page.next_page_token).toBe('')
    expect(page.oauth_grants.map((g) => g.client_name)).toEqual(['Second app', 'First app'])
    expect(page.oauth_grants[0]).toMatchObject({ client_id: second.id, scopes: ['openid', 'profile'] })
    expect(page.oauth_grants[0]!.id).toMatch(/^ogr_/)
    expect(Date.parse(page.oauth_grants[0]!.created_at)).toBeGreaterThan(Date.parse(page.oauth_grants[1]!.created_at))
  })

  test('page by page', async () => {
    const one = await list(supervisor.auth, '?page_size=1')
    expect(one.oauth_grants.map((g) => g.client_id)).toEqual([second.id])
    const two = await list(supervisor.auth, `?page_size=1&page_token=${encodeURIComponent(one.next_page_token)}`)
    expect(two.oauth_grants.map((g) => g.client_id)).toEqual([first.id])
    expect(two.next_page_token).toBe('')
  })

  test('only a sign-in: a personal access token is refused (403)', async () => {
    const created = await app.request('/api/v1/api-keys', {
      method: 'POST',
      headers: { ...supervisor.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Script', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() }),
    })
    const { token } = await json<{ token: string }>(created)
    const response = await app.request('/api/v1/me/oauth-grants', { headers: { 'x-api-key': token } })
    expect(response.status).toBe(403)
    expect((await json(response)).code).toBe('INSUFFICIENT_PERMISSIONS')
  })
})

describe('DELETE /api/v1/me/oauth-grants/{id}', () => {
  test("another user's grant, another organization's, an unknown or malformed one: 404", async () => {
    const agentsGrant = (await list(acme.users.agent.auth)).oauth_grants[0]!
    for (const id of [agentsGrant.id, 'ogr_00000000000000000000000000', 'x']) {
      const response = await revoke(id)
      expect(response.status).toBe(404)
      expect((await json(response)).code).toBe('NOT_FOUND')
    }
    expect((await revoke(agentsGrant.id, globex.users.super_admin.auth)).status).toBe(404)
    // A NUL is refused before any route (test/http/nul-character.test.ts).
    expect((await revoke('%00')).status).toBe(400)
  })

  test("revokes it: 204, gone from the list, the client's tokens for you dead at once; audited; others untouched", async () => {
    const grant = (await list()).oauth_grants.find((g) => g.client_id === first.id)!
    const agentsTokens = await consent(first, acme.users.agent.user)
    expect((await me(firstTokens.access_token)).status).toBe(200)
    expect((await revoke(grant.id)).status).toBe(204)
    expect((await list()).oauth_grants.map((g) => g.client_id)).toEqual([second.id])
    expect((await me(firstTokens.access_token)).status).toBe(401)
    const refreshed = await oauth.refreshTokenGrantRequest(
      w.as,
      clientOf(first),
      oauth.ClientSecretBasic(first.secret!),
      firstTokens.refresh_token!,
      w.options,
    )
    expect((await json(refreshed)).error).toBe('invalid_grant')
    expect((await me(agentsTokens.access_token)).status).toBe(200)
    const record = (await w.audits('oauth.grant.revoked')).at(-1)!
    expect(record.actor_id).toBe(supervisor.user.id)
    expect(JSON.parse(record.details)).toMatchObject({ client_id: first.id, sessions_ended: 1 })
    expect((await revoke(grant.id)).status).toBe(404)
  })
})
