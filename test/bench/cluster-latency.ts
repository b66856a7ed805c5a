// Cross-instance latencies (issue 27 item 10: the tests wait for these with generous deadlines, the benchmark keeps the
// figures): two compiled binaries on one PostgreSQL, one Redis and one S3, real clock; revocation, event stream and
// webhook delivery across instances, then a gone and a frozen Redis in process (redis-outage.ts). Median and p90.
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { SseClient } from '../modules/event-stream/sse.ts'
import { tempDir } from '../helpers/app.ts'
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
import { cli, firstStart, type Instance, organizationOf, signIn, startInstance } from './cluster-setup.ts'
import { benchRedisOutage } from './redis-outage.ts'

const SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 30)
export const CLUSTER_LATENCY_HEADER = `Cross-instance latencies: two compiled binaries on one PostgreSQL, one Redis and one S3 (s3rver), real clock, ${SAMPLES} samples each`

export interface LatencyRow {
  what: string
  /** Milliseconds, one a sample. */
  samples: number[]
  target: string
}

export interface ClusterLatencyBench {
  rows: LatencyRow[]
  /** Revocation samples in which B's first GET /me after the 204 was already refused. */
  revokedAtFirstPoll: number
}

/** Its status, the body read (so that the connection goes back to the pool); throws unless it is `expected`. */
async function expectStatus(response: Response, expected: number, what: string): Promise<void> {
  await response.arrayBuffer()
  if (response.status !== expected) throw new Error(`${what} answered ${response.status}, not ${expected}`)
}

/** performance.now() once `condition` holds, looked at every millisecond; fails after 20 s. */
async function arrival(condition: () => boolean, what: string): Promise<number> {
  for (const deadline = performance.now() + 20_000; ; await Bun.sleep(1)) {
    if (condition()) return performance.now()
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
  }
}

/** `measure` once to warm up (first connections, first queries), then SAMPLES times one after another. */
async function sample(measure: (i: number) => Promise<number>): Promise<number[]> {
  await measure(-1)
  const samples: number[] = []
  for (let i = 0; i < SAMPLES; i++) samples.push(await measure(i))
  return samples
}

