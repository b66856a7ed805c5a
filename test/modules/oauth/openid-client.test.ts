// The authorization server as a stock certified client sees it: openid-client drives discovery, the
// authorization code flow with PKCE (our cookie-keeping browser fills the sign-in, MFA and consent
// pages), the token exchange with ID-token validation, userinfo, refresh, client credentials,
// introspection, revocation and RP-initiated logout; jose checks every ID token from the JWKS alone.
import { afterAll, describe, expect, test } from 'bun:test'
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose'
import * as client from 'openid-client'
import { makeTestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { callbackOf, oauthBrowser, registerClient } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { stepOf, totpForStep } from '../../helpers/totp.ts'
import { enrollTotp, freshOrg } from '../mfa/helpers.ts'

// openid-client checks iat and exp against the real time: the app's clock starts there.
const app = await makeTestApp({}, { clock: new FakeClock(Date.now()) })
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const ISSUER = new URL(app.config.authUrl)
const REDIRECT = 'https://app.example.com/cb'
const LOGGED_OUT = 'https://app.example.com/bye'
const agent = acme.users.agent.user

/** openid-client's requests go through the app in-process, as they would over the network. */
const inProcess = async (url: string, init: RequestInit) => {
  const response = await app.app.handle(new Request(url, init))
  await new Promise((resolve) => setImmediate(resolve))
  return response
}
const options = { execute: [client.allowInsecureRequests], [client.customFetch]: inProcess }
const jwks = createRemoteJWKSet(new URL(`${app.config.authUrl}/.well-known/jwks.json`), { [customFetch]: inProcess })

const confidential = await registerClient(app, acme.org.id, {
  scopes: ['openid', 'profile', 'email', 'offline_access', 'tickets:read'],
  grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
  post_logout_redirect_uris: [LOGGED_OUT],
})
const spa = await registerClient(app, acme.org.id, {
  name: 'Agent console',
  client_type: 'public',
  scopes: ['openid', 'email', 'tickets:read'],
})

async function discover(clientId: string, secret: string | null, auth: client.ClientAuth) {
  return client.discovery(ISSUER, clientId, secret ?? undefined, auth, options)
}

/** One walk through the pages; returns the callback URL and the checks to redeem it with. */
async function authorize(
  config: client.Configuration,
  scope: string,
  answers: Parameters<ReturnType<typeof oauthBrowser>['authorize']>[1],
  extra: Record<string, string> = {},
) {
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  })
  const browser = oauthBrowser(app)
  const callback = new URL(await browser.authorize(url.href, answers))
  return { browser, callback, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true } }
}

async function verifyIdToken(idToken: string, audience: string) {
  const { payload, protectedHeader } = await jwtVerify(idToken, jwks, { issuer: app.config.authUrl, audience, algorithms: ['RS256'] })
  expect(protectedHeader.kid).toBeString()
  return payload
}

const api = (token: string, path: string, init: RequestInit = {}) =>
  app.request(path, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } })

