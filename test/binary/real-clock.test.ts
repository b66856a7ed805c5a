// Time-driven behaviours on the compiled binary and the real clock (fake clocks hid a real-time bug
// once): one server with the shortest settings allowed; every scenario is set up first, then ONE wait of
// about a minute, then each is checked in its own test: access-token expiry, mfa_token expiry, page-token
// expiry, the unauthenticated rate window and its Retry-After, ticket auto-close by the binary's own cron,
// SESSION_MAX_AGE (a refresh halfway works, one after the end does not), the session limit no longer
// counting an ended session, auth_cleanup and mfa_cleanup deleting what has expired, and an OAuth authorization code and
// browser session expiring (and oauth_cleanup deleting the code), and an Idempotency-Key past its 24 hours.
// Tickets and MFA challenges keep days and an hour: the test moves their recorded times to just before the
// threshold, and the real clock carries them over it. About 65 s in all.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type DataDirDb, openDataDirDb } from '../helpers/data-dir-db.ts'
import { startServer, type RunningServer } from '../helpers/process.ts'
import { callbackOf, OAuthBrowser } from '../helpers/oauth-browser.ts'
import { stepOf, totpForStep } from '../helpers/totp.ts'

const folder = tempDir('switchboard-real-clock-')
const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
/** Gets past each expiry: the cron runs every second, a JWT's exp is in whole seconds. */
const MARGIN_MS = 2_500

const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@real-clock.test',
  ADMIN_PASSWORD: 'real-clock-test-password',
  ACCESS_TOKEN_TTL: '60',
  SESSION_MAX_AGE: '60',
  MFA_TOKEN_TTL: '60',
  PAGE_TOKEN_TTL: '60',
  UNAUTH_PER_MINUTE: '3',
  TICKET_AUTO_CLOSE_DAYS: '1',
  TICKET_AUTO_CLOSE_INTERVAL: '1',
  AUTH_CLEANUP_INTERVAL: '1',
  CRON_TICK_MS: '100',
  // Requests name their client address (X-Forwarded-For), so only the rate scenario spends the
  // unauthenticated budget of 3 a minute of its address.
  TRUSTED_PROXIES: '127.0.0.1',
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>
interface Reply {
  status: number
  headers: Headers
  body: Json
}

let server: RunningServer
let db: DataDirDb

/** A request from client address `ip`, with `token` as bearer if given. */
async function call(
  ip: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'x-forwarded-for': ip, ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} }
}

async function expectStatus(reply: Promise<Reply>, status: number): Promise<Json> {
  const got = await reply
  expect({ status: got.status, body: got.body }).toMatchObject({ status })
  return got.body
}

const login = (ip: string, email: string, password: string) => call(ip, 'POST', '/api/v1/auth/login', { body: { email, password } })
const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; jti: string; sid?: string }
const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')
const count = async (sql: string, ...params: (string | number)[]) => Number((await db.get<{ n: number }>(sql, params))!.n)

// After the wait the admin signs in once more, and every check shares that session: under the
// organization's limit of one session per user, a second sign-in would be refused.
let adminAfter: Promise<string> | undefined
const adminAfterWait = () =>
  (adminAfter ??= expectStatus(login(fresh(), env.ADMIN_EMAIL, env.ADMIN_PASSWORD), 200).then((body) => body.access_token as string))

/** What the setup leaves for the checks; every time is the test's own clock, in ms. */
const s = {} as {
  admin: { access: string; refresh: string; accessExpiresAt: number }
  loggedOut: { jti: string; expiresAt: number }
  mfa: { email: string; password: string; secret: string; lateToken: string; lateExpiresAt: number; agedChallengeId: string }
  page: { token: string; expiresAt: number }
  tickets: { crossing: string; control: string; crossesAt: number }
  limited: { email: string; password: string; endsAt: number }
  refresher: { endsAt: number; halfway: Promise<Reply> }
  rate: Promise<{ refused: Reply; early: Reply | undefined; late: Reply; retryAfterS: number }>
  oauth: { browser: OAuthBrowser; clientId: string; secret: string; code: string; codeExpiresAt: number; signedInAt: number }
  idempotency: { email: string; password: string; firstTicket: string; expiresAt: number }
}

