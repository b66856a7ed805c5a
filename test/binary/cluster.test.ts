// Two compiled binaries on one PostgreSQL and one Redis, behind no balancer: the promises of several
// instances (README, "Several instances") checked through the HTTP API on the real clock. Started at
// the same moment on an empty database; tokens, page tokens and keys shared; a client's rate budget
// shared; revocations reach the other instance (how fast: `bun run bench`, cluster latency); the authorization server's browser
// session, codes and refresh tokens work across instances; cron tasks run once; webhook
// deliveries sent once by whichever instance claims them, and all of them after a SIGKILL; Redis
// stopped for 10 s under load; PostgreSQL stopped and back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { callbackOf, OAuthBrowser } from '../helpers/oauth-browser.ts'
import { eventually } from '../helpers/wait.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { freePort, run, type RunningServer, startServer } from '../helpers/process.ts'
import { type Answer, CA_FILE, type Receiver, startReceiver } from '../helpers/receiver.ts'
import {
  postgresAvailable,
  redisAvailable,
  type RunningService,
  type S3Service,
  startPostgres,
  startRedis,
  startS3,
} from '../helpers/services.ts'

const folder = tempDir('switchboard-cluster-')
const ADMIN = { email: 'admin@cluster.test', password: 'cluster-test-password' }

let binary: string
let postgres: RunningService
let redis: RunningService
let s3: S3Service
let sql: InstanceType<typeof Bun.SQL>
let env: Record<string, string>
let a: RunningServer
let b: RunningServer
let receiver: Receiver
/** The Super Admin's session, signed in once (the login limit allows 10 a minute per e-mail). */
let admin: Tokens
/** How the receiver answers now (a test slows it down). */
let answer: Answer = { status: 200 }

function instance(name: string): Promise<RunningServer> {
  return startServer([binary], { ...env, INSTANCE_ID: name, DATA_DIR: join(folder, name) }, folder, 60_000)
}

interface Tokens {
  access_token: string
  refresh_token: string
  user: { id: string; organization_id: string }
}