export async function benchClusterLatency(): Promise<ClusterLatencyBench> {
  const dir = tempDir('switchboard-bench-latency-')
  const instances: Instance[] = []
  let postgres: RunningService | undefined
  let redis: RunningService | undefined
  let s3: S3Service | undefined
  let receiver: Receiver | undefined
  let stream: SseClient | undefined
  try {
    const binary = join(dir, 'switchboard')
    ;[, postgres, redis, s3, receiver] = await Promise.all([buildBinary(binary), startPostgres(), startRedis(), startS3(), startReceiver()])
    const env = {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      PUBLIC_URL: 'http://switchboard.bench',
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ...s3.settings,
      MASTER_KEY: randomBytes(32).toString('hex'),
      NODE_EXTRA_CA_CERTS: CA_FILE,
      // Only the signal through Redis can bring A's events to B's stream: the poll (3 s by default) never runs here.
      EVENT_STREAM_POLL: '3600',
      // Each revocation sample signs in anew: the login limit (10 a minute per e-mail) would refuse most of them.
      RATE_LIMITS_ENABLED: 'false',
    }
    await firstStart(binary, dir, 'latency-boot', env)
    const sql = new Bun.SQL(postgres.url)
    const orgId = await organizationOf(sql).finally(() => sql.close())
    // The receiver is on loopback: the operator allows it for this organization.
    cli(binary, dir, 'latency-boot', env, ['org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'])
    for (const name of ['latency-a', 'latency-b']) instances.push(await startInstance(binary, dir, name, env))
    const [a, b] = instances as [Instance, Instance]
    const auth = await signIn(a.base)
    const createTicket = async (on: Instance, subject: string) => {
      const response = await fetch(`${on.base}/api/v1/tickets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject }),
      })
      await expectStatus(response, 201, 'ticket creation')
    }

    // 1. Signed out on A: from the 204 until B, which had cached the token as verified, answers 401.
    let firstPoll = 0
    const revocation = await sample(async (i) => {
      const session = await signIn(a.base)
      await expectStatus(await fetch(`${b.base}/api/v1/me`, { headers: session }), 200, 'GET /me on B')
      await expectStatus(await fetch(`${a.base}/api/v1/auth/logout`, { method: 'POST', headers: session }), 204, 'logout on A')
      const loggedOut = performance.now()
      for (let polls = 1, deadline = loggedOut + 20_000; ; polls++) {
        const response = await fetch(`${b.base}/api/v1/me`, { headers: session })
        await response.arrayBuffer()
        if (response.status === 401) {
          if (polls === 1 && i >= 0) firstPoll++
          return performance.now() - loggedOut
        }
        if (response.status !== 200) throw new Error(`GET /me on B answered ${response.status}`)
        if (performance.now() > deadline) throw new Error('B still accepted the token 20 s after the logout on A')
      }
    })

    // 2. A stream on B: from A's 201 until the event is read from B's stream.
    const response = await fetch(`${b.base}/api/v1/events/stream?types=ticket.created`, { headers: auth })
    if (response.status !== 200) throw new Error(`the stream on B answered ${response.status}`)
    const onB = (stream = new SseClient(response))
    await onB.waitForComment('connected')
    const eventStream = await sample(async (i) => {
      const before = onB.events.length
      await createTicket(a, `Stream latency ${i}`)
      const created = performance.now()
      // Already there (read before the 201 was): about 0.
      const at = await arrival(() => onB.events.length > before, "the event on B's stream")
      const subject = (onB.events[before]!.envelope.data.ticket as { subject: string }).subject
      if (subject !== `Stream latency ${i}` || onB.events.length !== before + 1) throw new Error(`B streamed ${subject}`)
      return at - created
    })
    await stream.close()

    // 3. One webhook: from A's 201 until the receiver has the delivery (sent by whichever dispatcher claims it).
    const hook = await fetch(`${a.base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url('/latency'), events: ['ticket.created'], secret: 'bench-secret-0123456789' }),
    })
    await expectStatus(hook, 201, 'webhook registration')
    const { received } = receiver
    const webhook = await sample(async (i) => {
      const before = received.length
      await createTicket(a, `Webhook latency ${i}`)
      // Date.now(): the receiver stamps each request with it.
      const created = Date.now()
      await arrival(() => received.length > before, 'the delivery')
      if (!received[before]!.body.includes(`Webhook latency ${i}"`)) throw new Error(`unexpected delivery: ${received[before]!.body}`)
      return received[before]!.at - created
    })
    await Bun.sleep(500)
    if (received.length !== SAMPLES + 1) throw new Error(`${received.length} deliveries for ${SAMPLES + 1} tickets`)

    await Promise.all(instances.splice(0).map((i) => i.stop()))
    // 4. In process, its own Redis, once the binaries are stopped.
    const outage = await benchRedisOutage(SAMPLES)
    const rows: LatencyRow[] = [
      { what: '1. revocation: logout on A -> 401 on B', samples: revocation, target: '< 1 s' },
      { what: "2. event stream: ticket on A -> event on B's stream", samples: eventStream, target: '< 2.5 s (the poll: 3 s)' },
      { what: '3. webhook: ticket on A -> delivery received', samples: webhook, target: '< 1 s' },
      { what: '4a. publish, Redis stopped -> false', samples: outage.publishGone, target: '< 100 ms' },
      { what: '4b. rate-limit check, Redis frozen -> fails open', samples: outage.checkFrozen, target: '~500 ms (its timeout)' },
    ]
    return { rows, revokedAtFirstPoll: firstPoll }
  } finally {
    await stream?.close()
    await Promise.all(instances.map((i) => i.stop()))
    receiver?.stop()
    await Promise.allSettled([postgres?.stop(), redis?.stop(), s3?.stop()])
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printClusterLatency({ rows, revokedAtFirstPoll }: ClusterLatencyBench): void {
  const out = (line: string) => process.stdout.write(`  ${line}\n`)
  const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0))
  out('1-3 timed from the answer of A (204, 201) as its client read it; rate limits off; EVENT_STREAM_POLL=3600 (only Redis delivers)')
  out("4 in process with an instance's defaults (reconnection every 1 s, 500 ms for a rate-limit check)")
  out('| measurement | N | median ms | p90 ms | max ms | target |')
  out('|---|---|---|---|---|---|')
  for (const { what, samples, target } of rows) {
    const sorted = [...samples].sort((x, y) => x - y)
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
    out(`| ${what} | ${sorted.length} | ${ms(at(0.5))} | ${ms(at(0.9))} | ${ms(sorted.at(-1)!)} | ${target} |`)
  }
  // Below one round trip the figure no longer measures Redis: say when the poll could not see the delay at all.
  out(
    `1: B's first GET /me after the 204 was already 401 in ${revokedAtFirstPoll} of ${rows[0]!.samples.length} samples (the figure is then that one request)`,
  )
  out("2: B's stream is looked at every millisecond: about 1 ms of the figure is the looking")
}

/** The section of `bun run bench`: its header, then the table, or why it was not measured. */
export async function runClusterLatencyBench(): Promise<void> {
  process.stdout.write(`${CLUSTER_LATENCY_HEADER}\n`)
  if (postgresAvailable && redisAvailable) printClusterLatency(await benchClusterLatency())
  else process.stdout.write('  skipped: PostgreSQL (Debian package postgresql) or redis-server is not installed\n')
}

if (import.meta.main) await runClusterLatencyBench()
