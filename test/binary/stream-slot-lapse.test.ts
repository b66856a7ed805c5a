// Issue 27 item 11: the event streams' per-user limit (5) counts on all instances through Redis, each stream
// holding a slot leased for three heartbeats and 5 s and renewed at every heartbeat. An instance killed with
// SIGKILL releases nothing: its slots must lapse by themselves. Two compiled binaries on one PostgreSQL and
// one Redis, EVENT_STREAM_HEARTBEAT=1 (an 8 s lease), the real clock: five streams on A fill the user's
// limit, and past a whole lease (A renews them) B still refuses a sixth; A is killed; B then accepts streams
// again, all five, once the leases have lapsed (waited for with a generous deadline, never timed).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { MAX_STREAMS_PER_USER } from '../../src/modules/event-stream/hub.ts'
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

const folder = tempDir('switchboard-stream-lapse-')
const ADMIN = { email: 'admin@lapse.test', password: 'lapse-test-password' }
const HEARTBEAT_S = 1
/** The lease of a slot: three heartbeats and 5 s (open-stream.ts). */
const LEASE_MS = 3 * HEARTBEAT_S * 1000 + 5_000
/** Generous: the slots lapse after LEASE_MS; a loaded machine may take much longer to notice. */
const DEADLINE_MS = 90_000

let postgres: RunningService
let redis: RunningService
let s3: S3Service
let a: RunningServer
let b: RunningServer
let token: string
const clients: SseClient[] = []

function openStream(server: RunningServer): Promise<Response> {
  return fetch(`${server.url}/api/v1/events/stream?types=ticket.created`, { headers: { authorization: `Bearer ${token}` } })
}

describe.skipIf(!(postgresAvailable && redisAvailable) || TEST_ENGINE !== 'postgres')(
  "a SIGKILLed instance's stream slots lapse (two compiled instances, PostgreSQL + Redis, real clock)",
  () => {
    beforeAll(async () => {
      let binary: string
      ;[binary, postgres, redis, s3] = await Promise.all([compiledBinary(), startPostgres(), startRedis(), startS3()])
      const env = {
        DATABASE_URL: postgres.url,
        REDIS_URL: redis.url,
        ...s3.settings,
        PUBLIC_URL: 'http://switchboard.lapse.test',
        MASTER_KEY: randomBytes(32).toString('hex'),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        EVENT_STREAM_HEARTBEAT: String(HEARTBEAT_S),
        LOG_LEVEL: 'warn',
      }
      const instance = (name: string) => startServer([binary], { ...env, INSTANCE_ID: name, DATA_DIR: join(folder, name) }, folder, 60_000)
      a = await instance('a')
      b = await instance('b')
      const login = await fetch(`${a.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      })
      token = ((await login.json()) as { access_token: string }).access_token
    }, 180_000)

    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => undefined)
      await Promise.allSettled([a?.stop('SIGKILL'), b?.stop('SIGKILL')])
      await Promise.allSettled([postgres?.stop(), redis?.stop(), s3?.stop()])
      rmSync(folder, { recursive: true, force: true })
    })

    test('B refuses a sixth stream while A holds five; after SIGKILL of A, the slots lapse and B accepts', async () => {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
        const response = await openStream(a)
        expect(response.status).toBe(200)
        const client = new SseClient(response)
        clients.push(client)
        await client.waitForComment('connected')
      }
      // A renews its slots at every heartbeat: past a whole lease, they still hold.
      await Bun.sleep(LEASE_MS + 2_000)
      const refused = await openStream(b)
      expect(refused.status).toBe(409)
      expect(((await refused.json()) as { code: string }).code).toBe('LIMIT_REACHED')

      await a.stop('SIGKILL')
      const killedAt = Date.now()
      // Each of A's slots lapses a lease after its own last renewal: B takes them as they come, until it holds all five.
      let held = 0
      while (held < MAX_STREAMS_PER_USER) {
        const response = await openStream(b)
        if (response.status === 200) {
          const client = new SseClient(response)
          clients.push(client)
          await client.waitForComment('connected')
          held++
        } else {
          expect(response.status).toBe(409)
          await response.arrayBuffer()
          expect(Date.now() - killedAt).toBeLessThan(DEADLINE_MS)
          await Bun.sleep(250)
        }
      }
      // And the limit still holds on B: a sixth is refused.
      expect((await openStream(b)).status).toBe(409)
    }, 180_000)
  },
)
