// POST /oauth2/token with grant_type=authorization_code, driven by oauth4webapi: the token response and
// its headers, the ID token (verified by jose from the JWKS alone), the access token's narrowed
// permissions at the API, and every way a code is refused: replay (which kills the first tokens),
// PKCE wrong, missing or downgraded, another redirect URI, another client, expiry, the user, the grant,
// the sign-in and the address.
import { describe, expect, test } from 'bun:test'
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose'
import * as oauth from 'oauth4webapi'
import { json } from '../../helpers/app.ts'
import { claimsOf, clientOf, ISSUER, REDIRECT, tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme } = w
const agent = acme.users.agent.user
const confidential = await w.register()
const other = await w.register({ name: 'Other app' })
const spa = await w.register({ name: 'SPA', client_type: 'public', redirect_uris: ['http://127.0.0.1/cb'] })
const jwks = createLocalJWKSet(await json<JSONWebKeySet>(await app.request('/.well-known/jwks.json')))
const FULL = 'openid profile email offline_access tickets:read'

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const me = (token: string) => app.request('/api/v1/me', { headers: bearer(token) })
const refreshWith = (client: typeof confidential, token: string) =>
  oauth.refreshTokenGrantRequest(w.as, clientOf(client), oauth.ClientSecretBasic(client.secret!), token, w.options)

/** A code with an S256 challenge, and its verifier. */
async function pkceCode(scope = FULL, extra: { nonce?: string; client?: typeof confidential } = {}) {
  const verifier = oauth.generateRandomCodeVerifier()
  const issued = await w.issueCode({
    user: agent,
    client: extra.client ?? confidential,
    scope,
    codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    nonce: extra.nonce ?? null,
    authMethods: ['pwd', 'otp', 'mfa'],
    signedInAt: app.clock.now() - 5_000,
  })
  return { ...issued, verifier }
}

async function expectInvalidGrant(response: Response, description?: string) {
  expect(response.status).toBe(400)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  const body = await json(response)
  expect(body.error).toBe('invalid_grant')
  if (description) expect(String(body.error_description)).toContain(description)
}

describe('a successful exchange', async () => {
  const { code, verifier, browserSessionId } = await pkceCode(FULL, { nonce: 'nonce-123' })
  const response = await w.exchange(confidential, code, verifier)
  const raw = await json(response.clone() as Response)
  const tokens = await oauth.processAuthorizationCodeResponse(w.as, clientOf(confidential), response, { expectedNonce: 'nonce-123' })

  test('200 JSON, never cached; Bearer, expires_in a number of seconds, the scope, a refresh token and an ID token', () => {
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('application/json')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('pragma')).toBe('no-cache')
    expect(raw).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: FULL })
    expect(Object.keys(raw).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type'])
    expect(tokens.refresh_token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/)
  })

  test('the ID token verifies with the JWKS alone: RS256, our kid, iss, aud = client id, and exactly the minimal claims', async () => {
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, {
      issuer: ISSUER,
      audience: confidential.id,
      algorithms: ['RS256'],
      currentDate: new Date(app.clock.now()),
    })
    const keys = await json<JSONWebKeySet>(await app.request('/.well-known/jwks.json'))
    expect(keys.keys.map((k) => k.kid)).toContain(protectedHeader.kid)
    const access = claimsOf(tokens.access_token)
    const at = new Bun.CryptoHasher('sha256').update(tokens.access_token).digest()
    expect(payload).toEqual({
      iss: ISSUER,
      sub: agent.id,
      aud: confidential.id,
      azp: confidential.id,
      iat: access.iat as number,
      exp: access.exp as number,
      auth_time: Math.floor((app.clock.now() - 5_000) / 1000),
      nonce: 'nonce-123',
      at_hash: Buffer.from(at.subarray(0, 16)).toString('base64url'),
      sid: browserSessionId,
      amr: ['pwd', 'otp', 'mfa'],
    })
    expect(decodeProtectedHeader(tokens.access_token).kid).toBe(protectedHeader.kid)
  })

  test('the access token is the API’s own JWT plus client_id and scope, its permissions narrowed by the scopes', async () => {
    const claims = claimsOf(tokens.access_token)
    expect(claims).toMatchObject({
      iss: ISSUER,
      aud: 'https://api.acme.test',
      sub: agent.id,
      client_id: confidential.id,
      scope: FULL,
      organization_id: agent.organization_id,
      roles: ['agent'],
      permissions: ['ticket:read'],
    })
    expect(claims.sid).not.toBe(browserSessionId)
    const response = await me(tokens.access_token)
    expect(response.status).toBe(200)
    expect((await json(response)).permissions).toEqual(['ticket:read'])
  })

  test('oauth.token.issued is audited with the grant type and the client, and no token', async () => {
    const record = (await w.audits('oauth.token.issued')).find((r) => r.credential_id === claimsOf(tokens.access_token).sid)!
    expect(record.actor_id).toBe(agent.id)
    expect(JSON.parse(record.details)).toEqual({ grant_type: 'authorization_code', client_id: confidential.id, scope: FULL })
    const text = JSON.stringify(await w.audits('oauth.token.issued'))
    for (const secret of [code, tokens.access_token, tokens.refresh_token!]) expect(text).not.toContain(secret)
  })
})

