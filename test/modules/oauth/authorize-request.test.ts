// GET|POST /oauth2/auth, the request itself: a bad client or redirect URI is our own 400 page and never a
// redirect; every other problem goes back to the client as an RFC 6749 error with state and iss;
// unknown parameters are ignored, scope order does not matter, PKCE is S256 only (required for public
// clients), and every refusal sent to a client is in the audit log.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { authorizationUrl, callbackOf, oauthBrowser, registerClient, type Step } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const REDIRECT = 'https://app.example.com/cb'
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
const confidential = await registerClient(app, acme.org.id, {
  redirect_uris: [REDIRECT, 'https://app.example.com/cb?tenant=7', 'http://127.0.0.1/native'],
  scopes: ['openid', 'profile', 'email', 'tickets:read'],
})
const publicClient = await registerClient(app, acme.org.id, { client_type: 'public', redirect_uris: ['com.example.app:/cb'] })
const noCodeGrant = await registerClient(app, acme.org.id, { grant_types: ['client_credentials'] })
const ISS = app.config.authUrl

const base = (extra: Record<string, string> = {}) => ({
  client_id: confidential.clientId,
  redirect_uri: REDIRECT,
  response_type: 'code',
  scope: 'openid email',
  state: 'st-1',
  ...extra,
})
const without = (name: string, extra: Record<string, string> = {}) => {
  const params: Record<string, string> = base(extra)
  delete params[name]
  return params
}

async function open(params: Record<string, string> | string): Promise<Step> {
  const url = typeof params === 'string' ? params : authorizationUrl(app, params)
  return oauthBrowser(app).request(url)
}

/** Asserts a redirect to the client carrying `error`, state and iss; returns its parameters. */
async function expectRefusal(params: Record<string, string> | string, error: string, state: string | null = 'st-1') {
  const step = await open(params)
  if (step.kind !== 'redirect') throw new Error(`expected a redirect, got the page ${step.page.status} ${step.page.text}`)
  expect(step.status).toBe(302)
  const { params: answer } = callbackOf(step.location)
  expect(answer).toMatchObject({ error, iss: ISS })
  expect(answer.state).toBe(state ?? (undefined as unknown as string))
  expect(answer.code).toBeUndefined()
  // RFC 6749's charset: printable ASCII without `"` and `\`.
  expect(answer.error_description).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/)
  return answer
}

