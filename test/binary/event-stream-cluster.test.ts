// The event stream on two compiled binaries sharing one PostgreSQL and one Redis, on the real clock: a
// client of B sees the tickets written through A live (the signal crosses through Redis: the poll is set
// to an hour, so nothing else brings them; how soon they come, `bun run bench` measures); it stays open past Bun's idle timeout with a ping; gone from B, it resumes on A with
// Last-Event-ID and nothing is lost or repeated; a signed-out session's stream ends at a heartbeat.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { SseClient } from '../modules/event-stream/sse.ts'
import { tempDir } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { type RunningServer, startServer } from '../helpers/process.ts'
import {
  postgresAvailable,
  redisAvailable,
  type RunningService,
  type S3Service,
  startPostgres,
  startRedis,
  startS3,
} from '../helpers/services.ts'

const folder = tempDir('switchboard-stream-cluster-')
const ADMIN = { email: 'admin@stream.test', password: 'stream-test-password' }
const HEARTBEAT_S = 12

let postgres: RunningService
let redis: RunningService
let s3: S3Service
let a: RunningServer
let b: RunningServer
let token: string
const clients: SseClient[] = []

async function signIn(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

let tickets = 0
async function ticket(server: RunningServer): Promise<string> {
  const subject = `Ticket ${++tickets}`
  const response = await fetch(`${server.url}/api/v1/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subject }),
  })
  expect(response.status).toBe(201)
  return subject
}

async function stream(server: RunningServer, headers: Record<string, string> = {}, as = token): Promise<SseClient> {
  const response = await fetch(`${server.url}/api/v1/events/stream?types=ticket.created`, {
    headers: { authorization: `Bearer ${as}`, ...headers },
  })
  expect(response.status).toBe(200)
  const client = new SseClient(response)
  clients.push(client)
  await client.waitForComment('connected')
  return client
}

const subjects = (client: SseClient) => client.events.map((e) => (e.envelope.data.ticket as { subject: string }).subject)

// Its own PostgreSQL and Redis whatever the engine of the run: once, in the PostgreSQL run (CI's budget).
describe.skipIf(!(postgresAvailable && redisAvailable) || TEST_ENGINE !== 'postgres')(
  'the event stream across two compiled instances (PostgreSQL + Redis, real clock)',
  () => {
    beforeAll(async () => {
      let binary: string
      ;[binary, postgres, redis, s3] = await Promise.all([compiledBinary(), startPostgres(), startRedis(), startS3()])
      const env = {
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        ...s3.settings,
        PUBLIC_URL: 'http://switchboard.stream.test',
        MASTER_KEY: randomBytes(32).toString('hex'),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        EVENT_STREAM_HEARTBEAT: String(HEARTBEAT_S),
        // Only the signal through Redis can bring another instance's events within the tests' waits.
        EVENT_STREAM_POLL: '3600',
        LOG_LEVEL: 'warn',
      }
      const instance = (name: string) => startServer([binary], { ...env, INSTANCE_ID: name, DATA_DIR: join(folder, name) }, folder, 60_000)
      a = await instance('a')
      b = await instance('b')
      token = await signIn(a)
    }, 120_000)

    afterAll(async () => {
      for (const client of clients) await client.close()
      await Promise.allSettled([a?.stop('SIGKILL'), b?.stop('SIGKILL')])
      await Promise.allSettled([postgres?.stop(), redis?.stop(), s3?.stop()])
      rmSync(folder, { recursive: true, force: true })
    })

    test('live on B from A; open past the idle timeout with a ping; resumed on A with nothing lost or repeated', async () => {
      const onB = await stream(b)
      const first = [await ticket(a), await ticket(b), await ticket(a)]
      await onB.waitFor(3, 20_000)
      expect(subjects(onB)).toEqual(first)
      // Idle longer than Bun's 10 s idle timeout: still open, a ping came, and it still delivers.
      await onB.waitForComment('ping', 40_000)
      expect(onB.ended).toBe(false)
      const later = await ticket(a)
      await onB.waitFor(4, 20_000)
      await onB.close()
      const meanwhile = [await ticket(a), await ticket(b)]
      const onA = await stream(a, { 'last-event-id': String(onB.events.at(-1)!.id) })
      await onA.waitFor(2, 20_000)
      const after = await ticket(b)
      await onA.waitFor(3, 20_000)
      await Bun.sleep(200)
      expect([...subjects(onB), ...subjects(onA)]).toEqual([...first, later, ...meanwhile, after])
      const ids = [...onB.events, ...onA.events].map((e) => e.id)
      expect(new Set(ids).size).toBe(ids.length)
    }, 120_000)

    test('a session signed out on A ends its stream on B at a heartbeat', async () => {
      const own = await signIn(a)
      const onB = await stream(b, {}, own)
      const out = await fetch(`${a.url}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${own}` } })
      expect(out.status).toBe(204)
      await onB.waitForEnd(40_000)
      expect(onB.others.map((o) => o.event)).toEqual(['stream.closed'])
    }, 120_000)
  },
)