async function call(server: RunningServer, method: string, path: string, token?: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

let clients = 0
async function signIn(server: RunningServer, credentials = ADMIN): Promise<Tokens> {
  const response = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++clients}` },
    body: JSON.stringify(credentials),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Tokens
}

/**
 * Until `server` refuses `token` (401). Generous: nothing but the revocation's message through Redis can
 * make the other instance refuse a token it accepted, so waiting long proves the same; the benchmark
 * (cluster latency) measures how soon it comes.
 */
async function expectRefused(server: RunningServer, token: string): Promise<void> {
  await eventually(
    'the token to be refused',
    async () => ((await call(server, 'GET', '/me', token)).status === 401 ? true : undefined),
    20_000,
  )
}

const ready = postgresAvailable && redisAvailable
describe.skipIf(!ready)('several instances on PostgreSQL + Redis (compiled binary, real clock)', () => {
  beforeAll(async () => {
    ;[binary, postgres, redis, s3, receiver] = await Promise.all([
      compiledBinary(),
      startPostgres(),
      startRedis(),
      startS3(),
      startReceiver(() => answer),
    ])
    sql = new Bun.SQL(postgres.url)
    env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ...s3.settings,
      // The balancer's address: tokens name it (iss, aud), so every instance must have the same one.
      PUBLIC_URL: 'http://switchboard.cluster.test',
      MASTER_KEY: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      NODE_EXTRA_CA_CERTS: CA_FILE,
      CRON_TICK_MS: '100',
      AUTH_CLEANUP_INTERVAL: '1',
      WEBHOOK_TIMEOUT_MS: '2000',
      RATE_LIMITS_ENABLED: 'true',
      // As behind the balancer: each sign-in comes from its own client address (the login limit is per address).
      TRUSTED_PROXIES: '127.0.0.1/32',
      LOG_LEVEL: 'info',
    }
    // The same moment, on an empty database: migrations, first start, signing key and page-token key race.
    ;[a, b] = await Promise.all([instance('a'), instance('b')])
    admin = await signIn(a)
  }, 120_000)

  afterAll(async () => {
    await Promise.allSettled([a?.stop('SIGKILL'), b?.stop('SIGKILL')])
    await sql?.close()
    await Promise.allSettled([postgres?.stop(), redis?.stop(), s3?.stop(), receiver?.stop()])
    rmSync(folder, { recursive: true, force: true })
  })

  test('started together on an empty database: one organization, one admin, one signing key, one page-token key; the audit chain holds', async () => {
    const [{ n: orgs }] = await sql`SELECT count(*)::int AS n FROM organizations`
    const [{ n: users }] = await sql`SELECT count(*)::int AS n FROM users`
    const [{ n: keys }] = await sql`SELECT count(*)::int AS n FROM signing_keys`
    const [{ n: pageKeys }] = await sql`SELECT count(*)::int AS n FROM system_kv WHERE key LIKE 'page_token%'`
    expect({ orgs, users, keys, pageKeys }).toEqual({ orgs: 1, users: 1, keys: 1, pageKeys: 1 })
    const [jwksA, jwksB] = await Promise.all([a, b].map(async (s) => (await fetch(`${s.url}/.well-known/jwks.json`)).json()))
    expect(jwksB).toEqual(jwksA)
    const verify = await run(
      [binary, 'audit', 'verify'],
      { DATABASE_URL: postgres.url, DATA_DIR: join(folder, 'a'), MASTER_KEY: env.MASTER_KEY! },
      folder,
    )
    expect(verify.code).toBe(0)
  })

  test('a token and a page token of one instance work on the other', async () => {
    const { access_token: token } = await signIn(a)
    for (const subject of ['one', 'two', 'three']) expect((await call(b, 'POST', '/tickets', token, { subject })).status).toBe(201)
    const first = (await (await call(a, 'GET', '/tickets?page_size=2', token)).json()) as { tickets: unknown[]; next_page_token: string }
    const second = (await (await call(b, 'GET', `/tickets?page_size=2&page_token=${first.next_page_token}`, token)).json()) as {
      tickets: unknown[]
    }
    expect([first.tickets.length, second.tickets.length]).toEqual([2, 1])
  })

  test('revocations reach the other instance, tokens it had verified included', async () => {
    // Logout on a: b had verified the token already.
    const one = await signIn(a)
    expect((await call(b, 'GET', '/me', one.access_token)).status).toBe(200)
    expect((await call(a, 'POST', '/auth/logout', one.access_token, { refresh_token: one.refresh_token })).status).toBe(204)
    await expectRefused(b, one.access_token)

    // Refresh-token reuse on b ends the session on a.
    const two = await signIn(a)
    expect((await call(a, 'GET', '/me', two.access_token)).status).toBe(200)
    expect((await call(b, 'POST', '/auth/refresh', undefined, { refresh_token: two.refresh_token })).status).toBe(200)
    expect((await call(b, 'POST', '/auth/refresh', undefined, { refresh_token: two.refresh_token })).status).toBe(401)
    await expectRefused(a, two.access_token)

    // A disabled user, and a role change, at once on the other instance.
    const agent = { email: 'agent@cluster.test', password: 'agent-password-123' }
    const created = await call(a, 'POST', '/users', admin.access_token, { ...agent, name: 'Agent', role: 'agent' })
    expect(created.status).toBe(201)
    const agentId = ((await created.json()) as { id: string }).id
    const session = await signIn(b, agent)
    expect((await call(b, 'POST', '/tickets', session.access_token, { subject: 'by the agent' })).status).toBe(201)
    expect((await call(a, 'PATCH', `/users/${agentId}`, admin.access_token, { role: 'viewer' })).status).toBe(200)
    expect((await call(b, 'POST', '/tickets', session.access_token, { subject: 'as a viewer' })).status).toBe(403)
    expect((await call(a, 'PATCH', `/users/${agentId}`, admin.access_token, { status: 'disabled' })).status).toBe(200)
    expect((await call(b, 'GET', '/me', session.access_token)).status).toBe(401)

    // A password change on b ends the admin's other sessions on a.
    const other = await signIn(a)
    const change = await call(b, 'POST', '/auth/password', admin.access_token, {
      current_password: ADMIN.password,
      new_password: ADMIN.password + '!',
    })
    expect(change.status).toBeLessThan(300)
    await expectRefused(a, other.access_token)
    ADMIN.password += '!'
  }, 90_000)

  test("the authorization server across instances: pages on a, the code redeemed on b, the browser's cookie on b; refresh reuse on b kills the family on a", async () => {
    const CALLBACK = 'https://app.cluster.test/cb'
    const created = await call(a, 'POST', '/oauth-clients', admin.access_token, {
      name: 'Cluster app',
      redirect_uris: [CALLBACK],
      scopes: ['openid', 'offline_access', 'tickets:read'],
      grant_types: ['authorization_code', 'refresh_token'],
    })
    expect(created.status).toBe(201)
    const client = (await created.json()) as { client_id: string; client_secret: string }
    // One cookie jar for both instances (as behind the balancer); each request from its own address.
    const origins = new Set([new URL(a.url).origin, new URL(b.url).origin])
    const browser = new OAuthBrowser(
      (url, init) =>
        fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': `198.51.100.${++clients}` } }),
      (u) => origins.has(u.origin),
      a.url,
    )
    const query = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid offline_access tickets:read',
      state: 'c',
    })
    const code = callbackOf(await browser.authorize(`${a.url}/oauth2/auth?${query}`, { ...ADMIN, consent: 'allow' })).params.code!
    const token = async (server: RunningServer, form: Record<string, string>) => {
      const response = await fetch(`${server.url}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
          'x-forwarded-for': `198.51.100.${++clients}`,
        },
        body: new URLSearchParams(form).toString(),
      })
      return { status: response.status, body: (await response.json()) as Record<string, string> }
    }
    const first = await token(b, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK })
    expect(first.status).toBe(200)
    expect((await call(a, 'GET', '/tickets', first.body.access_token)).status).toBe(200)
    // Signed in on a's pages: b knows the cookie (prompt=none gives a code at once).
    const silent = await browser.request(`${b.url}/oauth2/auth?${query}&prompt=none`)
    expect(silent.kind === 'redirect' && typeof callbackOf(silent.location).params.code).toBe('string')

    const second = await token(a, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token! })
    expect(second.status).toBe(200)
    expect((await call(b, 'GET', '/tickets', second.body.access_token)).status).toBe(200)
    const reuse = await token(b, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token! })
    expect({ status: reuse.status, error: reuse.body.error }).toEqual({ status: 400, error: 'invalid_grant' })
    await expectRefused(a, second.body.access_token!)
  }, 90_000)

  test('cron tasks run once, by the leader; /health on either instance says which instance ran them', async () => {
    const healths = await eventually('auth_cleanup to have run', async () => {
      const both = (await Promise.all([a, b].map(async (s) => (await fetch(`${s.url}/health`)).json()))) as {
        instance: string
        cron_leader: boolean
        cron: Record<string, { runs: number; ran_by: string | null; scope: string }>
      }[]
      return both.every((h) => h.cron.auth_cleanup!.runs >= 2) ? both : undefined
    })
    expect(healths.map((h) => h.instance)).toEqual(['a', 'b'])
    expect(healths.filter((h) => h.cron_leader).length).toBe(1)
    const leader = healths.find((h) => h.cron_leader)!.instance
    for (const h of healths) {
      expect(h.cron.auth_cleanup).toMatchObject({ scope: 'cluster', ran_by: leader })
      expect(h.cron.webhook_dispatch).toMatchObject({ scope: 'instance', ran_by: h.instance })
    }
  })

  test("a client spread over both instances gets exactly its plan's budget", async () => {
    const orgId = admin.user.organization_id
    const limited = await run([binary, 'org', 'set-limits', orgId, '--per-minute', '25', '--per-day', '100000'], {
      DATABASE_URL: postgres.url,
      DATA_DIR: join(folder, 'a'),
    })
    expect(limited.code).toBe(0)
    const user = { email: 'budget@cluster.test', password: 'budget-password-123' }
    expect((await call(a, 'POST', '/users', admin.access_token, { ...user, name: 'Budget', role: 'agent' })).status).toBe(201)
    const { access_token: token } = await signIn(a, user)
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await call(i % 2 === 0 ? a : b, 'GET', '/me', token)).status)
    expect(statuses.filter((s) => s === 200).length).toBe(25)
    expect(statuses.slice(25).every((s) => s === 429)).toBe(true)
    expect(
      (await run([binary, 'org', 'set-limits', orgId, '--clear'], { DATABASE_URL: postgres.url, DATA_DIR: join(folder, 'a') })).code,
    ).toBe(0)
  })

  test('an instance without REDIS_URL is refused beside them, and says why', async () => {
    const alone = await run(
      [binary],
      { ...env, REDIS_URL: '', INSTANCE_ID: 'c', DATA_DIR: join(folder, 'c'), PORT: String(freePort()) },
      folder,
    )
    expect(alone.code).toBe(1)
    expect(alone.stderr).toContain('another switchboard instance is running on this PostgreSQL database; several instances need REDIS_URL')
  })

  // Issue 27 item 10: a start waits for Redis (up to 5 s), so its first requests are counted there; one whose
  // Redis is away serves without it after that wait, and says so (real clock, no Redis ever answers).
  test('an instance whose Redis is away at start serves without it after its wait, and says so', async () => {
    const away = await startServer(
      [binary],
      { ...env, REDIS_URL: `redis://127.0.0.1:${freePort()}`, INSTANCE_ID: 'd', DATA_DIR: join(folder, 'd') },
      folder,
      60_000,
    )
    let stopped: Awaited<ReturnType<RunningServer['stop']>> | undefined
    try {
      expect((await fetch(`${away.url}/health`)).status).toBe(200)
      // Revocation checks read the database while Redis is away: a valid token still works.
      expect((await call(away, 'GET', '/me', admin.access_token)).status).toBe(200)
    } finally {
      stopped = await away.stop()
    }
    expect(stopped.stdout).toContain('redis unreachable at start: serving without it until it answers')
  }, 90_000)

  test('webhook deliveries: each sent once by whichever instance claims it; after a SIGKILL the other sends the rest', async () => {
    const orgId = admin.user.organization_id
    const cidrs = await run([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], {
      DATABASE_URL: postgres.url,
      DATA_DIR: join(folder, 'a'),
    })
    expect(cidrs.code).toBe(0)
    const hook = await call(b, 'POST', '/webhooks', admin.access_token, {
      url: receiver.url(),
      events: ['ticket.created'],
      secret: 'cluster-test-secret-1',
    })
    expect([hook.status, hook.status === 201 ? '' : await hook.text()]).toEqual([201, ''])
    const before = receiver.received.length
    for (let i = 0; i < 40; i++)
      expect((await call(i % 2 ? a : b, 'POST', '/tickets', admin.access_token, { subject: `t${i}` })).status).toBe(201)
    const sent = await eventually('40 deliveries', async () =>
      receiver.received.length - before >= 40 ? receiver.received.slice(before) : undefined,
    )
    await Bun.sleep(500)
    const ids = receiver.received.slice(before).map((r) => r.headers['webhook-id'])
    expect(ids.length).toBe(40)
    expect(new Set(ids).size).toBe(40)
    expect(sent.length).toBe(40)

    // Slow answers keep deliveries in flight; a is killed with some of them claimed.
    answer = { status: 200, delayMs: 1500 }
    const start = receiver.received.length
    for (let i = 0; i < 10; i++) expect((await call(a, 'POST', '/tickets', admin.access_token, { subject: `k${i}` })).status).toBe(201)
    await Bun.sleep(300)
    await a.stop('SIGKILL')
    answer = { status: 200 }
    const events = await eventually(
      'every event after the SIGKILL',
      async () => {
        const ids = new Set(receiver.received.slice(start).map((r) => r.headers['webhook-id']))
        return ids.size >= 10 ? ids : undefined
      },
      60_000,
    )
    expect(events.size).toBe(10)
    a = await instance('a')
  }, 90_000)

  test('Redis stopped for 10 s under load: requests still served, revoked tokens still refused, /ready and /health say so; all back after', async () => {
    const revoked = await signIn(a)
    expect((await call(b, 'GET', '/me', revoked.access_token)).status).toBe(200)
    await redis.pause()
    const stoppedAt = Date.now()
    // Logged out while Redis is away: b cannot hear of it, and checks the database instead.
    expect((await call(a, 'POST', '/auth/logout', revoked.access_token, { refresh_token: revoked.refresh_token })).status).toBe(204)
    const statuses: number[] = []
    let refusedOnB = 0
    while (Date.now() - stoppedAt < 10_000) {
      const [one, two, gone] = await Promise.all([
        call(a, 'POST', '/tickets', admin.access_token, { subject: 'while redis is away' }),
        call(b, 'GET', '/tickets?page_size=5', admin.access_token),
        call(b, 'GET', '/me', revoked.access_token),
      ])
      statuses.push(one.status, two.status)
      if (gone.status === 401) refusedOnB++
      else throw new Error(`a revoked token got ${gone.status} on b while Redis was away`)
    }
    expect(new Set(statuses)).toEqual(new Set([201, 200]))
    expect(refusedOnB).toBeGreaterThan(0)
    for (const server of [a, b]) {
      const ready = await fetch(`${server.url}/ready`)
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', redis: 'unreachable' }])
      expect(((await (await fetch(`${server.url}/health`)).json()) as { status: string; redis: string }).redis).toBe('unreachable')
    }
    await redis.resume()
    for (const server of [a, b])
      await eventually('redis to be back', async () => {
        const ready = (await (await fetch(`${server.url}/ready`)).json()) as { redis: string }
        return ready.redis === 'ok' ? true : undefined
      })
    // Revocations travel through Redis again.
    const after = await signIn(b)
    expect((await call(a, 'GET', '/me', after.access_token)).status).toBe(200)
    expect((await call(b, 'POST', '/auth/logout', after.access_token, { refresh_token: after.refresh_token })).status).toBe(204)
    await expectRefused(a, after.access_token)
  }, 60_000)

  test('PostgreSQL stopped: 503 with the error shape and Retry-After, /ready 503; served again when it is back', async () => {
    await postgres.pause()
    try {
      const response = await call(a, 'POST', '/tickets', admin.access_token, { subject: 'no database' })
      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('1')
      expect((await response.json()) as object).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
      // A write that succeeded within the last second answers /ready for that second (READY_WRITE_INTERVAL_MS):
      // the previous test polled b's /ready a moment ago.
      await eventually('b to say it is not ready', async () => ((await fetch(`${b.url}/ready`)).status === 503 ? true : undefined), 20_000)
      expect((await fetch(`${b.url}/health`)).status).toBe(200)
    } finally {
      await postgres.resume()
    }
    for (const server of [a, b])
      await eventually('the database to be back', async () => ((await fetch(`${server.url}/ready`)).status === 200 ? true : undefined))
    expect((await call(b, 'POST', '/tickets', admin.access_token, { subject: 'database back' })).status).toBe(201)
    // Neither instance died meanwhile.
    expect([a.child.exitCode, b.child.exitCode]).toEqual([null, null])
  }, 60_000)
})
