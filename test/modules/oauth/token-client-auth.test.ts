// POST /oauth2/token: client authentication (RFC 6749 §2.3: Basic form-url-decoded, the body, none for
// a public client; one method only; invalid_client is 401 with WWW-Authenticate) and the protocol's
// request rules (a url-encoded body, each parameter once), every answer JSON and never cached.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { json } from '../../helpers/app.ts'
import { basicHeader, clientOf, type RegisteredClient, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app } = w
const service = await w.register({ name: 'Service', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read'] })
const spa = await w.register({ name: 'SPA', client_type: 'public', scopes: ['openid'] })
const sha256hex = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')
const CC = { grant_type: 'client_credentials' }

/** A client-credentials request through oauth4webapi with `auth`. */
const credentialsRequest = (client: RegisteredClient, auth: oauth.ClientAuth) =>
  oauth.clientCredentialsGrantRequest(w.as, clientOf(client), auth, new URLSearchParams(), w.options)

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('pragma')).toBe('no-cache')
  const body = await json(response)
  expect(body.error).toBe(error)
  expect(body.error_description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/)
  if (status === 401) expect(response.headers.get('www-authenticate')).toBe('Basic realm="switchboard"')
  return body
}

describe('client_secret_basic', () => {
  test('a secret with :, &, +, %, spaces and non-ASCII works through oauth4webapi, which form-url-encodes it before Basic', async () => {
    const secret = 'p:a&s+s%20w o=r/d?é'
    const client = await w.register({ name: 'Special', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read'] })
    await app.context.db.raw.run('UPDATE oauth_clients SET secret_hash = ? WHERE id = ?', [sha256hex(secret), client.id])
    const response = await credentialsRequest(client, oauth.ClientSecretBasic(secret))
    expect(response.status).toBe(200)
    const tokens = await oauth.processClientCredentialsResponse(w.as, clientOf(client), response)
    expect(tokens.token_type).toBe('bearer')
    // `+` in the encoded form is a space: the same secret sent with a raw `+` is another secret.
    const raw = { authorization: `Basic ${Buffer.from(`${client.id}:${secret}`).toString('base64')}` }
    await expectError(await w.form('/oauth2/token', CC, raw), 401, 'invalid_client')
  })

  test('both parts are decoded: + is a space and %XX a byte (RFC 6749 Appendix B)', async () => {
    const secret = 'with space'
    const client = await w.register({ name: 'Spaces', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read'] })
    await app.context.db.raw.run('UPDATE oauth_clients SET secret_hash = ? WHERE id = ?', [sha256hex(secret), client.id])
    const plus = { authorization: `Basic ${Buffer.from(`${client.id}:with+space`).toString('base64')}` }
    expect((await w.form('/oauth2/token', CC, plus)).status).toBe(200)
    const percent = { authorization: `Basic ${Buffer.from(`${client.id}:with%20space`).toString('base64')}` }
    expect((await w.form('/oauth2/token', CC, percent)).status).toBe(200)
  })

  test('a wrong secret is 401 invalid_client with the Basic challenge, audited as client.auth_failed (without the secret)', async () => {
    await expectError(await w.form('/oauth2/token', CC, basicHeader(service.id, 'ocs_wrong-guess')), 401, 'invalid_client')
    const record = (await w.audits('client.auth_failed')).at(-1)!
    expect(record.reason).toBe('wrong_secret')
    expect(JSON.parse(record.details)).toEqual({ client_id: service.id, method: 'client_secret_basic' })
    expect(record.details).not.toContain('ocs_wrong-guess')
  })

  test('an unknown client, malformed Basic credentials, or another scheme: 401 invalid_client', async () => {
    await expectError(await w.form('/oauth2/token', CC, basicHeader('ocl_00000000000000000000000000', 'x')), 401, 'invalid_client')
    for (const authorization of ['Basic !!!', `Basic ${btoa('no-colon')}`, `Basic ${btoa(`${service.id}:%E0%A4%A`)}`, 'Bearer abc'])
      await expectError(await w.form('/oauth2/token', CC, { authorization }), 401, 'invalid_client')
  })
})

describe('client_secret_post and none', () => {
  test('client_id and client_secret in the body work (oauth4webapi ClientSecretPost)', async () => {
    const response = await credentialsRequest(service, oauth.ClientSecretPost(service.secret!))
    expect(response.status).toBe(200)
    expect((await oauth.processClientCredentialsResponse(w.as, clientOf(service), response)).access_token).toBeString()
  })

  test('a confidential client without its secret, or a public client with one: 401 invalid_client', async () => {
    const body = await expectError(await w.form('/oauth2/token', { ...CC, client_id: service.id }), 401, 'invalid_client')
    expect(body.error_description).toContain('secret')
    await expectError(await w.form('/oauth2/token', { ...CC, client_id: spa.id, client_secret: 'anything' }), 401, 'invalid_client')
  })

  test('no client authentication at all: 401 invalid_client', async () => {
    await expectError(await w.form('/oauth2/token', CC), 401, 'invalid_client')
  })

  test('two methods at once (Basic and a body secret) are invalid_request; a body client_id must match Basic', async () => {
    const both = { ...CC, client_id: service.id, client_secret: service.secret! }
    await expectError(await w.form('/oauth2/token', both, basicHeader(service.id, service.secret!)), 400, 'invalid_request')
    const mismatch = { ...CC, client_id: spa.id }
    await expectError(await w.form('/oauth2/token', mismatch, basicHeader(service.id, service.secret!)), 400, 'invalid_request')
    const same = { ...CC, client_id: service.id }
    expect((await w.form('/oauth2/token', same, basicHeader(service.id, service.secret!))).status).toBe(200)
  })
})

describe('the request', () => {
  const auth = () => basicHeader(service.id, service.secret!)

  test('a JSON or plain-text body is invalid_request (form-encoded only)', async () => {
    for (const [type, body] of [
      ['application/json', JSON.stringify(CC)],
      ['text/plain', 'grant_type=client_credentials'],
    ]) {
      const response = await app.request('/oauth2/token', { method: 'POST', headers: { ...auth(), 'content-type': type! }, body })
      const answer = await expectError(response, 400, 'invalid_request')
      expect(answer.error_description).toContain('application/x-www-form-urlencoded')
    }
    await expectError(await app.request('/oauth2/token', { method: 'POST', headers: auth() }), 400, 'invalid_request')
  })

  test('a parameter sent twice is invalid_request, even with the same value', async () => {
    const twice = 'grant_type=client_credentials&scope=tickets%3Aread&scope=tickets%3Aread'
    const body = await expectError(await w.form('/oauth2/token', twice, auth()), 400, 'invalid_request')
    expect(body.error_description).toBe('The parameter scope is sent more than once')
  })

  test('no grant_type is invalid_request; an unknown one unsupported_grant_type; one the client did not register unauthorized_client', async () => {
    await expectError(await w.form('/oauth2/token', {}, auth()), 400, 'invalid_request')
    await expectError(await w.form('/oauth2/token', { grant_type: 'password' }, auth()), 400, 'unsupported_grant_type')
    await expectError(
      await w.form('/oauth2/token', { grant_type: 'refresh_token', refresh_token: 'rt_x' }, auth()),
      400,
      'unauthorized_client',
    )
  })

  test('an empty parameter counts as absent (RFC 6749 §3.1)', async () => {
    await expectError(await w.form('/oauth2/token', { grant_type: '' }, auth()), 400, 'invalid_request')
  })

  test('control characters (NUL, which PostgreSQL text cannot hold, included) are invalid_request, or invalid_client in Basic', async () => {
    for (const params of [
      { ...CC, client_id: 'ocl_\u0000' },
      { ...CC, scope: 'tickets:read\n' },
    ])
      await expectError(await w.form('/oauth2/token', params), 400, 'invalid_request')
    await expectError(await w.form('/oauth2/token', CC, basicHeader('ocl_\u0000', 'x')), 401, 'invalid_client')
    for (const path of ['/oauth2/revoke', '/oauth2/introspect'])
      await expectError(await w.form(path, { token: 'rt_\u0000' }, auth()), 400, 'invalid_request')
  })

  test('GET is not the token endpoint', async () => {
    expect((await app.request('/oauth2/token')).status).toBe(405)
  })
})
