// grant_type=client_credentials (openid-client and oauth4webapi): a confidential client's own token
// (`sub` is the client id, no refresh token, no ID token), its scopes among the resource scopes it
// registered, and its permissions those of the user it acts for (its creator, or for a client the
// operator registered the oldest active Super Admin) within the scopes, recomputed on every request.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import * as client from 'openid-client'
import { contextFor } from '../../../src/context.ts'
import { createOAuthClient } from '../../../src/modules/oauth-clients/index.ts'
import { findUserInOrg } from '../../../src/modules/users/index.ts'
import { json } from '../../helpers/app.ts'
import { signIn } from '../../helpers/seed.ts'
import { basicHeader, claimsOf, clientOf, ISSUER, type RegisteredClient, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme } = w
const admin = acme.users.admin
const service = await w.register({
  name: 'Service',
  redirect_uris: [],
  grant_types: ['client_credentials'],
  scopes: ['tickets:read', 'tickets:write', 'users:read'],
})

const configOf = (c: RegisteredClient) =>
  client.discovery(new URL(ISSUER), c.id, undefined, client.ClientSecretBasic(c.secret!), { [client.customFetch]: w.doFetch })
const tokenFor = async (c: RegisteredClient, scope?: string) => {
  const response = await w.form(
    '/oauth2/token',
    { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
    basicHeader(c.id, c.secret!),
  )
  return { response, body: await json(response) }
}
const call = (token: string, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })

describe('the token', () => {
  test('openid-client gets a Bearer token for the client itself: sub and sid are the client id; no refresh token, no ID token', async () => {
    const tokens = await client.clientCredentialsGrant(await configOf(service))
    expect(tokens.token_type).toBe('bearer')
    expect(tokens.refresh_token).toBeUndefined()
    expect(tokens.id_token).toBeUndefined()
    expect(tokens.scope).toBe('tickets:read tickets:write users:read')
    expect(claimsOf(tokens.access_token)).toMatchObject({
      iss: ISSUER,
      sub: service.id,
      sid: service.id,
      client_id: service.id,
      scope: 'tickets:read tickets:write users:read',
      organization_id: acme.org.id,
      roles: [],
      permissions: ['ticket:read', 'ticket:create', 'ticket:update', 'ticket:comment', 'user:read'],
    })
    const issued = (await w.audits('oauth.token.issued')).at(-1)!
    expect(issued).toMatchObject({ actor_id: admin.user.id, credential_id: service.id })
    expect(JSON.parse(issued.details)).toMatchObject({ grant_type: 'client_credentials', client_id: service.id })
  })

  test('it acts for its creator within its scopes: a tickets:read token reads tickets, cannot create one', async () => {
    const { body } = await tokenFor(service, 'tickets:read')
    const token = body.access_token as string
    expect((await call(token, 'GET', '/api/v1/tickets')).status).toBe(200)
    const refused = await call(token, 'POST', '/api/v1/tickets', { subject: 'x' })
    expect(refused.status).toBe(403)
    expect((await json(refused)).code).toBe('INSUFFICIENT_PERMISSIONS')
    const self = await json(await call(token, 'GET', '/api/v1/me'))
    expect(self).toMatchObject({ id: admin.user.id, permissions: ['ticket:read'] })
  })

  test("demoting the creator narrows the client's tokens at once", async () => {
    const creator = await json<{ id: string }>(
      await app.request('/api/v1/users', {
        method: 'POST',
        headers: { ...acme.users.super_admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'creator@acme.test', name: 'Creator', password: 'password-123', role: 'admin' }),
      }),
    )
    // The new admin signs in and registers the client through the API.
    const row = (await findUserInOrg(app.context.db, acme.org.id, creator.id))!
    const registered = await w.register(
      { name: 'Creator app', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['users:read', 'tickets:write'] },
      (await signIn(app, row)).auth,
    )
    const token = (await tokenFor(registered)).body.access_token as string
    expect((await call(token, 'GET', '/api/v1/users')).status).toBe(200)
    const demoted = await app.request(`/api/v1/users/${creator.id}`, {
      method: 'PATCH',
      headers: { ...acme.users.super_admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'viewer' }),
    })
    expect(demoted.status).toBe(200)
    expect((await call(token, 'GET', '/api/v1/users')).status).toBe(200)
    expect((await call(token, 'POST', '/api/v1/tickets', { subject: 'x' })).status).toBe(403)
    // Disabled: the client's tokens die, and it gets no more.
    await app.context.db.raw.run("UPDATE users SET status = 'disabled' WHERE id = ?", [creator.id])
    expect((await call(token, 'GET', '/api/v1/users')).status).toBe(401)
    const refused = await tokenFor(registered)
    expect(refused.response.status).toBe(400)
    expect(refused.body.error).toBe('unauthorized_client')
  })

  test("a client the operator registered (CLI) acts for the organization's oldest active Super Admin", async () => {
    const cli = contextFor(app.context, { kind: 'system', id: 'cli' })
    const made = await createOAuthClient(cli, {
      name: 'Operator app',
      organization_id: acme.org.id,
      grant_types: ['client_credentials'],
      scopes: ['users:read'],
    })
    const { body } = await tokenFor({ id: made.row.id, secret: made.secret })
    expect(claimsOf(body.access_token as string).permissions).toEqual(['user:read'])
    expect(await json(await call(body.access_token as string, 'GET', '/api/v1/me'))).toMatchObject({ id: acme.users.super_admin.user.id })
  })

  test('a deleted client: its tokens are refused at once (401), and it authenticates no more', async () => {
    const doomed = await w.register({ name: 'Doomed', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read'] })
    const token = (await tokenFor(doomed)).body.access_token as string
    expect((await call(token, 'GET', '/api/v1/tickets')).status).toBe(200)
    const deleted = await app.request(`/api/v1/oauth-clients/${doomed.id}`, { method: 'DELETE', headers: admin.auth })
    expect(deleted.status).toBe(204)
    const refused = await call(token, 'GET', '/api/v1/tickets')
    expect(refused.status).toBe(401)
    expect((await json(refused)).code).toBe('TOKEN_INVALID')
    expect((await tokenFor(doomed)).response.status).toBe(401)
  })

  test("its tokens cannot manage credentials (sessions, API keys, MFA, grants): they are the client's, not a sign-in", async () => {
    const { body } = await tokenFor(service)
    for (const [method, path] of [
      ['GET', '/api/v1/auth/sessions'],
      ['GET', '/api/v1/me/oauth-grants'],
      ['GET', '/api/v1/auth/mfa'],
      ['POST', '/api/v1/auth/logout'],
    ] as const) {
      const response = await call(body.access_token as string, method, path)
      expect(response.status, `${method} ${path}`).toBe(403)
      expect((await json(response)).message).toContain('OAuth clients')
    }
  })
})

