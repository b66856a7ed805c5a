// Access tokens: verified by an independent verifier from our JWKS alone, and refused in every forged,
// expired, misdirected or revoked form, with 401 and the right code.
import { afterAll, describe, expect, test } from 'bun:test'
import { createRemoteJWKSet, exportJWK, exportSPKI, generateKeyPair, jwtVerify, SignJWT } from 'jose'
import { shutdown, startServer } from '../../../src/cli/serve.ts'
import { loadConfig } from '../../../src/config.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { ROLE_GRANTS } from '../../../src/modules/access/permissions.ts'
import type { Keyring } from '../../../src/modules/keys/index.ts'
import { openRuntime } from '../../../src/runtime.ts'
import { json, makeTestApp, tempDirs } from '../../helpers/app.ts'
import { freePort } from '../../helpers/process.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

describe('an independent verifier (jose, remote JWKS) accepts every token we issue', async () => {
  const dir = tempDirs()()
  const port = freePort()
  const config = loadConfig({
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    PORT: String(port),
    AUTH_URL: 'https://auth.example.test',
    API_AUDIENCE: 'https://api.example.test',
  })
  const log = createLogger({ level: 'error', sink: memorySink() })
  const runtime = await openRuntime(config, { log })
  const server = startServer(runtime, config)
  const base = `http://127.0.0.1:${port}`
  afterAll(() => shutdown(server, runtime, log))
  const testApp = { context: runtime.context, clock: runtime.context.clock } as unknown as Parameters<typeof seedOrganization>[0]
  const { users, org } = await seedOrganization(testApp, 'remote')
  const jwks = createRemoteJWKSet(new URL(`${base}/.well-known/jwks.json`))

  const loginOverHttp = async () => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@remote.test', password: PASSWORD }),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as { access_token: string; refresh_token: string }
  }

  test('JWKS: RS256 signing keys with distinct kids, no private parts, cacheable for 5 minutes', async () => {
    const response = await fetch(`${base}/.well-known/jwks.json`)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    const { keys } = (await response.json()) as { keys: Record<string, string>[] }
    expect(keys.length).toBeGreaterThan(0)
    expect(new Set(keys.map((k) => k.kid)).size).toBe(keys.length)
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' })
      expect(Buffer.from(key.n!, 'base64url').length * 8).toBeGreaterThanOrEqual(2048)
    }
  })

  test('a login token: header and every claim', async () => {
    const { access_token } = await loginOverHttp()
    const { payload, protectedHeader } = await jwtVerify(access_token, jwks, {
      issuer: 'https://auth.example.test',
      audience: 'https://api.example.test',
      algorithms: ['RS256'],
    })
    const { keys } = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }
    expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'JWT', kid: keys[0]!.kid })
    expect(Object.keys(payload).sort()).toEqual([
      'amr',
      'aud',
      'auth_time',
      'exp',
      'iat',
      'iss',
      'jti',
      'nbf',
      'organization_id',
      'permissions',
      'roles',
      'sid',
      'sub',
    ])
    expect(payload).toMatchObject({
      iss: 'https://auth.example.test',
      aud: 'https://api.example.test',
      sub: users.admin.user.id,
      organization_id: org.id,
      roles: ['admin'],
      permissions: [...ROLE_GRANTS.admin],
    })
    expect(payload.exp! - payload.iat!).toBe(3600)
    expect(payload.nbf).toBe(payload.iat!)
    expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60)
    expect(payload.jti).toStartWith('at_')
    expect(payload.sid).toStartWith('ses_')
    expect(payload.amr).toEqual(['pwd'])
    expect(payload.auth_time).toBe(payload.iat!)
  })

  test('a refreshed token verifies too, with a new jti and the same session', async () => {
    const first = await loginOverHttp()
    const response = await fetch(`${base}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: first.refresh_token }),
    })
    const second = (await response.json()) as { access_token: string }
    const a = (await jwtVerify(first.access_token, jwks, { issuer: 'https://auth.example.test', audience: 'https://api.example.test' }))
      .payload
    const b = (await jwtVerify(second.access_token, jwks, { issuer: 'https://auth.example.test', audience: 'https://api.example.test' }))
      .payload
    expect(b.jti).not.toBe(a.jti)
    expect(b.sid).toBe(a.sid)
    // auth_time is when the user signed in, not when the token was refreshed.
    expect(b.auth_time).toBe(a.auth_time!)
  })

  test('the tokens seeded for every role verify', async () => {
    for (const seeded of Object.values(users)) {
      await jwtVerify(seeded.accessToken, jwks, {
        issuer: 'https://auth.example.test',
        audience: 'https://api.example.test',
        algorithms: ['RS256'],
      })
    }
  })
})

describe('refused tokens', async () => {
  const app = await makeTestApp()
  afterAll(() => app.close())
  const { users, org } = await seedOrganization(app)
  const admin = users.admin
  const me = (headers: Record<string, string>, path = '/api/v1/me') => app.request(path, { headers })
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

  /** Claims of a good token, to alter one at a time and sign with our own key. */
  const goodClaims = () => {
    const now = Math.floor(app.clock.now() / 1000)
    return {
      iss: app.config.authUrl,
      aud: app.config.apiAudience,
      sub: admin.user.id,
      iat: now,
      nbf: now,
      exp: now + 600,
      jti: `at_forged_${crypto.randomUUID()}`,
      organization_id: org.id,
      roles: ['admin'],
      permissions: ['*:*'],
      sid: JSON.parse(Buffer.from(admin.accessToken.split('.')[1]!, 'base64url').toString()).sid,
    }
  }
  const keyring = app.context.keys as Keyring
  const signOurs = async (claims: Record<string, unknown>) => keyring.sign((await keyring.signer(app.clock.now())).kid, claims)

  async function expectRefused(response: Response, code: string) {
    expect(response.status).toBe(401)
    const body = await json(response)
    expect(body.code).toBe(code)
    expect(response.headers.get('www-authenticate')).toStartWith('Bearer realm="switchboard"')
    return body
  }

  test('the good token works, and a token signed by us with good claims works (the harness is sound)', async () => {
    expect((await me(admin.auth)).status).toBe(200)
    expect((await me(bearer(await signOurs(goodClaims())))).status).toBe(200)
  })

  test('no credentials: 401 UNAUTHENTICATED with a bare Bearer challenge', async () => {
    const response = await me({})
    await expectRefused(response, 'UNAUTHENTICATED')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="switchboard"')
  })

  test('another scheme or a malformed header', async () => {
    await expectRefused(await me({ authorization: `Basic ${btoa('a:b')}` }), 'TOKEN_INVALID')
    await expectRefused(await me({ authorization: 'Bearer' }), 'TOKEN_INVALID')
    await expectRefused(await me({ authorization: 'Bearer not.a.jwt' }), 'TOKEN_INVALID')
    await expectRefused(await me({ authorization: 'Bearer a b' }), 'TOKEN_INVALID')
  })

  test('alg "none"', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(goodClaims())}.`
    await expectRefused(await me(bearer(token)), 'TOKEN_INVALID')
  })

  test('HS256 keyed with our public key (algorithm confusion), as PEM and as JWK', async () => {
    const { kid } = await keyring.signer(app.clock.now())
    const jwk = (await keyring.published(app.clock.now())).find((k) => k.kid === kid)!
    const publicKey = keyring.verificationKey(kid)!
    for (const secret of [new TextEncoder().encode(await exportSPKI(publicKey)), new TextEncoder().encode(JSON.stringify(jwk))]) {
      const token = await new SignJWT(goodClaims()).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid }).sign(secret)
      await expectRefused(await me(bearer(token)), 'TOKEN_INVALID')
    }
  })

  test('a payload changed after signing (role raised to super_admin)', async () => {
    const [header, payload, signature] = admin.accessToken.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const raised = b64({ ...claims, roles: ['super_admin'], permissions: ['*:*'] })
    await expectRefused(await me(bearer(`${header}.${raised}.${signature}`)), 'TOKEN_INVALID')
  })

  test('a key that is not ours: unknown kid, our kid on a foreign signature, no kid', async () => {
    const { privateKey } = await generateKeyPair('RS256')
    const ourKid = (await keyring.signer(app.clock.now())).kid
    for (const header of [
      { alg: 'RS256', typ: 'JWT', kid: 'not-ours' },
      { alg: 'RS256', typ: 'JWT', kid: ourKid },
      { alg: 'RS256', typ: 'JWT' },
    ]) {
      const token = await new SignJWT(goodClaims()).setProtectedHeader(header).sign(privateKey)
      await expectRefused(await me(bearer(token)), 'TOKEN_INVALID')
    }
  })

  test('an embedded jwk header is not trusted', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256')
    const token = await new SignJWT(goodClaims())
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', jwk: await exportJWK(publicKey) })
      .sign(privateKey)
    await expectRefused(await me(bearer(token)), 'TOKEN_INVALID')
  })

  test('signed by us but wrong issuer, audience, typ, or a claim missing', async () => {
    const cases: Record<string, unknown>[] = [
      { ...goodClaims(), iss: 'https://evil.example' },
      { ...goodClaims(), aud: 'https://other-api.example' },
      { ...goodClaims(), sid: undefined },
      { ...goodClaims(), organization_id: undefined },
      { ...goodClaims(), jti: undefined },
      { ...goodClaims(), sub: 12 },
    ]
    for (const claims of cases) await expectRefused(await me(bearer(await signOurs(claims))), 'TOKEN_INVALID')
  })

  test('signed with our private key but another typ or another RSA algorithm', async () => {
    const kid = (await keyring.signer(app.clock.now())).kid
    // The keyring only ever signs RS256/JWT; reach its key to forge the other headers.
    // biome-ignore lint/complexity/useLiteralKeys: a private method, reached on purpose
    const privateKey = (await keyring['privateKey'](kid)) as CryptoKey
    const atJwt = await new SignJWT(goodClaims()).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid }).sign(privateKey)
    await expectRefused(await me(bearer(atJwt)), 'TOKEN_INVALID')
    const pss = await generateKeyPair('RS512', { extractable: true })
    const rs512 = await new SignJWT(goodClaims()).setProtectedHeader({ alg: 'RS512', typ: 'JWT', kid }).sign(pss.privateKey)
    await expectRefused(await me(bearer(rs512)), 'TOKEN_INVALID')
  })

  test('not yet valid (nbf in the future): TOKEN_INVALID', async () => {
    const claims = goodClaims()
    await expectRefused(await me(bearer(await signOurs({ ...claims, nbf: claims.iat + 3600 }))), 'TOKEN_INVALID')
  })

  test('expired: TOKEN_EXPIRED, with the reason in the challenge', async () => {
    const later = await makeTestApp()
    try {
      const seeded = await seedOrganization(later, 'expiring')
      // The admin's token is used (and so cached as verified) before it expires; the viewer's is not.
      expect((await later.request('/api/v1/me', { headers: seeded.users.admin.auth })).status).toBe(200)
      later.clock.advance(3600 * 1000 - 1000)
      expect((await later.request('/api/v1/me', { headers: seeded.users.admin.auth })).status).toBe(200)
      later.clock.advance(2000)
      for (const seededUser of [seeded.users.admin, seeded.users.viewer]) {
        const response = await later.request('/api/v1/me', { headers: seededUser.auth })
        await expectRefused(response, 'TOKEN_EXPIRED')
        expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"')
      }
    } finally {
      await later.close()
    }
  })

  test('a token in the query string is refused, even beside a good header', async () => {
    const response = await me(admin.auth, `/api/v1/me?access_token=${admin.accessToken}`)
    const body = await expectRefused(response, 'TOKEN_INVALID')
    expect(body.message).toBe('Tokens must be sent in the Authorization header, never in the URL')
  })

  test('the user was disabled after the token was issued', async () => {
    const { users: other } = await seedOrganization(app, 'disabling')
    expect((await me(other.agent.auth)).status).toBe(200)
    const response = await app.request(`/api/v1/users/${other.agent.user.id}`, { method: 'DELETE', headers: other.admin.auth })
    expect(response.status).toBe(204)
    await expectRefused(await me(other.agent.auth), 'TOKEN_INVALID')
  })

  test('a demotion takes effect on the next request, old token or not', async () => {
    const { users: team } = await seedOrganization(app, 'demoting')
    const createAsSupervisor = () => app.request('/api/v1/roles', { headers: team.supervisor.auth })
    expect((await createAsSupervisor()).status).toBe(200)
    const demote = await app.request(`/api/v1/users/${team.supervisor.user.id}`, {
      method: 'PATCH',
      headers: { ...team.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'agent' }),
    })
    expect(demote.status).toBe(200)
    const after = await createAsSupervisor()
    expect(after.status).toBe(403)
    expect((await json(after)).code).toBe('INSUFFICIENT_PERMISSIONS')
  })
})