/** Asserts our own 400 page, with no Location anywhere. */
async function expectErrorPage(params: Record<string, string> | string, says: string) {
  const step = await open(params)
  if (step.kind !== 'page') throw new Error(`expected a page, got a redirect to ${step.location}`)
  expect(step.page.status).toBe(400)
  expect(step.page.headers.get('location')).toBeNull()
  expect(step.page.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(step.page.text).toContain(says)
}

describe('the client and the redirect URI are checked first: an error page, never a redirect', () => {
  test('client_id missing, unknown, or of the right shape but deleted', async () => {
    await expectErrorPage(without('client_id'), 'client_id is missing')
    await expectErrorPage(base({ client_id: 'ocl_01KAX3M6W9P8T2V5G7H4J3C1QZ' }), 'not registered')
    await expectErrorPage(base({ client_id: 'x'.repeat(5000) }), 'not registered')
  })

  test('redirect_uri missing, unregistered, altered or with a fragment: even with every other parameter wrong too', async () => {
    await expectErrorPage(without('redirect_uri'), 'redirect_uri is missing')
    await expectErrorPage(base({ redirect_uri: 'https://evil.example/cb' }), 'not one registered')
    await expectErrorPage(base({ redirect_uri: `${REDIRECT}/` }), 'not one registered')
    await expectErrorPage(base({ redirect_uri: `${REDIRECT}?x=1` }), 'not one registered')
    await expectErrorPage(base({ redirect_uri: `${REDIRECT}#frag` }), 'not one registered')
    await expectErrorPage(base({ redirect_uri: 'https://evil.example/cb', response_type: 'token', scope: 'nope' }), 'not one registered')
  })

  test('client_id or redirect_uri sent twice', async () => {
    await expectErrorPage(
      `${authorizationUrl(app, base())}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
      'more than once',
    )
    await expectErrorPage(`${authorizationUrl(app, base())}&client_id=${publicClient.clientId}`, 'more than once')
  })

  test('a loopback redirect URI may use any port (RFC 8252), nothing else may differ', async () => {
    const step = await open(base({ redirect_uri: 'http://127.0.0.1:51234/native', response_type: 'id_token' }))
    expect(step.kind === 'redirect' && step.location.startsWith('http://127.0.0.1:51234/native?error=unsupported_response_type')).toBe(true)
    await expectErrorPage(base({ redirect_uri: 'http://127.0.0.1:51234/other' }), 'not one registered')
    await expectErrorPage(base({ redirect_uri: 'http://localhost:51234/native' }), 'not one registered')
  })
})

describe('errors after that go back to the client, with state and iss', () => {
  test('response_type missing: invalid_request; anything but code: unsupported_response_type', async () => {
    await expectRefusal(without('response_type'), 'invalid_request')
    await expectRefusal(base({ response_type: 'token' }), 'unsupported_response_type')
    await expectRefusal(base({ response_type: 'code id_token' }), 'unsupported_response_type')
  })

  test('request and request_uri are refused as unsupported, never ignored', async () => {
    await expectRefusal(base({ request: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.' }), 'request_not_supported')
    await expectRefusal(base({ request_uri: 'https://app.example.com/request.jwt' }), 'request_uri_not_supported')
  })

  test('scope: missing, unknown, or not registered for this client: invalid_scope', async () => {
    await expectRefusal(without('scope'), 'invalid_scope')
    await expectRefusal(base({ scope: 'openid admin' }), 'invalid_scope')
    const answer = await expectRefusal(base({ scope: 'openid offline_access' }), 'invalid_scope')
    expect(answer.error_description).toContain('offline_access')
  })

  test('PKCE: plain, a missing or unknown method, a bad length or alphabet: invalid_request', async () => {
    await expectRefusal(base({ code_challenge: CHALLENGE, code_challenge_method: 'plain' }), 'invalid_request')
    await expectRefusal(base({ code_challenge: CHALLENGE }), 'invalid_request')
    await expectRefusal(base({ code_challenge: CHALLENGE, code_challenge_method: 'S512' }), 'invalid_request')
    await expectRefusal(base({ code_challenge_method: 'S256' }), 'invalid_request')
    await expectRefusal(base({ code_challenge: CHALLENGE.slice(0, 42), code_challenge_method: 'S256' }), 'invalid_request')
    await expectRefusal(base({ code_challenge: 'a'.repeat(129), code_challenge_method: 'S256' }), 'invalid_request')
    await expectRefusal(base({ code_challenge: `${CHALLENGE.slice(0, 42)}=`, code_challenge_method: 'S256' }), 'invalid_request')
  })

  test('a public client must send a challenge; with one it gets the sign-in page', async () => {
    const params = {
      client_id: publicClient.clientId,
      redirect_uri: 'com.example.app:/cb',
      response_type: 'code',
      scope: 'openid',
      state: 'st-1',
    }
    const answer = await expectRefusal(params, 'invalid_request')
    expect(answer.error_description).toContain('public client')
    const step = await open({ ...params, code_challenge: CHALLENGE, code_challenge_method: 'S256' })
    expect(step.kind === 'page' && step.page.status).toBe(200)
  })

  test('a client not registered for the authorization code grant: unauthorized_client', async () => {
    await expectRefusal(base({ client_id: noCodeGrant.clientId }), 'unauthorized_client')
  })

  test('max_age that is not a non-negative integer, prompt=none with another prompt, response_mode other than query', async () => {
    for (const max_age of ['-1', '1.5', 'soon', '99999999999']) await expectRefusal(base({ max_age }), 'invalid_request')
    await expectRefusal(base({ prompt: 'none login' }), 'invalid_request')
    await expectRefusal(base({ response_mode: 'form_post' }), 'invalid_request')
  })

  test('another parameter sent twice: invalid_request', async () => {
    await expectRefusal(`${authorizationUrl(app, base())}&scope=openid`, 'invalid_request')
  })

  test('without state the redirect has none; iss is always there', async () => {
    const answer = await expectRefusal(without('state', { response_type: 'token' }), 'unsupported_response_type', null)
    expect('state' in answer).toBe(false)
  })

  test('state comes back byte for byte, and the redirect URI keeps its own query', async () => {
    const state = 'a b&c=d/é?%'
    const step = await open(base({ state, redirect_uri: 'https://app.example.com/cb?tenant=7', response_type: 'token' }))
    if (step.kind !== 'redirect') throw new Error('expected a redirect')
    expect(step.location.startsWith('https://app.example.com/cb?tenant=7&error=unsupported_response_type&')).toBe(true)
    expect(callbackOf(step.location).params).toMatchObject({ tenant: '7', state, iss: ISS })
  })

  test('each refusal sent to a client is audited as oauth.authorize.refused with its error; our error pages are not', async () => {
    const audited = async () =>
      app.context.db.raw.all<{ reason: string; target_id: string; details: string }>(
        "SELECT reason, target_id, details FROM audit_logs WHERE event = 'oauth.authorize.refused' AND organization_id = ? ORDER BY seq",
        [acme.org.id],
      )
    const before = (await audited()).length
    await expectRefusal(base({ response_type: 'token' }), 'unsupported_response_type')
    await expectRefusal(base({ client_id: noCodeGrant.clientId }), 'unauthorized_client')
    await expectErrorPage(base({ redirect_uri: 'https://evil.example/cb' }), 'not one registered')
    const rows = (await audited()).slice(before)
    expect(rows.map((r) => [r.reason, r.target_id, JSON.parse(r.details).error])).toEqual([
      ['unsupported_response_type', confidential.clientId, 'unsupported_response_type'],
      ['unauthorized_client', noCodeGrant.clientId, 'unauthorized_client'],
    ])
  })
})

describe('what is accepted', () => {
  const signIn = { email: acme.users.agent.user.email, password: PASSWORD }

  test('unknown parameters, display, ui_locales, claims_locales, acr_values, id_token_hint and claims are ignored', async () => {
    const extra = {
      foo: 'bar',
      display: 'popup',
      ui_locales: 'fr-CA fr',
      claims_locales: 'fr',
      acr_values: 'urn:mace:incommon:iap:silver',
      id_token_hint: 'not.a.token',
      claims: '{"userinfo":{"name":{"essential":true}}}',
    }
    const callback = await oauthBrowser(app).authorize(authorizationUrl(app, base(extra)), { ...signIn, consent: 'allow' })
    expect(callbackOf(callback).params).toEqual({ code: expect.any(String), state: 'st-1', iss: ISS })
  })

  test('login_hint fills in the e-mail address', async () => {
    const step = await open(base({ login_hint: 'someone@acme.test' }))
    if (step.kind !== 'page') throw new Error('expected the sign-in page')
    expect(step.page.forms[0]!.fields).toContainEqual(['email', 'someone@acme.test'])
  })

  test('scope order and repeated scopes do not matter; nonce is optional', async () => {
    const browser = oauthBrowser(app)
    const callback = await browser.authorize(authorizationUrl(app, base({ scope: 'email openid email' })), { ...signIn, consent: 'allow' })
    expect(callbackOf(callback).params.code).toBeDefined()
  })

  test('POST /oauth2/auth, form-encoded, works as GET does (303 to the client)', async () => {
    const browser = oauthBrowser(app)
    await browser.authorize(authorizationUrl(app, base()), { ...signIn, consent: 'allow' })
    const step = await browser.request('/oauth2/auth', { form: Object.entries(base({ state: 'posted' })) })
    if (step.kind !== 'redirect') throw new Error('expected a redirect')
    expect(step.status).toBe(303)
    expect(callbackOf(step.location).params).toMatchObject({ code: expect.any(String), state: 'posted', iss: ISS })
    const refused = await browser.request('/oauth2/auth', { form: Object.entries(without('response_type')) })
    expect(refused.kind === 'redirect' && callbackOf(refused.location).params.error).toBe('invalid_request')
    const twice = await browser.request('/oauth2/auth', { form: [...Object.entries(base()), ['scope', 'openid']] })
    expect(twice.kind === 'redirect' && callbackOf(twice.location).params).toMatchObject({ error: 'invalid_request', state: 'st-1' })
  })

  test('pure OAuth without openid is allowed', async () => {
    const callback = await oauthBrowser(app).authorize(authorizationUrl(app, base({ scope: 'tickets:read' })), {
      ...signIn,
      consent: 'allow',
    })
    expect(callbackOf(callback).params.code).toBeDefined()
  })
})

describe('hostile input is a 4xx, never a 500', () => {
  test('control characters in client_id, nonce, state and login_hint', async () => {
    await expectErrorPage(base({ client_id: 'ocl_\u0001x' }), 'not registered')
    const answer = await expectRefusal(base({ nonce: 'n\u0001' }), 'invalid_request')
    expect(answer.error_description).toContain('nonce')
    await expectRefusal(base({ nonce: 'x'.repeat(513) }), 'invalid_request')
    const step = await open(base({ state: 'a\u0001b\r\n', response_type: 'token' }))
    expect(callbackOf((step as { location: string }).location).params.state).toBe('a\u0001b\r\n')
    const page = await open(base({ login_hint: 'a\u0001@acme.test' }))
    expect(page.kind === 'page' && page.page.forms[0]!.fields).toContainEqual(['email', 'a@acme.test'])
  })

  test('a control character (NUL included: PostgreSQL text cannot hold it) is never a 500: an unknown client or e-mail, a bad nonce, no redirect on logout', async () => {
    const browser = oauthBrowser(app)
    const step = await browser.request(authorizationUrl(app, base()))
    if (step.kind !== 'page') throw new Error('expected the sign-in page')
    for (const email of ['agent@acme.test\u0001', 'agent@acme.test\u0000']) {
      const wrong = await browser.submit(step.page, { email, password: PASSWORD })
      expect(wrong.kind === 'page' && wrong.page.status).toBe(401)
    }
    const unknownClient = await browser.request(authorizationUrl(app, base({ client_id: 'ocl_\u0000x' })))
    expect(unknownClient.kind === 'page' && unknownClient.page.status).toBe(400)
    const badNonce = await browser.request(authorizationUrl(app, base({ nonce: 'n\u0000' })))
    expect(badNonce.kind === 'redirect' && callbackOf(badNonce.location).params.error).toBe('invalid_request')
    const logout = await browser.request('/oauth2/logout?client_id=%00&post_logout_redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb')
    expect(logout.kind === 'page' && logout.page.status).toBe(200)
  })
})