describe('scopes decide what the token may do', () => {
  const createTicket = (token: string) =>
    app.request('/api/v1/tickets', {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'From an app' }),
    })

  test('a tickets:read token cannot create a ticket (403) though the agent can; a tickets:write token can', async () => {
    const read = await pkceCode('openid tickets:read')
    const readTokens = await json(await w.exchange(confidential, read.code, read.verifier))
    const refused = await createTicket(readTokens.access_token as string)
    expect(refused.status).toBe(403)
    expect((await json(refused)).code).toBe('INSUFFICIENT_PERMISSIONS')
    expect((await createTicket(acme.users.agent.accessToken)).status).toBe(201)
    const write = await pkceCode('tickets:write')
    const writeTokens = await json(await w.exchange(confidential, write.code, write.verifier))
    expect((await createTicket(writeTokens.access_token as string)).status).toBe(201)
  })

  test('without openid there is no ID token; without offline_access no refresh token', async () => {
    const { code, verifier } = await pkceCode('tickets:read')
    const body = await json(await w.exchange(confidential, code, verifier))
    expect(body).not.toHaveProperty('id_token')
    expect(body).not.toHaveProperty('refresh_token')
    expect(body.scope).toBe('tickets:read')
  })

  test('offline_access gives no refresh token to a client not registered for refresh_token', async () => {
    const noRefresh = await w.register({ name: 'No refresh', grant_types: ['authorization_code'] })
    const { code, verifier } = await pkceCode('openid offline_access', { client: noRefresh })
    const body = await json(await w.exchange(noRefresh, code, verifier))
    expect(body).not.toHaveProperty('refresh_token')
    expect(body.id_token).toBeString()
  })

  test('a public client exchanges with PKCE and its client_id alone (none)', async () => {
    const verifier = oauth.generateRandomCodeVerifier()
    const { code } = await w.issueCode({
      user: agent,
      client: spa,
      scope: 'openid',
      redirectUri: 'http://127.0.0.1:49152/cb',
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    })
    const response = await w.exchange(spa, code, verifier, 'http://127.0.0.1:49152/cb')
    expect(response.status).toBe(200)
    const tokens = await oauth.processAuthorizationCodeResponse(w.as, clientOf(spa), response)
    expect(claimsOf(tokens.id_token!).aud).toBe(spa.id)
  })
})

describe('a code is used once', () => {
  test('a replay is 400 invalid_grant and kills what the first exchange gave: the access token is refused, the refresh token too', async () => {
    const { code, verifier } = await pkceCode()
    const first = await json(await w.exchange(confidential, code, verifier))
    expect((await me(first.access_token as string)).status).toBe(200)
    await expectInvalidGrant(await w.exchange(confidential, code, verifier), 'already been used')
    const dead = await me(first.access_token as string)
    expect(dead.status).toBe(401)
    expect((await json(dead)).code).toBe('TOKEN_INVALID')
    await expectInvalidGrant(await refreshWith(confidential, first.refresh_token as string))
    const replays = await w.audits('oauth.code.replayed')
    expect(JSON.parse(replays.at(-1)!.details)).toMatchObject({
      client_id: confidential.id,
      session_revoked: claimsOf(first.access_token as string).sid,
    })
  })

  test('oauth4webapi sees the replay as an OAuth error invalid_grant', async () => {
    const { code, verifier } = await pkceCode('openid')
    await oauth.processAuthorizationCodeResponse(w.as, clientOf(confidential), await w.exchange(confidential, code, verifier))
    const replay = w.exchange(confidential, code, verifier)
    await expect(oauth.processAuthorizationCodeResponse(w.as, clientOf(confidential), await replay)).rejects.toMatchObject({
      error: 'invalid_grant',
      status: 400,
    })
  })

  test('two exchanges of one code at once: exactly one gets tokens', async () => {
    const { code, verifier } = await pkceCode('openid')
    const statuses = await Promise.all([1, 2, 3].map(() => w.exchange(confidential, code, verifier).then((r) => r.status)))
    expect(statuses.sort()).toEqual([200, 400, 400])
  })

  test('an unknown code is invalid_grant', async () => {
    await expectInvalidGrant(await w.exchange(confidential, oauth.generateRandomCodeVerifier()), 'unknown')
  })
})

