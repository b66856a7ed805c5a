// RP-initiated logout at /oauth2/logout: the browser session ends (with the token sessions it opened for
// clients without offline_access), the cookie is cleared, and the browser goes back only to a
// post_logout_redirect_uri registered, exactly, on the client the id_token_hint (signed by us, expired
// or not) or client_id names; anything else is our "signed out" page. Audited as `logout`.
import { afterAll, describe, expect, test } from 'bun:test'
import { generateKeyPair, SignJWT } from 'jose'
import { makeTestApp } from '../../helpers/app.ts'
import { authorizationUrl, callbackOf, locationOf, oauthBrowser, pageOf, registerClient } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const LOGGED_OUT = 'https://app.example.com/bye'
const { clientId } = await registerClient(app, acme.org.id, { post_logout_redirect_uris: [LOGGED_OUT, 'https://app.example.com/bye?x=1'] })
const other = await registerClient(app, acme.org.id, { post_logout_redirect_uris: ['https://other.example.com/bye'] })
const user = acme.users.agent.user
const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')

/** An ID token as the token endpoint signs them: our key, our issuer, aud = the client. */
async function idToken(claims: Record<string, unknown> = {}) {
  const now = Math.floor(app.clock.now() / 1000)
  const { kid } = await app.context.keys.signer(app.clock.now())
  return app.context.keys.sign(kid, { iss: app.config.authUrl, aud: clientId, sub: user.id, iat: now, exp: now + 300, ...claims })
}

/** A browser signed in (and consented) as the agent; its browser session's id. */
async function signedIn() {
  const browser = oauthBrowser(app)
  const url = authorizationUrl(app, {
    client_id: clientId,
    redirect_uri: 'https://app.example.com/cb',
    response_type: 'code',
    scope: 'openid',
  })
  await browser.authorize(url, { email: user.email, password: PASSWORD, consent: 'allow' })
  const session = await app.context.db.raw.get<{ id: string }>('SELECT id FROM sessions WHERE cookie_hash = ?', [
    sha256(browser.cookies.get('sb_op')!),
  ])
  return { browser, sessionId: session!.id, url }
}

const logoutUrl = (params: Record<string, string>) => `/oauth2/logout?${new URLSearchParams(params)}`
const revokedReason = async (id: string) =>
  (await app.context.db.raw.get<{ revoked_reason: string | null }>('SELECT revoked_reason FROM sessions WHERE id = ?', [id]))!
    .revoked_reason

/** A client's token session opened from the browser session (as the code exchange opens them). */
async function childSession(parent: string, scope: string) {
  const id = `ses_child${Math.random().toString(36).slice(2, 10)}`
  const now = app.clock.now()
  await app.context.db.kysely
    .insertInto('sessions')
    .values({
      id,
      organization_id: acme.org.id,
      user_id: user.id,
      ip: null,
      user_agent: null,
      created_at: now,
      last_used_at: now,
      access_expires_at: now + 900_000,
      expires_at: now + 86_400_000,
      auth_methods: '["pwd"]',
      mfa_enrollment_only: false,
      revoked_at: null,
      revoked_reason: null,
      kind: 'oauth',
      client_id: clientId,
      scope,
      parent_session_id: parent,
      cookie_hash: null,
    })
    .execute()
  return id
}

