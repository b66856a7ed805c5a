// The browser's sign-in session and consent at /oauth2/auth: prompt=none answers without a page,
// prompt=login and max_age force a new sign-in (a new session replaces the cookie), consent is
// remembered per user and client (prompt=consent asks again; Deny is access_denied), a session of
// another organization's or a disabled user counts as none, and the code is stored hashed for 60 s.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { authorizationUrl, callbackOf, oauthBrowser, pageOf, registerClient, type Step } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const REDIRECT = 'https://app.example.com/cb'
const ISS = app.config.authUrl
const SCOPES = ['openid', 'profile', 'email', 'offline_access', 'tickets:read']
const { clientId } = await registerClient(app, acme.org.id, { scopes: SCOPES, grant_types: ['authorization_code', 'refresh_token'] })
const globexClient = await registerClient(app, globex.org.id)

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')
const url = (extra: Record<string, string> = {}, client = clientId) =>
  authorizationUrl(app, { client_id: client, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid email', state: 's', ...extra })

/** A browser signed in as `role` of acme that consented to `scope`. */
async function signedIn(role: 'agent' | 'viewer' | 'supervisor' = 'agent', scope = 'openid email') {
  const browser = oauthBrowser(app)
  const callback = await browser.authorize(url({ scope }), { email: acme.users[role].user.email, password: PASSWORD, consent: 'allow' })
  expect(callbackOf(callback).params.code).toBeDefined()
  return browser
}

function redirectParams(step: Step): Record<string, string> {
  if (step.kind !== 'redirect') throw new Error(`expected a redirect, got the page ${step.page.status} ${step.page.text}`)
  return callbackOf(step.location).params
}

function pageTitle(step: Step): string {
  if (step.kind !== 'page') throw new Error(`expected a page, got a redirect to ${step.location}`)
  return /<h1>([^<]*)<\/h1>/.exec(step.page.html)![1]!
}

const sessionRow = (id: string) =>
  app.context.db.raw.get<{ kind: string; revoked_reason: string | null; created_at: number; cookie_hash: string }>(
    'SELECT kind, revoked_reason, created_at, cookie_hash FROM sessions WHERE id = ?',
    [id],
  )
const codeRow = (code: string) =>
  app.context.db.raw.get<Record<string, unknown>>('SELECT * FROM oauth_codes WHERE code_hash = ?', [sha256(code)])

describe('prompt=none', () => {
  test('without a session: login_required with state and iss, no page and no code', async () => {
    expect(redirectParams(await oauthBrowser(app).request(url({ prompt: 'none' })))).toEqual({
      error: 'login_required',
      error_description: 'The user must sign in',
      state: 's',
      iss: ISS,
    })
  })

  test('signed in and consented: the code at once', async () => {
    const browser = await signedIn()
    expect(redirectParams(await browser.request(url({ prompt: 'none', state: 'silent' })))).toEqual({
      code: expect.any(String),
      state: 'silent',
      iss: ISS,
    })
  })

  test('signed in but the consent does not cover the scopes: consent_required', async () => {
    const browser = await signedIn()
    expect(redirectParams(await browser.request(url({ prompt: 'none', scope: 'openid email tickets:read' })))).toMatchObject({
      error: 'consent_required',
      state: 's',
      iss: ISS,
    })
  })

  test('signed in as a user of another organization than the client: login_required', async () => {
    const browser = oauthBrowser(app)
    const globexUrl = authorizationUrl(app, {
      client_id: globexClient.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
    })
    await browser.authorize(globexUrl, { email: globex.users.agent.user.email, password: PASSWORD })
    expect(redirectParams(await browser.request(`${globexUrl}&prompt=none`)).code).toBeDefined()
    expect(redirectParams(await browser.request(url({ prompt: 'none' })))).toMatchObject({ error: 'login_required' })
  })

  test('signed in as a user disabled since: login_required', async () => {
    const browser = await signedIn('supervisor')
    await app.context.db.raw.run("UPDATE users SET status = 'disabled' WHERE id = ?", [acme.users.supervisor.user.id])
    try {
      expect(redirectParams(await browser.request(url({ prompt: 'none' })))).toMatchObject({ error: 'login_required' })
    } finally {
      await app.context.db.raw.run("UPDATE users SET status = 'active' WHERE id = ?", [acme.users.supervisor.user.id])
    }
  })
  test('signed in, but now from an address the organization does not allow: login_required, the denial audited', async () => {
    const browser = await signedIn('viewer')
    await app.context.db.raw.run('UPDATE organizations SET allowed_ips = ? WHERE id = ?', ['["10.0.0.0/8"]', acme.org.id])
    try {
      expect(redirectParams(await browser.request(url({ prompt: 'none' })))).toMatchObject({ error: 'login_required' })
    } finally {
      await app.context.db.raw.run("UPDATE organizations SET allowed_ips = '[]' WHERE id = ?", [acme.org.id])
    }
    const denied = await app.context.db.raw.get<{ actor_id: string }>(
      "SELECT actor_id FROM audit_logs WHERE event = 'ip.denied' AND organization_id = ?",
      [acme.org.id],
    )
    expect(denied?.actor_id).toBe(acme.users.viewer.user.id)
    expect(redirectParams(await browser.request(url({ prompt: 'none' }))).code).toBeDefined()
  })
})

describe('prompt=login and max_age', () => {
  test('prompt=login shows the sign-in page to a signed-in browser; the new session replaces the old one and its cookie', async () => {
    const browser = await signedIn()
    const before = browser.cookies.get('sb_op')!
    const first = await codeRow(redirectParams(await browser.request(url({ prompt: 'none' }))).code!)
    app.clock.advance(5_000)
    expect(pageTitle(await browser.request(url({ prompt: 'login' })))).toBe('Sign in')
    const callback = await browser.authorize(url({ prompt: 'login' }), { email: acme.users.agent.user.email, password: PASSWORD })
    const after = browser.cookies.get('sb_op')!
    expect(after).not.toBe(before)
    const second = await codeRow(callbackOf(callback).params.code!)
    expect(Number(second!.auth_time)).toBe(Number(first!.auth_time) + 5_000)
    expect((await sessionRow(first!.browser_session_id as string))!.revoked_reason).toBe('replaced')
    expect(await sessionRow(second!.browser_session_id as string)).toMatchObject({
      kind: 'browser',
      revoked_reason: null,
      cookie_hash: sha256(after),
    })
  })

  test('max_age: a sign-in older than it must be done again (prompt=none: login_required); max_age=10000 does not re-prompt', async () => {
    const browser = await signedIn()
    const signedInAt = Number((await codeRow(redirectParams(await browser.request(url({ prompt: 'none' }))).code!))!.auth_time)
    app.clock.advance(2_000)
    expect(redirectParams(await browser.request(url({ max_age: '10000' }))).code).toBeDefined()
    expect(pageTitle(await browser.request(url({ max_age: '1' })))).toBe('Sign in')
    expect(redirectParams(await browser.request(url({ max_age: '1', prompt: 'none' })))).toMatchObject({
      error: 'login_required',
      state: 's',
    })
    expect(pageTitle(await browser.request(url({ max_age: '0' })))).toBe('Sign in')
    const callback = await browser.authorize(url({ max_age: '1' }), { email: acme.users.agent.user.email, password: PASSWORD })
    const authTime = Number((await codeRow(callbackOf(callback).params.code!))!.auth_time)
    expect(authTime).toBe(app.clock.now())
    expect(authTime).toBeGreaterThan(signedInAt)
  })
})

describe('consent', () => {
  test('remembered per user and client: the second request skips the page; the grant is saved in scope order', async () => {
    const browser = oauthBrowser(app)
    const first = pageOf(await browser.request(url({ scope: 'email tickets:read openid' })))
    const consentPage = await browser.submit(first, { email: acme.users.viewer.user.email, password: PASSWORD })
    expect(pageTitle(consentPage)).toBe('Allow access?')
    const text = pageOf(consentPage).text
    for (const words of [
      'Confirm your identity',
      'See your e-mail address',
      'Read tickets',
      'Helpdesk dashboard',
      acme.users.viewer.user.email,
    ])
      expect(text).toContain(words)
    const allowed = await browser.submit(pageOf(consentPage), {}, ['decision', 'allow'])
    expect(allowed.kind === 'redirect' && allowed.status).toBe(303)
    const grant = await app.context.db.raw.get<{ id: string; scope: string }>(
      'SELECT id, scope FROM oauth_grants WHERE user_id = ? AND client_id = ?',
      [acme.users.viewer.user.id, clientId],
    )
    expect(grant).toEqual({ id: expect.stringMatching(/^ogr_/), scope: 'openid email tickets:read' })
    expect(redirectParams(await browser.request(url({ scope: 'tickets:read openid' }))).code).toBeDefined()
    const audit = await app.context.db.raw.get<{ details: string }>(
      "SELECT details FROM audit_logs WHERE event = 'oauth.consent.granted' AND actor_id = ? ORDER BY seq DESC LIMIT 1",
      [acme.users.viewer.user.id],
    )
    expect(JSON.parse(audit!.details)).toMatchObject({ client_id: clientId, grant_id: grant!.id, granted: 'openid email tickets:read' })
  })

  test('prompt=consent asks again though remembered; a revoked grant is asked again', async () => {
    const browser = await signedIn()
    expect(pageTitle(await browser.request(url({ prompt: 'consent' })))).toBe('Allow access?')
    await app.context.db.raw.run('UPDATE oauth_grants SET revoked_at = ? WHERE user_id = ? AND client_id = ?', [
      app.clock.now(),
      acme.users.agent.user.id,
      clientId,
    ])
    expect(pageTitle(await browser.request(url()))).toBe('Allow access?')
    expect(redirectParams(await browser.request(url({ prompt: 'none' }))).error).toBe('consent_required')
  })

  test('Deny: access_denied with state and iss, nothing remembered, audited', async () => {
    const browser = oauthBrowser(app)
    const callback = await browser.authorize(url({ scope: 'openid profile', state: 'no' }), {
      email: acme.users.admin.user.email,
      password: PASSWORD,
      consent: 'deny',
    })
    expect(callbackOf(callback)).toEqual({
      uri: REDIRECT,
      params: { error: 'access_denied', error_description: 'The user denied access', state: 'no', iss: ISS },
    })
    expect(await app.context.db.raw.get('SELECT id FROM oauth_grants WHERE user_id = ?', [acme.users.admin.user.id])).toBeUndefined()
    const denied = await app.context.db.raw.get<{ n: number }>(
      "SELECT count(*) AS n FROM audit_logs WHERE event = 'oauth.consent.denied' AND actor_id = ?",
      [acme.users.admin.user.id],
    )
    expect(Number(denied!.n)).toBe(1)
  })
})

describe('the code', () => {
  test('32 random bytes, stored only as its SHA-256, valid 60 s, bound to what the request said and to the sign-in', async () => {
    const browser = await signedIn()
    const params = redirectParams(
      await browser.request(
        url({
          scope: 'email openid',
          nonce: 'n-0S6_WzA2Mj',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }),
      ),
    )
    expect(params.code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await app.context.db.raw.get('SELECT code_hash FROM oauth_codes WHERE code_hash = ?', [params.code!])).toBeUndefined()
    const row = (await codeRow(params.code!))!
    const session = await app.context.db.raw.get<{ id: string; created_at: number }>(
      "SELECT id, created_at FROM sessions WHERE cookie_hash = ? AND kind = 'browser'",
      [sha256(browser.cookies.get('sb_op')!)],
    )
    const numbers = { created_at: Number(row.created_at), expires_at: Number(row.expires_at), auth_time: Number(row.auth_time) }
    expect({ ...row, ...numbers } as Record<string, unknown>).toEqual({
      code_hash: sha256(params.code!),
      organization_id: acme.org.id,
      client_id: clientId,
      user_id: acme.users.agent.user.id,
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      nonce: 'n-0S6_WzA2Mj',
      browser_session_id: session!.id,
      auth_time: Number(session!.created_at),
      auth_methods: '["pwd"]',
      created_at: app.clock.now(),
      expires_at: app.clock.now() + 60_000,
      consumed_at: null,
      session_id: null,
    })
  })

  test('two codes of the same request differ', async () => {
    const browser = await signedIn()
    const a = redirectParams(await browser.request(url({ prompt: 'none' }))).code
    const b = redirectParams(await browser.request(url({ prompt: 'none' }))).code
    expect(a).not.toBe(b)
  })
})