describe('who may ask, for what', () => {
  test('scopes: a registered resource scope only (invalid_scope for another, or for an OpenID scope)', async () => {
    for (const scope of ['offline_access', 'openid', 'tickets:read openid', 'users:read nonsense']) {
      const { response, body } = await tokenFor(service, scope)
      expect(response.status, scope).toBe(400)
      expect(body.error, scope).toBe('invalid_scope')
    }
    const narrow = await w.register({ name: 'Narrow', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read'] })
    expect((await tokenFor(narrow, 'users:read')).body.error).toBe('invalid_scope')
  })

  test('a public client is unauthorized_client; so is a confidential one not registered for the grant', async () => {
    const spa = await w.register({ name: 'SPA', client_type: 'public' })
    const response = await w.form('/oauth2/token', { grant_type: 'client_credentials', client_id: spa.id })
    expect(response.status).toBe(400)
    expect((await json(response)).error).toBe('unauthorized_client')
    const web = await w.register({ name: 'Web' })
    expect((await tokenFor(web)).body.error).toBe('unauthorized_client')
  })

  test('oauth4webapi reads a refusal as an OAuth error', async () => {
    const spa = await w.register({ name: 'SPA 2', client_type: 'public' })
    const response = await oauth.clientCredentialsGrantRequest(w.as, clientOf(spa), oauth.None(), new URLSearchParams(), w.options)
    await expect(oauth.processClientCredentialsResponse(w.as, clientOf(spa), response)).rejects.toMatchObject({
      error: 'unauthorized_client',
    })
  })
})