describe('a confidential client with client_secret_basic', () => {
  test('discovery, code + PKCE + nonce, ID token, userinfo, the API within the scopes, code replay', async () => {
    const config = await discover(confidential.clientId, confidential.secret, client.ClientSecretBasic(confidential.secret!))
    expect(config.serverMetadata().issuer).toBe(app.config.authUrl)
    const { callback, checks } = await authorize(config, 'openid profile email offline_access tickets:read', {
      email: agent.email,
      password: PASSWORD,
      consent: 'allow',
    })
    expect(callback.searchParams.get('iss')).toBe(app.config.authUrl)
    const tokens = await client.authorizationCodeGrant(config, callback, checks)
    expect(tokens.token_type).toBe('bearer')
    expect(tokens.expires_in).toBeGreaterThan(0)
    expect(tokens.refresh_token).toBeString()
    const claims = tokens.claims()!
    expect(claims.sub).toBe(agent.id)
    expect(claims.aud).toBe(confidential.clientId)
    expect(claims.nonce).toBe(checks.expectedNonce)
    expect(claims.auth_time).toBeNumber()
    expect(claims.at_hash).toBeString()
    expect(claims.sid).toBeString()
    const verified = await verifyIdToken(tokens.id_token!, confidential.clientId)
    expect(verified.sub).toBe(agent.id)

    const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
    expect(userinfo).toMatchObject({ sub: agent.id, email: agent.email, email_verified: expect.any(Boolean), name: agent.name })

    // tickets:read: listing works, creating is beyond the granted scopes.
    expect((await api(tokens.access_token, '/api/v1/tickets')).status).toBe(200)
    const create = await api(tokens.access_token, '/api/v1/tickets', { method: 'POST', body: JSON.stringify({ subject: 'x' }) })
    expect(create.status).toBe(403)

    // The same code again: invalid_grant, and the tokens it minted are dead.
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({ error: 'invalid_grant' })
    expect((await api(tokens.access_token, '/api/v1/tickets')).status).toBe(401)
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  test('refresh rotates; a used refresh token kills the family; introspection and revocation', async () => {
    const config = await discover(confidential.clientId, confidential.secret, client.ClientSecretBasic(confidential.secret!))
    const { callback, checks } = await authorize(config, 'openid offline_access tickets:read', {
      email: agent.email,
      password: PASSWORD,
      consent: 'allow',
    })
    const first = await client.authorizationCodeGrant(config, callback, checks)
    const second = await client.refreshTokenGrant(config, first.refresh_token!)
    expect(second.refresh_token).not.toBe(first.refresh_token)
    const idClaims = second.claims()
    if (idClaims) {
      const original = first.claims()!
      for (const claim of ['iss', 'sub', 'aud', 'auth_time', 'sid'] as const) expect(idClaims[claim]).toEqual(original[claim])
    }
    const active = await client.tokenIntrospection(config, second.access_token)
    expect(active).toMatchObject({ active: true, client_id: confidential.clientId, sub: agent.id })
    expect(active.scope?.split(' ')).toContain('tickets:read')

    await expect(client.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(client.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
    expect((await client.tokenIntrospection(config, second.access_token)).active).toBe(false)
  })

  test('revocation of an access token, then RP-initiated logout back to the registered address', async () => {
    const config = await discover(confidential.clientId, confidential.secret, client.ClientSecretBasic(confidential.secret!))
    const { browser, callback, checks } = await authorize(config, 'openid email', {
      email: agent.email,
      password: PASSWORD,
      consent: 'allow',
    })
    const tokens = await client.authorizationCodeGrant(config, callback, checks)
    expect(tokens.refresh_token).toBeUndefined()
    await client.tokenRevocation(config, tokens.access_token)
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false)
    expect((await api(tokens.access_token, '/api/v1/me')).status).toBe(401)

    const logout = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: LOGGED_OUT,
      state: 'bye',
    })
    const step = await browser.request(logout.href)
    expect(step.kind).toBe('redirect')
    expect(step.kind === 'redirect' && callbackOf(step.location)).toEqual({ uri: LOGGED_OUT, params: { state: 'bye' } })
    // Signed out: prompt=none now answers login_required.
    const again = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', prompt: 'none', state: 's' })
    const silent = await browser.request(again.href)
    expect(silent.kind === 'redirect' && callbackOf(silent.location).params.error).toBe('login_required')
  })

  test('max_age: openid-client requires and checks auth_time', async () => {
    const config = await discover(confidential.clientId, confidential.secret, client.ClientSecretBasic(confidential.secret!))
    const { callback, checks } = await authorize(
      config,
      'openid',
      { email: agent.email, password: PASSWORD, consent: 'allow' },
      { max_age: '600' },
    )
    const tokens = await client.authorizationCodeGrant(config, callback, { ...checks, maxAge: 600 })
    expect(tokens.claims()!.auth_time).toBeNumber()
  })
})

describe('other client authentications and grants', () => {
  test('client_secret_post: the code flow too', async () => {
    const config = await discover(confidential.clientId, confidential.secret, client.ClientSecretPost(confidential.secret!))
    const { callback, checks } = await authorize(config, 'email openid', { email: agent.email, password: PASSWORD, consent: 'allow' })
    const tokens = await client.authorizationCodeGrant(config, callback, checks)
    await verifyIdToken(tokens.id_token!, confidential.clientId)
  })

  test('a public client (none) with PKCE, after TOTP on the MFA page', async () => {
    const org = await freshOrg(app, 'mfa-e2e')
    const { secret } = await enrollTotp(app, org.users.agent.auth)
    const mobile = await registerClient(app, org.org.id, { client_type: 'public', scopes: ['openid', 'email'] })
    const config = await discover(mobile.clientId, null, client.None())
    const { callback, checks } = await authorize(config, 'openid email', {
      email: org.users.agent.user.email,
      password: PASSWORD,
      // The enrollment used this 30-second step's code (a step is accepted once): the next one, within the window.
      code: () => totpForStep(secret, stepOf(app.clock.now()) + 1),
      consent: 'allow',
    })
    const tokens = await client.authorizationCodeGrant(config, callback, checks)
    const claims = await verifyIdToken(tokens.id_token!, mobile.clientId)
    expect(claims.amr).toEqual(expect.arrayContaining(['pwd', 'otp']))
  })

  test('client_credentials: sub is the client, permissions within the scopes, no refresh token', async () => {
    const config = await discover(confidential.clientId, confidential.secret, client.ClientSecretPost(confidential.secret!))
    const tokens = await client.clientCredentialsGrant(config, { scope: 'tickets:read' })
    expect(tokens.refresh_token).toBeUndefined()
    expect(tokens.id_token).toBeUndefined()
    const introspected = await client.tokenIntrospection(config, tokens.access_token)
    expect(introspected).toMatchObject({ active: true, sub: confidential.clientId, client_id: confidential.clientId })
    expect((await api(tokens.access_token, '/api/v1/tickets')).status).toBe(200)
    const create = await api(tokens.access_token, '/api/v1/tickets', { method: 'POST', body: JSON.stringify({ subject: 'x' }) })
    expect(create.status).toBe(403)
  })

  test('the public client registered for the console gets no client_credentials', async () => {
    const config = await discover(spa.clientId, null, client.None())
    await expect(client.clientCredentialsGrant(config, { scope: 'tickets:read' })).rejects.toMatchObject({
      error: expect.stringMatching(/^(unauthorized_client|invalid_client)$/),
    })
  })
})