describe('PKCE (RFC 7636)', () => {
  test('a wrong verifier is refused, and burns the code', async () => {
    const { code, verifier } = await pkceCode()
    await expectInvalidGrant(await w.exchange(confidential, code, oauth.generateRandomCodeVerifier()), 'code_verifier')
    await expectInvalidGrant(await w.exchange(confidential, code, verifier))
  })

  test('a missing verifier for a code with a challenge is refused', async () => {
    const { code } = await pkceCode()
    await expectInvalidGrant(await w.exchange(confidential, code, oauth.nopkce), 'code_verifier is required')
  })

  test('a verifier sent for a code issued without a challenge is a downgrade: refused', async () => {
    const { code } = await w.issueCode({ user: agent, client: confidential, scope: 'openid' })
    await expectInvalidGrant(await w.exchange(confidential, code, oauth.generateRandomCodeVerifier()), 'without PKCE')
  })

  test('a verifier outside RFC 7636’s 43–128 unreserved characters is refused even if it hashes right', async () => {
    const verifier = 'short-verifier'
    const { code } = await w.issueCode({
      user: agent,
      client: confidential,
      scope: 'openid',
      codeChallenge: new Bun.CryptoHasher('sha256').update(verifier).digest('base64url'),
    })
    const response = await w.form('/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: confidential.id,
      client_secret: confidential.secret!,
    })
    await expectInvalidGrant(response, 'code_verifier')
  })

  test('a confidential client may exchange a code issued without PKCE with no verifier', async () => {
    const { code } = await w.issueCode({ user: agent, client: confidential, scope: 'openid' })
    expect((await w.exchange(confidential, code)).status).toBe(200)
  })
})

describe('what the code is bound to', () => {
  test('another redirect URI is refused; none at all is invalid_request', async () => {
    const { code, verifier } = await pkceCode()
    await expectInvalidGrant(await w.exchange(confidential, code, verifier, 'https://app.example.com/cb2'), 'redirect_uri')
    const second = await pkceCode()
    const response = await w.form('/oauth2/token', {
      grant_type: 'authorization_code',
      code: second.code,
      code_verifier: second.verifier,
      client_id: confidential.id,
      client_secret: confidential.secret!,
    })
    expect(response.status).toBe(400)
    expect(await json(response)).toEqual({ error: 'invalid_request', error_description: 'The parameter redirect_uri is missing' })
  })

  test("another client's code is refused", async () => {
    const { code, verifier } = await pkceCode()
    await expectInvalidGrant(await w.exchange(other, code, verifier), 'another client')
  })

  test('a user disabled since is refused', async () => {
    const { code, verifier } = await pkceCode('openid', {})
    await app.context.db.raw.run("UPDATE users SET status = 'disabled' WHERE id = ?", [agent.id])
    try {
      await expectInvalidGrant(await w.exchange(confidential, code, verifier), 'disabled')
    } finally {
      await app.context.db.raw.run("UPDATE users SET status = 'active' WHERE id = ?", [agent.id])
    }
  })

  test('a grant revoked since is refused', async () => {
    const { code, verifier } = await pkceCode('openid')
    await app.context.db.raw.run('UPDATE oauth_grants SET revoked_at = ? WHERE user_id = ? AND client_id = ?', [
      app.clock.now(),
      agent.id,
      confidential.id,
    ])
    await expectInvalidGrant(await w.exchange(confidential, code, verifier), 'revoked')
  })

  test('a code whose sign-in was ended since (logout, password change, eviction) is refused', async () => {
    const { code, verifier, browserSessionId } = await pkceCode('openid')
    await app.context.db.raw.run("UPDATE sessions SET revoked_at = ?, revoked_reason = 'logout' WHERE id = ?", [
      app.clock.now(),
      browserSessionId,
    ])
    await expectInvalidGrant(await w.exchange(confidential, code, verifier), 'sign-in')
  })

  test("the organization's IP allowlist applies to the exchange", async () => {
    const { code, verifier } = await pkceCode('openid')
    await app.context.db.raw.run('UPDATE organizations SET allowed_ips = ? WHERE id = ?', ['["203.0.113.0/24"]', agent.organization_id])
    try {
      await expectInvalidGrant(await w.exchange(confidential, code, verifier), 'not allowed')
    } finally {
      await app.context.db.raw.run("UPDATE organizations SET allowed_ips = '[]' WHERE id = ?", [agent.organization_id])
    }
  })

  test('every refusal after client authentication is audited with its reason', async () => {
    const reasons = (await w.audits('oauth.token.refused')).map((r) => r.reason)
    for (const reason of ['code_replayed', 'pkce_mismatch', 'pkce_missing', 'pkce_downgrade', 'redirect_uri_mismatch', 'code_other_client'])
      expect(reasons).toContain(reason)
  })

  // Last: the clock moves on for the rest of the file.
  test('a code older than 60 seconds has expired', async () => {
    const { code, verifier } = await pkceCode('openid')
    app.clock.advance(60_001)
    await expectInvalidGrant(await w.exchange(confidential, code, verifier), 'expired')
  })
})
