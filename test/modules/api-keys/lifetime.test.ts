// A personal access token over time (fake clock): expiry to the millisecond, last_used_at written at most once a minute; and over a real loopback server: last_used_ip, the IP allowlist, and refusals that reach the client intact.
import { afterAll, describe, expect, test } from 'bun:test'
import { shutdown, startServer } from '../../../src/cli/serve.ts'
import { loadConfig } from '../../../src/config.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { openRuntime } from '../../../src/runtime.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { json, makeTestApp, tempDirs } from '../../helpers/app.ts'
import { freePort } from '../../helpers/process.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'
import { eventually } from '../../helpers/wait.ts'

type Headers = Record<string, string>
interface ApiKey {
  id: string
  token: string
  expired: boolean
  expires_at: string
  last_used_at: string | null
  last_used_ip: string | null
}
const SECOND = 1000
const MINUTE = 60 * SECOND
const DAY = 86_400_000

describe('in process, with a fake clock', async () => {
  const app = await makeTestApp()
  afterAll(() => app.close())
  const { users } = await seedOrganization(app, 'acme')
  let agent = users.agent

  const send = (method: string, path: string, headers: Headers, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const iso = (ms = app.clock.now()) => new Date(ms).toISOString()
  const createKey = async (lifetime: number): Promise<ApiKey> => {
    const response = await send('POST', '/api/v1/api-keys', agent.auth, { name: 'Timed', expires_at: iso(app.clock.now() + lifetime) })
    expect(response.status).toBe(201)
    return json<ApiKey>(response)
  }
  /** The key as the owner's list shows it (read with a sign-in, so the listing is not itself a use). */
  const shown = async (id: string): Promise<ApiKey> => {
    const response = await send('GET', '/api/v1/api-keys?page_size=100', agent.auth)
    expect(response.status).toBe(200)
    return (await json<{ api_keys: ApiKey[] }>(response)).api_keys.find((k) => k.id === id)!
  }
  const use = (token: string) => send('GET', '/api/v1/tickets', { 'x-api-key': token })

  test('works until the millisecond before expires_at; from expires_at on: 401 TOKEN_EXPIRED through both headers, and the list says expired', async () => {
    const key = await createKey(10 * MINUTE)
    app.clock.advance(10 * MINUTE - 1)
    expect((await use(key.token)).status).toBe(200)
    expect((await shown(key.id)).expired).toBe(false)
    app.clock.advance(1)
    for (const headers of [{ 'x-api-key': key.token }, { authorization: `Bearer ${key.token}` }] as Headers[]) {
      const response = await send('GET', '/api/v1/tickets', headers)
      expect(response.status).toBe(401)
      expect(await json(response)).toMatchObject({ code: 'TOKEN_EXPIRED' })
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"')
    }
    expect(await shown(key.id)).toMatchObject({ expired: true, expires_at: key.expires_at })
    app.clock.advance(DAY)
    expect((await use(key.token)).status).toBe(401)
    agent = await signIn(app, users.agent.user)
  })

  test('a key made for the full year works for the whole year, then expires', async () => {
    const key = await createKey(365 * DAY)
    app.clock.advance(365 * DAY - SECOND)
    expect((await use(key.token)).status).toBe(200)
    app.clock.advance(SECOND)
    expect(await json(await use(key.token))).toMatchObject({ code: 'TOKEN_EXPIRED' })
    agent = await signIn(app, users.agent.user)
  })

  test('an expired key can still be revoked (it is in the list until then)', async () => {
    const key = await createKey(MINUTE)
    app.clock.advance(MINUTE)
    expect((await shown(key.id)).expired).toBe(true)
    expect((await send('DELETE', `/api/v1/api-keys/${key.id}`, agent.auth)).status).toBe(204)
    expect(await shown(key.id)).toBeUndefined()
  })

  test('a key both revoked and expired is still refused', async () => {
    const key = await createKey(MINUTE)
    expect((await send('DELETE', `/api/v1/api-keys/${key.id}`, agent.auth)).status).toBe(204)
    app.clock.advance(MINUTE)
    expect((await use(key.token)).status).toBe(401)
  })

  test('last_used_at: null until used; then the time of the use, moved at most once a minute', async () => {
    // The use is recorded after the answer, outside the request: waited for, not raced.
    const recorded = (id: string, at: string) =>
      eventually(`last_used_at ${at}`, async () => ((await shown(id)).last_used_at === at ? true : undefined))
    const key = await createKey(30 * DAY)
    expect(await shown(key.id)).toMatchObject({ last_used_at: null, last_used_ip: null })
    app.clock.advance(5 * SECOND)
    const firstUse = app.clock.now()
    expect((await use(key.token)).status).toBe(200)
    await recorded(key.id, iso(firstUse))

    // Within the minute: not moved.
    app.clock.advance(30 * SECOND)
    expect((await use(key.token)).status).toBe(200)
    app.clock.advance(29 * SECOND)
    expect((await send('GET', '/api/v1/tickets', { authorization: `Bearer ${key.token}` })).status).toBe(200)
    expect((await shown(key.id)).last_used_at).toBe(iso(firstUse))

    // A minute after the last write: moved to that use.
    app.clock.advance(SECOND)
    const later = app.clock.now()
    expect(later - firstUse).toBe(MINUTE)
    expect((await use(key.token)).status).toBe(200)
    await recorded(key.id, iso(later))

    // Long after: moved again.
    app.clock.advance(10 * MINUTE)
    const last = iso()
    expect((await use(key.token)).status).toBe(200)
    await recorded(key.id, last)
  })

  test('each key has its own last_used_at: using one does not touch another', async () => {
    const [a, b] = [await createKey(DAY), await createKey(DAY)]
    app.clock.advance(2 * MINUTE)
    expect((await use(a.token)).status).toBe(200)
    // The use is written after the answer (on PostgreSQL a moment later): wait for it, then look at b.
    const at = iso()
    await eventually(`last_used_at ${at}`, async () => ((await shown(a.id)).last_used_at === at ? true : undefined))
    expect((await shown(b.id)).last_used_at).toBeNull()
  })

  test('refused uses (revoked, expired, bad checksum) do not count as uses', async () => {
    const revoked = await createKey(DAY)
    const expiring = await createKey(MINUTE)
    expect((await send('DELETE', `/api/v1/api-keys/${revoked.id}`, agent.auth)).status).toBe(204)
    expect((await use(revoked.token)).status).toBe(401)
    expect(
      (await app.context.db.raw.get<{ last_used_at: number | null }>('SELECT last_used_at FROM api_keys WHERE id = ?', [revoked.id]))!
        .last_used_at,
    ).toBeNull()
    app.clock.advance(MINUTE)
    expect((await use(expiring.token)).status).toBe(401)
    expect((await use(`${expiring.token.slice(0, -1)}${expiring.token.endsWith('a') ? 'b' : 'a'}`)).status).toBe(401)
    expect((await shown(expiring.id)).last_used_at).toBeNull()
  })
})

describe('over a real server on loopback', async () => {
  const dir = tempDirs()()
  const port = freePort()
  const config = loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port) })
  const log = createLogger({ level: 'error', sink: memorySink() })
  const clock = new FakeClock()
  const runtime = await openRuntime(config, { log, clock })
  const server = startServer(runtime, config)
  afterAll(() => shutdown(server, runtime, log))
  const base = `http://127.0.0.1:${port}`
  const { users } = await seedOrganization(
    { context: runtime.context, clock } as unknown as Parameters<typeof seedOrganization>[0],
    'remote',
  )
  const send = (method: string, path: string, headers: Headers, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const created = await send('POST', '/api/v1/api-keys', users.admin.auth, {
    name: 'Remote',
    expires_at: new Date(clock.now() + DAY).toISOString(),
  })
  expect(created.status).toBe(201)
  const key = (await created.json()) as ApiKey

  test("last_used_ip is the client's address, last_used_at the time of the use", async () => {
    expect((await send('GET', '/api/v1/tickets', { 'x-api-key': key.token })).status).toBe(200)
    const list = (await (await send('GET', '/api/v1/api-keys', users.admin.auth)).json()) as { api_keys: ApiKey[] }
    expect(list.api_keys.find((k) => k.id === key.id)).toMatchObject({
      last_used_ip: '127.0.0.1',
      last_used_at: new Date(clock.now()).toISOString(),
    })
  })

  test.each([
    ['an access token in X-API-Key', () => ({ 'x-api-key': users.admin.accessToken })],
    ['garbage in X-API-Key', () => ({ 'x-api-key': 'hello' })],
    ['a bad checksum', () => ({ 'x-api-key': `${key.token.slice(0, -1)}${key.token.endsWith('a') ? 'b' : 'a'}` })],
    ['both headers', () => ({ 'x-api-key': key.token, authorization: `Bearer ${key.token}` })],
  ])('%s: the client gets 401 TOKEN_INVALID as JSON', async (_, headers) => {
    const response = await send('GET', '/api/v1/tickets', headers())
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'TOKEN_INVALID' })
  })

  test("the organization's IP allowlist applies to personal access tokens: inside 200, outside 403 IP_NOT_ALLOWED (and not a use)", async () => {
    const security = (body: unknown) => send('PATCH', '/api/v1/organization/security', users.super_admin.auth, body)
    expect((await security({ allowed_ips: ['127.0.0.0/8'] })).status).toBe(200)
    expect((await send('GET', '/api/v1/tickets', { 'x-api-key': key.token })).status).toBe(200)
    expect((await security({ allowed_ips: ['10.0.0.0/8'], force: true })).status).toBe(200)
    clock.advance(2 * MINUTE)
    for (const headers of [{ 'x-api-key': key.token }, { authorization: `Bearer ${key.token}` }] as Headers[]) {
      const response = await send('GET', '/api/v1/tickets', headers)
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ code: 'IP_NOT_ALLOWED' })
    }
    const row = (await runtime.context.db.raw.get<{ last_used_at: number }>('SELECT last_used_at FROM api_keys WHERE id = ?', [key.id]))!
    expect(row.last_used_at).toBeLessThan(clock.now())
  })
})