const CALLBACK = 'https://app.example.com/cb'

/** The authorization server's pages in a cookie-keeping browser; each request from a new client address. */
function oauthBrowserOf(base: string): OAuthBrowser {
  const origin = new URL(base).origin
  const fetcher = (url: string, init: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': fresh() } })
  return new OAuthBrowser(fetcher, (u) => u.origin === origin, base)
}

/** The token endpoint, with client_secret_basic. */
async function exchange(clientId: string, secret: string, code: string): Promise<Reply> {
  const response = await fetch(`${server.url}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`)}`,
      'x-forwarded-for': fresh(),
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }).toString(),
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json }
}

/** Every public route counts against the client address: each request but the rate scenario's comes from a new one. */
let addresses = 0
const fresh = () => `198.51.100.${++addresses}`
const RATE_IP = '203.0.113.4'

/**
 * Exhausts the unauthenticated budget of RATE_IP, then probes on the real clock: a second before
 * Retry-After runs out, still refused; once it has, accepted. Runs alongside the other scenarios' wait.
 */
async function rateScenario() {
  // Windows are aligned to whole minutes: in a minute's last seconds Retry-After would be too short to
  // probe before it, so start just after the next minute instead.
  const intoMinute = Date.now() % 60_000
  if (intoMinute > 55_000) await Bun.sleep(60_500 - intoMinute)
  for (let i = 0; i < 3; i++) await expectStatus(call(RATE_IP, 'GET', '/api/v1/no-such-route'), 404)
  const sentAt = Date.now()
  const refused = await call(RATE_IP, 'GET', '/api/v1/no-such-route')
  const retryAfterS = Number(refused.headers.get('retry-after'))
  let early: Reply | undefined
  if (retryAfterS >= 3) {
    await Bun.sleep(sentAt + (retryAfterS - 2) * 1000 - Date.now())
    early = await call(RATE_IP, 'GET', '/api/v1/no-such-route')
  }
  await Bun.sleep(Math.max(0, sentAt + retryAfterS * 1000 + 200 - Date.now()))
  const late = await call(RATE_IP, 'GET', '/api/v1/no-such-route')
  return { refused, early, late, retryAfterS }
}

describe('real clock, shortest settings (one binary, one wait of about a minute)', () => {
  beforeAll(async () => {
    const binary = await compiledBinary()
    server = await startServer([binary], env, folder)
    db = await openDataDirDb(env.DATA_DIR)
    s.rate = rateScenario()

    // Access token, refresh token, and a logged-out token whose revocation row outlives it by nothing.
    const first = await expectStatus(login(fresh(), env.ADMIN_EMAIL, env.ADMIN_PASSWORD), 200)
    s.admin = { access: first.access_token, refresh: first.refresh_token, accessExpiresAt: claims(first.access_token).exp * 1000 }
    const second = await expectStatus(login(fresh(), env.ADMIN_EMAIL, env.ADMIN_PASSWORD), 200)
    await expectStatus(call(fresh(), 'POST', '/api/v1/auth/logout', { token: second.access_token }), 204)
    s.loggedOut = { jti: claims(second.access_token).jti, expiresAt: claims(second.access_token).exp * 1000 }
    const admin = (method: string, path: string, body?: unknown) => call(fresh(), method, path, { token: s.admin.access, body })

    // Two users: one with TOTP, one for the session limit.
    const mfaUser = { email: 'mfa@real-clock.test', password: 'mfa-user-password' }
    const limitedUser = { email: 'limited@real-clock.test', password: 'limited-user-password' }
    await expectStatus(admin('POST', '/api/v1/users', { ...mfaUser, name: 'MFA user', role: 'agent' }), 201)
    await expectStatus(admin('POST', '/api/v1/users', { ...limitedUser, name: 'Limited user', role: 'agent' }), 201)

    // SESSION_MAX_AGE: a user signs in now and refreshes 30 s later, while the rest of the setup and the wait go on.
    const refresher = { email: 'refresher@real-clock.test', password: 'refresher-password' }
    await expectStatus(admin('POST', '/api/v1/users', { ...refresher, name: 'Refresher', role: 'agent' }), 201)
    const refresherAt = Date.now()
    const refresherTokens = await expectStatus(login(fresh(), refresher.email, refresher.password), 200)
    const halfway = Bun.sleep(30_000).then(() =>
      call(fresh(), 'POST', '/api/v1/auth/refresh', { body: { refresh_token: refresherTokens.refresh_token } }),
    )
    s.refresher = { endsAt: refresherAt + 60_000 + 1000, halfway }

    // MFA: enroll TOTP at step n, sign in with step n+1 (a code is accepted once, for a later step only),
    // then leave one mfa_token unanswered and age another to just under the hour cleanup keeps it.
    const enrolling = await expectStatus(login(fresh(), mfaUser.email, mfaUser.password), 200)
    const { secret } = await expectStatus(call(fresh(), 'POST', '/api/v1/auth/mfa/totp', { token: enrolling.access_token }), 200)
    const step = stepOf(Date.now())
    await expectStatus(
      call(fresh(), 'POST', '/api/v1/auth/mfa/totp/confirm', { token: enrolling.access_token, body: { code: totpForStep(secret, step) } }),
      200,
    )
    const answered = await expectStatus(login(fresh(), mfaUser.email, mfaUser.password), 200)
    await expectStatus(
      call(fresh(), 'POST', '/api/v1/auth/mfa/verify', {
        body: { mfa_token: answered.mfa_token, code: totpForStep(secret, step + 1), method: 'totp' },
      }),
      200,
    )
    const lateLoginAt = Date.now()
    const late = await expectStatus(login(fresh(), mfaUser.email, mfaUser.password), 200)
    expect(late.mfa_required).toBe(true)
    const aged = await expectStatus(login(fresh(), mfaUser.email, mfaUser.password), 200)
    const agedChallengeId = (await db.get<{ id: string }>('SELECT id FROM mfa_challenges WHERE token_hash = ?', [sha256(aged.mfa_token)]))!
      .id
    // Expired 59 min 30 s ago: mfa_cleanup keeps it 30 s more, then deletes it.
    await db.run('UPDATE mfa_challenges SET created_at = ?, expires_at = ? WHERE id = ?', [
      Date.now() - HOUR_MS,
      Date.now() - HOUR_MS + 30_000,
      agedChallengeId,
    ])
    s.mfa = { ...mfaUser, secret, lateToken: late.mfa_token, lateExpiresAt: lateLoginAt + 60_000, agedChallengeId }

    // Tickets: two solved, their solved time moved to 30 s and 10 min before the day's threshold.
    const crossing = await expectStatus(admin('POST', '/api/v1/tickets', { subject: 'Crosses the threshold during the wait' }), 201)
    const control = await expectStatus(admin('POST', '/api/v1/tickets', { subject: 'Stays 10 minutes short of it' }), 201)
    for (const id of [crossing.id, control.id]) await expectStatus(admin('PATCH', `/api/v1/tickets/${id}`, { status: 'solved' }), 200)
    const now = Date.now()
    s.tickets = { crossing: crossing.id, control: control.id, crossesAt: now + 30_000 }
    await db.run('UPDATE tickets SET solved_at = ? WHERE id = ?', [now - DAY_MS + 30_000, crossing.id])
    await db.run('UPDATE tickets SET solved_at = ? WHERE id = ?', [now - DAY_MS + 600_000, control.id])

    // Page token: made now, used once now.
    const pageMadeAt = Date.now()
    const page = await expectStatus(admin('GET', '/api/v1/tickets?page_size=1'), 200)
    expect(page.next_page_token).not.toBe('')
    await expectStatus(admin('GET', `/api/v1/tickets?page_size=1&page_token=${encodeURIComponent(page.next_page_token)}`), 200)
    s.page = { token: page.next_page_token, expiresAt: pageMadeAt + 60_000 }

    // OAuth: a user signs in on the authorization server's pages; one code is redeemed now, another kept
    // for after the wait (60 s, fixed), when the browser session (SESSION_MAX_AGE) has ended too.
    const oauthUser = { email: 'oauth@real-clock.test', password: 'oauth-user-password' }
    await expectStatus(admin('POST', '/api/v1/users', { ...oauthUser, name: 'OAuth user', role: 'agent' }), 201)
    const registered = await expectStatus(
      admin('POST', '/api/v1/oauth-clients', { name: 'Real-clock app', redirect_uris: [CALLBACK], scopes: ['openid', 'email'] }),
      201,
    )
    const browser = oauthBrowserOf(server.url)
    const authorize = `${server.url}/oauth2/auth?${new URLSearchParams({ client_id: registered.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email', state: 'rc' })}`
    const signedInAt = Date.now()
    const firstCode = callbackOf(await browser.authorize(authorize, { ...oauthUser, consent: 'allow' })).params.code!
    expect((await exchange(registered.client_id, registered.client_secret, firstCode)).status).toBe(200)
    const silent = await browser.request(`${authorize}&prompt=none`)
    const codeIssuedAt = Date.now()
    const kept = silent.kind === 'redirect' ? callbackOf(silent.location).params.code : undefined
    expect(kept).toBeString()
    s.oauth = {
      browser,
      clientId: registered.client_id,
      secret: registered.client_secret,
      code: kept!,
      codeExpiresAt: codeIssuedAt + 60_000,
      signedInAt,
    }

    // Idempotency-Key: a ticket created under a key; its 24 h moved to end 30 s into the wait. Until then the
    // key replays the first answer and refuses another body.
    // A user of its own (keys are the user's): after the wait it signs in again, its one session over.
    const keyUser = { email: 'idempotent@real-clock.test', password: 'idempotent-user-password' }
    await expectStatus(admin('POST', '/api/v1/users', { ...keyUser, name: 'Key user', role: 'agent' }), 201)
    const keyToken = (await expectStatus(login(fresh(), keyUser.email, keyUser.password), 200)).access_token as string
    const keyed = (subject: string) =>
      call(fresh(), 'POST', '/api/v1/tickets', {
        token: keyToken,
        body: { subject },
        headers: { 'idempotency-key': 'real-clock-key' },
      })
    const firstTicket = await expectStatus(keyed('Under a key'), 201)
    const replayed = await keyed('Under a key')
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body.id]).toEqual([201, 'true', firstTicket.id])
    const keyExpiresAt = Date.now() + 30_000
    await db.run('UPDATE idempotency_keys SET created_at = ?, expires_at = ? WHERE idempotency_key = ?', [
      keyExpiresAt - DAY_MS,
      keyExpiresAt,
      'real-clock-key',
    ])
    expect((await expectStatus(keyed('Another body'), 409)).code).toBe('IDEMPOTENCY_KEY_REUSED')
    s.idempotency = { ...keyUser, firstTicket: firstTicket.id, expiresAt: keyExpiresAt }

    // Session limit last (it binds everyone of the organization): one live session per user, deny_new.
    await expectStatus(
      admin('PATCH', '/api/v1/organization/security', { max_concurrent_sessions: 1, session_limit_policy: 'deny_new' }),
      200,
    )
    const limitedAt = Date.now()
    await expectStatus(login(fresh(), limitedUser.email, limitedUser.password), 200)
    const denied = await expectStatus(login(fresh(), limitedUser.email, limitedUser.password), 403)
    expect(denied.code).toBe('SESSION_LIMIT_REACHED')
    s.limited = { ...limitedUser, endsAt: limitedAt + 60_000 + 1000 }

    // Before the wait, everything still works (and the cron has had time to run and keep what is live).
    await Bun.sleep(2_000)
    await expectStatus(admin('GET', '/api/v1/me'), 200)
    const wrong = ['000000', '111111'].find((c) => ![-1, 0, 1].some((d) => totpForStep(secret, stepOf(Date.now()) + d) === c))!
    expect(
      (
        await expectStatus(
          call(fresh(), 'POST', '/api/v1/auth/mfa/verify', { body: { mfa_token: late.mfa_token, code: wrong, method: 'totp' } }),
          401,
        )
      ).code,
    ).toBe('INVALID_MFA_CODE')
    expect(await count('SELECT count(*) AS n FROM revoked_tokens WHERE jti = ?', s.loggedOut.jti)).toBe(1)
    expect(await count('SELECT count(*) AS n FROM refresh_tokens WHERE token_hash = ?', sha256(s.admin.refresh))).toBe(1)
    expect(await count('SELECT count(*) AS n FROM mfa_challenges WHERE id = ?', agedChallengeId)).toBe(1)
    expect(await count('SELECT count(*) AS n FROM oauth_codes WHERE code_hash = ?', sha256(s.oauth.code))).toBe(1)
    expect(Date.now()).toBeLessThan(s.tickets.crossesAt)
    expect((await expectStatus(admin('GET', `/api/v1/tickets/${crossing.id}`), 200)).status).toBe('solved')

    // The one wait: until the last expiry has passed and the cron has run after it.
    const until =
      Math.max(
        s.admin.accessExpiresAt,
        s.loggedOut.expiresAt,
        s.mfa.lateExpiresAt,
        s.page.expiresAt,
        s.limited.endsAt,
        s.refresher.endsAt,
        s.tickets.crossesAt,
        s.oauth.codeExpiresAt,
        s.oauth.signedInAt + 60_000,
        s.idempotency.expiresAt,
      ) + MARGIN_MS
    await Bun.sleep(Math.max(0, until - Date.now()))
  }, 110_000)

  afterAll(async () => {
    await db?.close()
    await server?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  test('ACCESS_TOKEN_TTL=60: the access token that worked is refused with 401 TOKEN_EXPIRED', async () => {
    const after = await expectStatus(call(fresh(), 'GET', '/api/v1/me', { token: s.admin.access }), 401)
    expect(after.code).toBe('TOKEN_EXPIRED')
  }, 60_000)

  test('MFA_TOKEN_TTL=60: an mfa_token that took a (wrong) code before is TOKEN_INVALID for the right code after', async () => {
    const code = totpForStep(s.mfa.secret, stepOf(Date.now()))
    const after = await expectStatus(
      call(fresh(), 'POST', '/api/v1/auth/mfa/verify', { body: { mfa_token: s.mfa.lateToken, code, method: 'totp' } }),
      401,
    )
    expect(after.code).toBe('TOKEN_INVALID')
  }, 60_000)

  test('PAGE_TOKEN_TTL=60: the page token that worked is 400 INVALID_PAGE_TOKEN; a new one works', async () => {
    const token = await adminAfterWait()
    const list = (query: string) => call(fresh(), 'GET', `/api/v1/tickets?${query}`, { token })
    const expired = await expectStatus(list(`page_size=1&page_token=${encodeURIComponent(s.page.token)}`), 400)
    expect(expired.code).toBe('INVALID_PAGE_TOKEN')
    const page = await expectStatus(list('page_size=1'), 200)
    await expectStatus(list(`page_size=1&page_token=${encodeURIComponent(page.next_page_token)}`), 200)
  }, 60_000)

  test('UNAUTH_PER_MINUTE=3: the 4th request is 429 with Retry-After; still refused just before it runs out, accepted after', async () => {
    const { refused, early, late, retryAfterS } = await s.rate
    expect(refused.status).toBe(429)
    expect(retryAfterS).toBeGreaterThanOrEqual(1)
    expect(retryAfterS).toBeLessThanOrEqual(60)
    expect(refused.body).toEqual({ code: 429, message: expect.any(String), retry_after: retryAfterS, error: 'RATE_LIMITED' })
    expect(retryAfterS).toBeGreaterThanOrEqual(3)
    expect(early?.status).toBe(429)
    expect(late.status).toBe(404)
  }, 70_000)

  test("TICKET_AUTO_CLOSE_DAYS=1: the binary's cron closes the ticket the real clock carried past the day; the other stays solved", async () => {
    const token = await adminAfterWait()
    const get = (id: string) => expectStatus(call(fresh(), 'GET', `/api/v1/tickets/${id}`, { token }), 200)
    const closed = await get(s.tickets.crossing)
    expect(closed.status).toBe('closed')
    expect(Date.parse(closed.closed_at)).toBeGreaterThanOrEqual(s.tickets.crossesAt - 1000)
    expect((await get(s.tickets.control)).status).toBe('solved')
  }, 60_000)

  test('SESSION_MAX_AGE=60: a refresh 30 s after sign-in works and ends with the session; after the end, 401 TOKEN_INVALID', async () => {
    const halfway = await s.refresher.halfway
    expect(halfway.status).toBe(200)
    // The refreshed access token ends with the session, not ACCESS_TOKEN_TTL after the refresh.
    const { exp, auth_time } = JSON.parse(Buffer.from(halfway.body.access_token.split('.')[1], 'base64url').toString()) as {
      exp: number
      auth_time: number
    }
    expect(exp).toBeLessThanOrEqual(auth_time + 60)
    expect(halfway.body.expires_in).toBeLessThanOrEqual(31)
    // Its refresh token was issued only ~35 s ago (REFRESH_TOKEN_TTL is 30 days), but the session is over.
    const late = await expectStatus(
      call(fresh(), 'POST', '/api/v1/auth/refresh', { body: { refresh_token: halfway.body.refresh_token } }),
      401,
    )
    expect(late.code).toBe('TOKEN_INVALID')
    const me = await expectStatus(call(fresh(), 'GET', '/api/v1/me', { token: halfway.body.access_token }), 401)
    expect(me.code).toBe('TOKEN_EXPIRED')
  }, 60_000)

  test('session limit (1, deny_new): once SESSION_MAX_AGE has ended the first session, it no longer counts', async () => {
    const again = await expectStatus(login(fresh(), s.limited.email, s.limited.password), 200)
    expect(again.access_token).toBeString()
    const denied = await expectStatus(login(fresh(), s.limited.email, s.limited.password), 403)
    expect(denied.code).toBe('SESSION_LIMIT_REACHED')
  }, 60_000)

  test('OAuth: the code kept past its 60 s is invalid_grant; the browser session ended with SESSION_MAX_AGE (prompt=none: login_required); oauth_cleanup deleted the code', async () => {
    const late = await exchange(s.oauth.clientId, s.oauth.secret, s.oauth.code)
    expect({ status: late.status, error: late.body.error }).toEqual({ status: 400, error: 'invalid_grant' })
    expect(late.headers.get('cache-control')).toBe('no-store')
    const authorize = `${server.url}/oauth2/auth?${new URLSearchParams({ client_id: s.oauth.clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid email', state: 'rc', prompt: 'none' })}`
    const step = await s.oauth.browser.request(authorize)
    expect(step.kind === 'redirect' && callbackOf(step.location).params).toMatchObject({ error: 'login_required', state: 'rc' })
    expect(await count('SELECT count(*) AS n FROM oauth_codes WHERE code_hash = ?', sha256(s.oauth.code))).toBe(0)
  }, 60_000)

  test('Idempotency-Key past its 24 h (moved to end during the wait): the key is free again, another body makes another ticket', async () => {
    // Its token and session ended with the wait (ACCESS_TOKEN_TTL, SESSION_MAX_AGE): a new sign-in, the same user.
    const signedIn = await expectStatus(login(fresh(), s.idempotency.email, s.idempotency.password), 200)
    const after = await call(fresh(), 'POST', '/api/v1/tickets', {
      token: signedIn.access_token,
      body: { subject: 'After the key expired' },
      headers: { 'idempotency-key': 'real-clock-key' },
    })
    expect(after.status).toBe(201)
    expect(after.headers.get('idempotent-replayed')).toBeNull()
    expect(after.body.id).not.toBe(s.idempotency.firstTicket)
  }, 60_000)

  test("auth_cleanup and mfa_cleanup: the binary's cron deleted the expired revocation, the expired refresh token and the aged MFA challenge", async () => {
    expect(await count('SELECT count(*) AS n FROM revoked_tokens WHERE jti = ?', s.loggedOut.jti)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM refresh_tokens WHERE token_hash = ?', sha256(s.admin.refresh))).toBe(0)
    expect(await count('SELECT count(*) AS n FROM mfa_challenges WHERE id = ?', s.mfa.agedChallengeId)).toBe(0)
    // The mfa_token that expired a few seconds ago is kept for the hour (its wrong code feeds the lockout window).
    expect(await count('SELECT count(*) AS n FROM mfa_challenges WHERE token_hash = ?', sha256(s.mfa.lateToken))).toBe(1)
  }, 60_000)
})
