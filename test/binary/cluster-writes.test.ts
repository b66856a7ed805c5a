// Two compiled binaries writing at once through a TCP proxy that delays every chunk to and from
// PostgreSQL (as a database on another host), real clock (issue 28): 16 clients create, update and
// comment on tickets through both instances; nothing is lost or duplicated, the numbers have no gap,
// every event reaches the webhook exactly once, and the audit chain verifies.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type DelayProxy, startDelayProxy } from '../helpers/delay-proxy.ts'
import { run, type RunningServer, startServer } from '../helpers/process.ts'
import { CA_FILE, type Receiver, startReceiver } from '../helpers/receiver.ts'
import {
  postgresAvailable,
  redisAvailable,
  type RunningService,
  type S3Service,
  startPostgres,
  startRedis,
  startS3,
} from '../helpers/services.ts'
import { eventually } from '../helpers/wait.ts'

const folder = tempDir('switchboard-cluster-writes-')
const ADMIN = { email: 'admin@writes.test', password: 'writes-test-password' }
const CLIENTS = 16
const PER_CLIENT = 5

let binary: string
let postgres: RunningService
let redis: RunningService
let s3: S3Service
let receiver: Receiver
let proxy: DelayProxy
let env: Record<string, string>
const servers: RunningServer[] = []

describe.skipIf(!postgresAvailable || !redisAvailable)('two binaries writing at once with PostgreSQL across a delaying proxy', () => {
  beforeAll(async () => {
    ;[binary, postgres, redis, s3, receiver] = await Promise.all([
      compiledBinary(),
      startPostgres(),
      startRedis(),
      startS3(),
      startReceiver(),
    ])
    proxy = await startDelayProxy(Number(new URL(postgres.url).port), 1)
    env = {
      DATABASE_URL: postgres.url.replace(/:\d+\//, `:${proxy.port}/`),
      REDIS_URL: redis.url,
      ...s3.settings,
      PUBLIC_URL: 'http://switchboard.writes.test',
      MASTER_KEY: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      NODE_EXTRA_CA_CERTS: CA_FILE,
      RATE_LIMITS_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    }
    servers.push(await startServer([binary], { ...env, INSTANCE_ID: 'a', DATA_DIR: join(folder, 'a') }, folder, 60_000))
    servers.push(await startServer([binary], { ...env, INSTANCE_ID: 'b', DATA_DIR: join(folder, 'b') }, folder, 60_000))
  }, 120_000)

  afterAll(async () => {
    await Promise.allSettled(servers.map((server) => server.stop()))
    await proxy?.close()
    await Promise.allSettled([postgres?.stop(), redis?.stop(), s3?.stop(), receiver?.stop()])
    rmSync(folder, { recursive: true, force: true })
  })

  test('16 clients over both instances create, update and comment: all kept once, numbers 1..80, each event delivered once, the chain verifies', async () => {
    const login = await fetch(`${servers[0]!.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
    const { access_token: token, user } = (await login.json()) as { access_token: string; user: { organization_id: string } }
    const cidrs = await run([binary, 'org', 'webhook-cidrs', user.organization_id, '--set', '127.0.0.0/8'], {
      DATABASE_URL: postgres.url,
      DATA_DIR: join(folder, 'a'),
      MASTER_KEY: env.MASTER_KEY!,
    })
    expect(cidrs.code).toBe(0)
    const call = (k: number, method: string, path: string, body: unknown) =>
      fetch(`${servers[k % 2]!.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const hook = await call(0, 'POST', '/webhooks', { url: receiver.url(), events: ['ticket.*'], secret: 'writes-test-secret-1' })
    expect(hook.status).toBe(201)

    const statuses: number[] = []
    const created: { id: string; number: number }[] = []
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, k) => {
        for (let i = 0; i < PER_CLIENT; i++) {
          const made = await call(k + i, 'POST', '/tickets', { subject: `c${k} t${i}` })
          statuses.push(made.status)
          const ticket = (await made.json()) as { id: string; number: number }
          created.push(ticket)
          // The update and the comment go to the other instance than the creation.
          const updated = await call(k + i + 1, 'PATCH', `/tickets/${ticket.id}`, { priority: 'high', tags: [`client-${k}`] })
          statuses.push(updated.status)
          const commented = await call(k + i, 'POST', `/tickets/${ticket.id}/comments`, { body: `from client ${k}`, public: true })
          statuses.push(commented.status)
        }
      }),
    )
    expect(statuses.filter((status) => status >= 300)).toEqual([])
    const total = CLIENTS * PER_CLIENT
    expect(created.map((t) => t.number).sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i + 1))

    const sql = new Bun.SQL(postgres.url)
    try {
      const [counts] = (await sql`SELECT (SELECT count(*)::int FROM tickets WHERE tags LIKE '%client-%') AS high,
        (SELECT count(*)::int FROM ticket_comments) AS comments,
        (SELECT count(*)::int FROM events WHERE type LIKE 'ticket.%') AS events`) as { high: number; comments: number; events: number }[]
      // Every update kept (its tags are the client's).
      expect(counts!.high).toBe(total)
      expect(counts!.comments).toBe(total)
      // Each ticket: created, updated, a comment added.
      expect(counts!.events).toBe(total * 3)
      // Every event reaches the receiver once: one webhook-id per event, none twice.
      const ids = await eventually(
        'a delivery of every event',
        async () => {
          const seen = receiver.received.map((r) => r.headers['webhook-id'])
          return seen.length >= total * 3 ? seen : undefined
        },
        60_000,
      )
      await Bun.sleep(500)
      expect(receiver.received.length).toBe(total * 3)
      expect(new Set(ids).size).toBe(total * 3)
    } finally {
      await sql.close()
    }
    const verify = await run(
      [binary, 'audit', 'verify'],
      { DATABASE_URL: postgres.url, DATA_DIR: join(folder, 'a'), MASTER_KEY: env.MASTER_KEY! },
      folder,
    )
    expect([verify.code, verify.stderr]).toEqual([0, ''])
  }, 180_000)
})