describe('with an id_token_hint and a registered post_logout_redirect_uri', () => {
  test('ends the session and its online token sessions, clears the cookie, and goes back with state', async () => {
    const { browser, sessionId, url } = await signedIn()
    const online = await childSession(sessionId, 'openid email')
    const offline = await childSession(sessionId, 'openid offline_access')
    const step = await browser.request(
      logoutUrl({ id_token_hint: await idToken({ sid: sessionId }), post_logout_redirect_uri: LOGGED_OUT, state: 'b y' }),
    )
    expect(locationOf(step)).toBe('https://app.example.com/bye?state=b+y')
    expect(step.kind === 'redirect' && step.headers.getSetCookie()).toEqual(['sb_op=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'])
    expect(browser.cookies.has('sb_op')).toBe(false)
    expect([await revokedReason(sessionId), await revokedReason(online), await revokedReason(offline)]).toEqual(['logout', 'logout', null])
    expect(app.context.ports.revocations.isSessionRevoked(online)).toBe(true)
    const audit = await app.context.db.raw.get<{ credential_id: string; target_id: string }>(
      "SELECT credential_id, target_id FROM audit_logs WHERE event = 'logout' AND actor_id = ? ORDER BY seq DESC LIMIT 1",
      [user.id],
    )
    expect(audit).toEqual({ credential_id: sessionId, target_id: sessionId })
    // Signed out: prompt=none can no longer answer silently.
    expect(callbackOf(locationOf(await browser.request(`${url}&prompt=none`))).params.error).toBe('login_required')
  })

  test('an expired hint still names the client; a registered URI with its own query keeps it', async () => {
    const { browser } = await signedIn()
    const expired = await idToken({ iat: 1_000, exp: 2_000 })
    const step = await browser.request(
      logoutUrl({ id_token_hint: expired, post_logout_redirect_uri: 'https://app.example.com/bye?x=1', state: 's' }),
    )
    expect(locationOf(step)).toBe('https://app.example.com/bye?x=1&state=s')
  })

  test('POST works as GET does (303)', async () => {
    const { browser } = await signedIn()
    const step = await browser.request('/oauth2/logout', {
      form: [
        ['id_token_hint', await idToken()],
        ['post_logout_redirect_uri', LOGGED_OUT],
      ],
    })
    expect(step.kind === 'redirect' && [step.status, step.location]).toEqual([303, LOGGED_OUT])
  })
})

describe('no redirect: the signed-out page', () => {
  const signedOutPage = async (params: Record<string, string>) => {
    const { browser, sessionId } = await signedIn()
    const page = pageOf(await browser.request(logoutUrl(params)))
    expect([page.status, page.text]).toEqual([200, expect.stringContaining('You have been signed out')])
    expect(page.headers.get('location')).toBeNull()
    expect(await revokedReason(sessionId)).toBe('logout')
    expect(browser.cookies.has('sb_op')).toBe(false)
  }

  test('a post_logout_redirect_uri not registered on the client, or only almost', async () => {
    await signedOutPage({ id_token_hint: await idToken(), post_logout_redirect_uri: 'https://evil.example/bye' })
    await signedOutPage({ id_token_hint: await idToken(), post_logout_redirect_uri: `${LOGGED_OUT}/` })
    await signedOutPage({ id_token_hint: await idToken(), post_logout_redirect_uri: 'https://other.example.com/bye' })
  })

  test('a hint signed by another key, for another issuer, or garbage', async () => {
    const { privateKey } = await generateKeyPair('RS256')
    const { kid } = await app.context.keys.signer(app.clock.now())
    const forged = await new SignJWT({ iss: app.config.authUrl, aud: clientId, sub: user.id })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
      .sign(privateKey)
    await signedOutPage({ id_token_hint: forged, post_logout_redirect_uri: LOGGED_OUT })
    await signedOutPage({ id_token_hint: await idToken({ iss: 'https://elsewhere.example' }), post_logout_redirect_uri: LOGGED_OUT })
    await signedOutPage({ id_token_hint: 'a.b.c', post_logout_redirect_uri: LOGGED_OUT })
  })

  test("a client_id that is not the hint's audience", async () => {
    await signedOutPage({
      id_token_hint: await idToken(),
      client_id: other.clientId,
      post_logout_redirect_uri: 'https://other.example.com/bye',
    })
  })

  test('without a hint and without a session: the cookie is cleared all the same', async () => {
    const browser = oauthBrowser(app)
    const step = await browser.request('/oauth2/logout')
    const page = pageOf(step)
    expect(page.status).toBe(200)
    expect(page.headers.getSetCookie()).toEqual(['sb_op=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'])
    expect(page.headers.get('x-frame-options')).toBe('DENY')
  })
})

test('client_id instead of a hint names the client', async () => {
  const { browser } = await signedIn()
  expect(
    locationOf(await browser.request(logoutUrl({ client_id: other.clientId, post_logout_redirect_uri: 'https://other.example.com/bye' }))),
  ).toBe('https://other.example.com/bye')
})
