// What a client may be registered with: 400 naming the field for bad redirect URIs, grant types a client type may not have, unknown scopes, and scopes beyond the registering credential's permissions.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { oauthClientsWorld } from './helpers.ts'

const { app, acme, send, create, refused } = await oauthClientsWorld()
const DAY = 86_400_000

describe('redirect URIs', () => {
  test.each([
    ['relative', '/cb'],
    ['with a fragment', 'https://app.example.com/cb#x'],
    ['with an empty fragment', 'https://app.example.com/cb#'],
    ['plain http', 'http://app.example.com/cb'],
    ['http on a private address', 'http://10.0.0.1/cb'],
    ['http on a name ending in localhost', 'http://localhost.example.com/cb'],
    ['with credentials', 'https://user:pass@app.example.com/cb'],
    ['a private-use scheme on a confidential client', 'com.example.app:/cb'],
  ])('%s: 400', async (_, uri) => {
    expect(await refused({ redirect_uris: ['https://ok.example/cb', uri] })).toEqual(['redirect_uris.1'])
  })

  test.each([['javascript:alert(1)'], ['data:text/html,x'], ['file:///etc/passwd'], ['myapp:/cb']])(
    'a public client: %s is no private-use scheme (400)',
    async (uri) => {
      expect(await refused({ client_type: 'public', redirect_uris: [uri] })).toEqual(['redirect_uris.0'])
    },
  )

  test('post-logout redirect URIs follow the same rules', async () => {
    expect(await refused({ redirect_uris: ['https://ok.example/cb'], post_logout_redirect_uris: ['http://example.com/bye'] })).toEqual([
      'post_logout_redirect_uris.0',
    ])
  })

  test('authorization_code needs a redirect URI', async () => {
    expect(await refused({ redirect_uris: [] })).toEqual(['redirect_uris'])
  })
})

describe('grant types and scopes', () => {
  test('a public client cannot have client_credentials', async () => {
    const fields = await refused({
      client_type: 'public',
      redirect_uris: ['https://ok.example/cb'],
      grant_types: ['authorization_code', 'client_credentials'],
    })
    expect(fields).toEqual(['grant_types.1'])
  })

  test('unknown grant types and scopes; refresh_token without authorization_code', async () => {
    expect(await refused({ grant_types: ['implicit'], redirect_uris: ['https://ok.example/cb'] })).toEqual(['grant_types.0'])
    expect(await refused({ grant_types: ['client_credentials', 'refresh_token'] })).toEqual(['grant_types'])
    expect(await refused({ redirect_uris: ['https://ok.example/cb'], scopes: ['openid', 'tickets:delete', 'admin'] })).toEqual([
      'scopes.1',
      'scopes.2',
    ])
  })

  test('scopes within the credential: a personal access token narrowed to oauth_client:* cannot register tickets:read', async () => {
    const key = await send('POST', '/api/v1/api-keys', acme.users.admin.auth, {
      name: 'clients only',
      expires_at: new Date(app.clock.now() + DAY).toISOString(),
      permissions: ['oauth_client:*'],
    })
    const { token } = await json<{ token: string }>(key)
    const auth = { 'x-api-key': token }
    expect(await refused({ redirect_uris: ['https://ok.example/cb'], scopes: ['openid', 'tickets:read'] }, auth)).toEqual(['scopes.1'])
    await create({ scopes: ['openid', 'email'] }, auth)
  })

  test('PATCH checks the result as a whole: a public client gets no client_credentials, nor a confidential one an http URI', async () => {
    const pub = await create({ client_type: 'public' })
    const a = await send('PATCH', `/api/v1/oauth-clients/${pub.id}`, acme.users.admin.auth, { grant_types: ['client_credentials'] })
    expect(a.status).toBe(400)
    const conf = await create()
    const b = await send('PATCH', `/api/v1/oauth-clients/${conf.id}`, acme.users.admin.auth, { redirect_uris: ['http://example.com/cb'] })
    expect(b.status).toBe(400)
    const c = await send('PATCH', `/api/v1/oauth-clients/${conf.id}`, acme.users.admin.auth, { redirect_uris: [] })
    expect(c.status).toBe(400)
  })

  test('schema limits: no name, an unknown type, an empty body to PATCH', async () => {
    expect((await send('POST', '/api/v1/oauth-clients', acme.users.admin.auth, { redirect_uris: ['https://ok.example/cb'] })).status).toBe(
      400,
    )
    expect((await send('POST', '/api/v1/oauth-clients', acme.users.admin.auth, { name: 'x', client_type: 'native' })).status).toBe(400)
    const client = await create()
    expect((await send('PATCH', `/api/v1/oauth-clients/${client.id}`, acme.users.admin.auth, {})).status).toBe(400)
  })
})
