// The discovery documents (OpenID Connect Discovery, RFC 8414): one object at both addresses, issuer
// exactly AUTH_URL, every endpoint, only what the server does, explicit falses; accepted as they are by
// oauth4webapi and openid-client.
import { describe, expect, test } from 'bun:test'
import * as client from 'openid-client'
import { json } from '../../helpers/app.ts'
import { ISSUER, tokenWorld } from './token-helpers.ts'

const { app, as, doFetch } = await tokenWorld()

describe('GET /.well-known/openid-configuration', () => {
  test('the issuer is AUTH_URL exactly, every endpoint is under it, and the answer is public and cacheable for 5 minutes', async () => {
    const response = await app.request('/.well-known/openid-configuration', { headers: { host: 'evil.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    const doc = await json(response)
    expect(doc).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/auth`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      userinfo_endpoint: `${ISSUER}/userinfo`,
      jwks_uri: `${ISSUER}/.well-known/jwks.json`,
      revocation_endpoint: `${ISSUER}/oauth2/revoke`,
      introspection_endpoint: `${ISSUER}/oauth2/introspect`,
      end_session_endpoint: `${ISSUER}/oauth2/logout`,
    })
  })

  test('what it advertises: code flow with S256 PKCE, RS256 ID tokens, three grants, three client authentications, the scopes and claims', async () => {
    const doc = await json(await app.request('/.well-known/openid-configuration'))
    expect(doc).toMatchObject({
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    })
    expect(doc.scopes_supported).toEqual(['openid', 'profile', 'email', 'offline_access', 'tickets:read', 'tickets:write', 'users:read'])
    expect(doc.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'auth_time', 'nonce', 'at_hash', 'sid', 'name', 'email', 'email_verified']),
    )
  })

  test('request objects, request URIs and the claims parameter are refused explicitly (Discovery defaults request_uri_parameter_supported to true)', async () => {
    const doc = await json(await app.request('/.well-known/openid-configuration'))
    expect(doc.request_parameter_supported).toBe(false)
    expect(doc.request_uri_parameter_supported).toBe(false)
    expect(doc.claims_parameter_supported).toBe(false)
  })

  test('/.well-known/oauth-authorization-server is the same object', async () => {
    const oidc = await json(await app.request('/.well-known/openid-configuration'))
    const rfc8414 = await app.request('/.well-known/oauth-authorization-server')
    expect(rfc8414.headers.get('cache-control')).toBe('public, max-age=300')
    expect(await json(rfc8414)).toEqual(oidc)
  })

  test('oauth4webapi accepted it (issuer checked against the URL it was fetched for); openid-client discovers the server', async () => {
    expect(as.issuer).toBe(ISSUER)
    const config = await client.discovery(new URL(ISSUER), 'ocl_any', undefined, client.None(), { [client.customFetch]: doFetch })
    expect(config.serverMetadata().token_endpoint).toBe(`${ISSUER}/oauth2/token`)
    expect(config.serverMetadata().supportsPKCE()).toBe(true)
  })

  test('a discovery document for another issuer is refused by the client library: the issuer is never taken from the request', async () => {
    const other = new URL('https://other.acme.test')
    await expect(client.discovery(other, 'ocl_any', undefined, client.None(), { [client.customFetch]: doFetch })).rejects.toThrow()
  })
})
