// oauth4webapi, a strict independent client, against the real pages (not codes made by hand): it checks
// `iss` on every authorization response (discovery promises it), reads prompt=none's login_required,
// requires auth_time under max_age, redeems with Basic and a secret full of characters naive decoders
// break on, and sees a changed redirect URI answered by our page, never by a redirect.
import { describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { hashToken } from '../../../src/modules/auth/index.ts'
import { oauthBrowser } from '../../helpers/oauth-browser.ts'
import { PASSWORD } from '../../helpers/seed.ts'
import { ISSUER, REDIRECT, tokenWorld } from './token-helpers.ts'

const { app, acme, as, register, options } = await tokenWorld()
const agent = acme.users.agent.user
const client = await register()
// A secret with `:`, `&`, `+`, `%`, a space and a non-ASCII letter: Basic must form-url-decode both parts (RFC 6749 §2.3.1).
const SECRET = 'p:a&s+s% wörd'
await app.context.db.raw.run('UPDATE oauth_clients SET secret_hash = ? WHERE id = ?', [hashToken(SECRET), client.id])
const oauthClient: oauth.Client = { client_id: client.id }
const basic = oauth.ClientSecretBasic(SECRET)

function authorizationUrl(params: Record<string, string>): string {
  const url = new URL(as.authorization_endpoint!)
  for (const [k, v] of Object.entries({ client_id: client.id, redirect_uri: REDIRECT, response_type: 'code', ...params }))
    url.searchParams.set(k, v)
  return url.href
}

describe('oauth4webapi through the pages', () => {
  test('discovery promises iss on authorization responses; the code flow with PKCE and Basic (special characters) validates', async () => {
    expect(as.authorization_response_iss_parameter_supported).toBe(true)
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const nonce = oauth.generateRandomNonce()
    const url = authorizationUrl({
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const callback = new URL(await oauthBrowser(app).authorize(url, { email: agent.email, password: PASSWORD, consent: 'allow' }))
    const params = oauth.validateAuthResponse(as, oauthClient, callback, state)
    const response = await oauth.authorizationCodeGrantRequest(as, oauthClient, basic, params, REDIRECT, verifier, options)
    const result = await oauth.processAuthorizationCodeResponse(as, oauthClient, response, { expectedNonce: nonce, requireIdToken: true })
    expect(oauth.getValidatedIdTokenClaims(result)!.sub).toBe(agent.id)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  test('prompt=none without a session: login_required, which oauth4webapi reads as an error response carrying our iss', async () => {
    const state = oauth.generateRandomState()
    const step = await oauthBrowser(app).request(authorizationUrl({ scope: 'openid', state, prompt: 'none' }))
    if (step.kind !== 'redirect') throw new Error('expected a redirect to the client')
    const location = new URL(step.location)
    expect(location.searchParams.get('iss')).toBe(ISSUER)
    expect(() => oauth.validateAuthResponse(as, oauthClient, location, state)).toThrow(
      expect.objectContaining({ error: 'login_required' }) as never,
    )
  })

  test('max_age: a fresh sign-in is asked for, and the ID token carries an auth_time oauth4webapi accepts', async () => {
    const browser = oauthBrowser(app)
    await browser.authorize(authorizationUrl({ scope: 'openid', state: 'x' }), { email: agent.email, password: PASSWORD, consent: 'allow' })
    app.clock.advance(5_000)
    const state = oauth.generateRandomState()
    const verifier = oauth.generateRandomCodeVerifier()
    const url = authorizationUrl({
      scope: 'openid',
      state,
      max_age: '1',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    // Signed in 5 s ago, max_age 1: the sign-in page again.
    const first = await browser.request(url)
    expect(first.kind === 'page' && first.page.forms.some((f) => f.action === '/oauth2/auth/sign-in')).toBe(true)
    const callback = new URL(await browser.authorize(url, { email: agent.email, password: PASSWORD, consent: 'allow' }))
    const params = oauth.validateAuthResponse(as, oauthClient, callback, state)
    const response = await oauth.authorizationCodeGrantRequest(as, oauthClient, basic, params, REDIRECT, verifier, options)
    const result = await oauth.processAuthorizationCodeResponse(as, oauthClient, response, { maxAge: 1, requireIdToken: true })
    expect(oauth.getValidatedIdTokenClaims(result)!.auth_time).toBe(Math.floor(app.clock.now() / 1000))
  })

  test('a redirect URI other than the registered one: our error page, never a redirect', async () => {
    for (const redirect of ['https://app.example.com/cb/', 'https://app.example.com/cb?x=1', 'https://evil.example/cb']) {
      const step = await oauthBrowser(app).request(authorizationUrl({ scope: 'openid', state: 's', redirect_uri: redirect }))
      expect(step.kind === 'page' && step.page.status).toBe(400)
    }
  })
})
