// What the protocol tests share: an app whose AUTH_URL is https (as in production) on a clock that starts
// at the real time (the client libraries check token times against it), two organizations, clients
// registered through the API, authorization codes made as the browser side makes them (a browser
// session, a live grant, a code row), and oauth4webapi / openid-client talking to the app in process.
import { afterAll, expect } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { prefixedId } from '../../../src/lib/ids.ts'
import { openBrowserSession } from '../../../src/modules/auth/index.ts'
import { insertCode, saveGrant } from '../../../src/modules/oauth/store.ts'
import { findOrganization } from '../../../src/modules/organizations/index.ts'
import type { UserRow } from '../../../src/modules/users/index.ts'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { seedOrganization } from '../../helpers/seed.ts'

export const ISSUER = 'https://sso.acme.test'
export const REDIRECT = 'https://app.example.com/cb'

export interface RegisteredClient {
  id: string
  secret: string | null
}

export type Headers = Record<string, string>

const sha256hex = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex')

/** A fetch that sends every request into the app, whatever its host (the issuer is https://sso.acme.test). */
export function appFetch(app: TestApp): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await app.app.handle(input instanceof Request ? input : new Request(String(input), init))
    await new Promise((resolve) => setImmediate(resolve))
    return response
  }) as typeof fetch
}

export async function tokenWorld(settings: Record<string, string> = {}) {
  const app = await makeTestApp(
    { AUTH_URL: ISSUER, PUBLIC_URL: 'https://api.acme.test', ...settings },
    { clock: new FakeClock(Date.now()) },
  )
  afterAll(() => app.close())
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  const doFetch = appFetch(app)
  const as = await oauth.processDiscoveryResponse(
    new URL(ISSUER),
    await oauth.discoveryRequest(new URL(ISSUER), { [oauth.customFetch]: doFetch }),
  )

  /** Registers a client through the API (as the organization's admin by default). */
  async function register(body: Record<string, unknown> = {}, auth: Headers = acme.users.admin.auth): Promise<RegisteredClient> {
    const response = await app.request('/api/v1/oauth-clients', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Dashboard',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        scopes: ['openid', 'profile', 'email', 'offline_access', 'tickets:read', 'tickets:write'],
        ...body,
      }),
    })
    expect(response.status).toBe(201)
    const client = await json<{ id: string; client_secret: string | null }>(response)
    return { id: client.id, secret: client.client_secret }
  }

  /**
   * An authorization code as the browser side issues one: the user signed in (a browser session), has
   * consented (a live grant) and the code row. Returns the code and the browser session's id.
   */
  async function issueCode(input: {
    user: UserRow
    client: RegisteredClient
    scope: string
    redirectUri?: string
    codeChallenge?: string | null
    nonce?: string | null
    authMethods?: string[]
    signedInAt?: number
  }) {
    const code = oauth.generateRandomCodeVerifier()
    const now = app.clock.now()
    const signedInAt = input.signedInAt ?? now
    const org = (await findOrganization(app.context.db, input.user.organization_id))!
    const browserSessionId = await app.context.db.write('test.code', async (tx) => {
      const opened = await openBrowserSession(tx, {
        user: input.user,
        org,
        kind: { authMethods: input.authMethods ?? ['pwd'], mfaEnrollmentOnly: false },
        cookieHash: sha256hex(`cookie-${code}`),
        maxAgeMs: 86_400_000,
        request: { requestId: 'test', ip: '127.0.0.1', userAgent: 'test' },
        now: signedInAt,
      })
      if (!opened.ok) throw opened.error
      await saveGrant(tx, {
        id: prefixedId('ogr'),
        organizationId: org.id,
        userId: input.user.id,
        clientId: input.client.id,
        scope: input.scope,
        now,
      })
      await insertCode(tx, {
        code_hash: sha256hex(code),
        organization_id: org.id,
        client_id: input.client.id,
        user_id: input.user.id,
        redirect_uri: input.redirectUri ?? REDIRECT,
        scope: input.scope,
        code_challenge: input.codeChallenge ?? null,
        nonce: input.nonce ?? null,
        browser_session_id: opened.sessionId,
        auth_time: signedInAt,
        auth_methods: JSON.stringify(input.authMethods ?? ['pwd']),
        created_at: now,
        expires_at: now + 60_000,
        consumed_at: null,
        session_id: null,
      })
      return opened.sessionId
    })
    return { code, browserSessionId }
  }

  /** Sends a form to a protocol endpoint; `headers` may carry Basic credentials. */
  function form(path: string, params: Record<string, string> | string, headers: Headers = {}): Promise<Response> {
    return app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: typeof params === 'string' ? params : new URLSearchParams(params).toString(),
    })
  }

  /** The audit records of an event, oldest first. */
  function audits(event: string) {
    return app.context.db.raw.all<{ actor_id: string | null; credential_id: string | null; reason: string | null; details: string }>(
      'SELECT actor_id, credential_id, reason, details FROM audit_logs WHERE event = ? ORDER BY created_at, seq',
      [event],
    )
  }

  const options = { [oauth.customFetch]: doFetch }

  /** The redirect's parameters as oauth4webapi validates them (code and iss, no state), for its token request. */
  function callback(client: RegisteredClient, code: string): URLSearchParams {
    const url = new URL(REDIRECT)
    url.searchParams.set('code', code)
    url.searchParams.set('iss', ISSUER)
    return oauth.validateAuthResponse(as, clientOf(client), url, oauth.skipStateCheck)
  }

  /** The token request of oauth4webapi for a code (Basic for a confidential client, none for a public one). */
  function exchange(client: RegisteredClient, code: string, verifier: string | typeof oauth.nopkce = oauth.nopkce, redirectUri = REDIRECT) {
    return oauth.authorizationCodeGrantRequest(as, clientOf(client), basic(client), callback(client, code), redirectUri, verifier, options)
  }

  return { app, acme, globex, as, register, issueCode, form, audits, options, doFetch, callback, exchange }
}

export type TokenWorld = Awaited<ReturnType<typeof tokenWorld>>

/** The oauth4webapi client of a registered client. */
export const clientOf = (client: RegisteredClient): oauth.Client => ({ client_id: client.id })

/** The client authentication of a registered client: Basic with its secret, or none for a public one. */
export const basic = (client: RegisteredClient) => (client.secret === null ? oauth.None() : oauth.ClientSecretBasic(client.secret))

export function basicHeader(id: string, secret: string): Headers {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+')
  return { authorization: `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}` }
}

/** The claims of a JWT (not verified: for reading what a test already trusts). */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>
}
