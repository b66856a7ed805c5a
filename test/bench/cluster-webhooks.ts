// Webhook deliveries with two instances on one PostgreSQL database and one Redis (cluster.ts): tickets
// created through both instances' APIs, each event to 4 webhooks on a local HTTPS receiver; the
// dispatchers of both claim from the same table (FOR UPDATE SKIP LOCKED). Measured as webhooks.ts does for
// one: events as fast as 8 API clients create them (4 on each instance), and a backlog due at once,
// drained by two instances and by one (the other stopped), alternating, beside the signed-fetch ceiling.
// Every delivery the receiver got is counted: it must be exactly one per ticket and webhook.
import { UNUSED_S3 } from './bootstrap.ts'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { freePort } from '../helpers/process.ts'
import { CA_FILE } from '../helpers/receiver.ts'
import type { RunningService } from '../helpers/services.ts'
import { cli, firstStart, type Instance, organizationOf, signIn, startInstance } from './cluster-setup.ts'
import { ROUNDS, waitFor } from './load.ts'

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000)
const BACKLOG_EVENTS = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 3000)
const WEBHOOKS = 4
const CLIENTS = 8
const CONCURRENCY = 32
const PER_WEBHOOK = Number(process.env.BENCH_WEBHOOK_PER_WEBHOOK ?? 4)

export interface ClusterWebhookBench {
  live: { deliveries: number; perSecond: number; p50Ms: number; p99Ms: number }
  backlog: number
  /** Medians of the rounds: the backlog drained by two instances, by one, and the bare signed-fetch ceiling. */
  two: number
  one: number
  ceiling: number
  rounds: Array<{ two: number; one: number; ceiling: number }>
  /** Over the whole run: what the receiver got, against one per ticket and webhook; the database's delivery rows. */
  received: number
  expected: number
  rows: { total: number; retries: number; notSucceeded: number }
}

interface Stats {
  sample_body: string
  count: number
  last_at: number
  latencies_ms: number[]
}

/** The receiver of webhooks.ts (cluster-receiver.ts: without an idle timeout) on a free port, and the URL of its counters. */
async function startReceiver(): Promise<{ child: Bun.Subprocess; port: number; statsUrl: string }> {
  const [port, statsPort] = [freePort(), freePort()]
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'cluster-receiver.ts')], {
    env: { PORT: String(port), STATS_PORT: String(statsPort) },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  const statsUrl = `http://127.0.0.1:${statsPort}/`
  await waitFor(statsUrl)
  return { child, port, statsUrl }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export async function benchClusterWebhooks(
  binary: string,
  dir: string,
  postgres: RunningService,
  redis: RunningService,
  common: Record<string, string>,
): Promise<ClusterWebhookBench> {
  // A database of its own (and so its own Redis prefix): the tickets benchmark's instances never see these events.
  const admin = new Bun.SQL(postgres.url.replace(/\/switchboard$/, '/postgres'))
  await admin.unsafe('CREATE DATABASE hooks')
  await admin.close()
  const databaseUrl = postgres.url.replace(/\/switchboard$/, '/hooks')
  const env = {
    ...common,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    ...UNUSED_S3,
    MASTER_KEY: randomBytes(32).toString('hex'),
    NODE_EXTRA_CA_CERTS: CA_FILE,
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_CONCURRENCY_PER_WEBHOOK: String(PER_WEBHOOK),
    RATE_LIMITS_ENABLED: 'false',
    // The sends held while a backlog is created must not time out on our side either.
    WEBHOOK_TIMEOUT_MS: '120000',
  }
  const sql = new Bun.SQL(databaseUrl)
  const receiver = await startReceiver()
  const instances: Instance[] = []
  try {
    await firstStart(binary, dir, 'hooks-boot', env)
    // The receiver is on loopback: the operator allows it for this organization.
    cli(binary, dir, 'hooks-boot', env, ['org', 'webhook-cidrs', await organizationOf(sql), '--set', '127.0.0.0/8'])
    instances.push(await startInstance(binary, dir, 'hooks-a', env), await startInstance(binary, dir, 'hooks-b', env))
    const headers = { ...(await signIn(instances[0]!.base)), 'content-type': 'application/json' }
    for (let i = 0; i < WEBHOOKS; i++) {
      const created = await fetch(`${instances[0]!.base}/api/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: `https://127.0.0.1:${receiver.port}/hook-${i}`,
          events: ['ticket.created'],
          secret: 'bench-secret-0123456789',
        }),
      })
      if (created.status !== 201) throw new Error(`webhook registration answered ${created.status}`)
    }

    const stats = async () => (await (await fetch(receiver.statsUrl)).json()) as Stats
    /** `count` tickets by 8 clients, spread over the running instances. */
    const createTickets = async (count: number) => {
      const running = [...instances]
      let next = 0
      const client = async (k: number) => {
        while (next < count) {
          const response = await fetch(`${running[k % running.length]!.base}/api/v1/tickets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ subject: `Bench ticket ${next++}` }),
          })
          if (response.status !== 201) throw new Error(`ticket creation answered ${response.status}`)
          await response.arrayBuffer()
        }
      }
      await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)))
    }
    let received = 0
    /** Waits for `count` deliveries, then a second more for any duplicate, and adds what arrived to `received`. */
    const settle = async (count: number) => {
      for (const deadline = Date.now() + 180_000; ; await Bun.sleep(50)) {
        const s = await stats()
        if (s.count >= count) break
        if (Date.now() > deadline) throw new Error(`only ${s.count} of ${count} deliveries arrived`)
      }
      const first = await stats()
      await Bun.sleep(1000)
      received += (await stats()).count
      return first
    }

    await createTickets(200)
    await settle(200 * WEBHOOKS)
    await fetch(receiver.statsUrl, { method: 'POST' })
    const liveStarted = Date.now()
    await createTickets(EVENTS)
    const s = await settle(EVENTS * WEBHOOKS)
    const sorted = [...s.latencies_ms].sort((a, b) => a - b)
    const live = {
      deliveries: s.count,
      perSecond: s.count / ((s.last_at - liveStarted) / 1000),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
    }

    // The receiver holds its answers while the backlog is created, then lets go: only sends and their bookkeeping are timed.
    const drain = async () => {
      await fetch(`${receiver.statsUrl}hold`, { method: 'POST' })
      await createTickets(BACKLOG_EVENTS)
      const started = Date.now()
      await fetch(`${receiver.statsUrl}release`, { method: 'POST' })
      const drained = await settle(BACKLOG_EVENTS * WEBHOOKS)
      return { perSecond: (BACKLOG_EVENTS * WEBHOOKS) / ((drained.last_at - started) / 1000), sample: drained.sample_body }
    }
    const ceiling = (body: string) => {
      const run = Bun.spawnSync([process.execPath, join(import.meta.dir, 'webhook-ceiling.ts')], {
        env: {
          URL: `https://127.0.0.1:${receiver.port}/ceiling`,
          TOTAL: String(BACKLOG_EVENTS * WEBHOOKS),
          CONCURRENCY: String(CONCURRENCY),
          BODY: body,
        },
        stderr: 'inherit',
      })
      return (BACKLOG_EVENTS * WEBHOOKS) / (JSON.parse(run.stdout.toString()) as { seconds: number }).seconds
    }
    const rounds: ClusterWebhookBench['rounds'] = []
    for (let round = 0; round < ROUNDS; round++) {
      const figures = { two: 0, one: 0, ceiling: 0 }
      for (const how of round % 2 ? (['one', 'two'] as const) : (['two', 'one'] as const)) {
        // One instance: the second stopped (nothing of its is in flight: the last drain was settled); started again for two.
        if (how === 'one' && instances.length === 2) await instances.pop()!.stop()
        if (how === 'two' && instances.length === 1) instances.push(await startInstance(binary, dir, 'hooks-b', env))
        const { perSecond, sample } = await drain()
        figures[how] = perSecond
        // The ceiling sends a real envelope of this run: the same bytes a delivery carries.
        if (how === 'two') figures.ceiling = ceiling(sample)
      }
      rounds.push(figures)
    }

    const [tickets] = (await sql`SELECT count(*)::int AS n FROM tickets`) as Array<{ n: number }>
    const [rows] = (await sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE attempt > 1)::int AS retries,
      count(*) FILTER (WHERE status <> 'success')::int AS "notSucceeded" FROM webhook_deliveries`) as Array<ClusterWebhookBench['rows']>
    return {
      live,
      backlog: BACKLOG_EVENTS * WEBHOOKS,
      two: median(rounds.map((r) => r.two)),
      one: median(rounds.map((r) => r.one)),
      ceiling: median(rounds.map((r) => r.ceiling)),
      rounds,
      received,
      expected: tickets!.n * WEBHOOKS,
      rows: rows!,
    }
  } finally {
    await Promise.all(instances.map((i) => i.stop()))
    receiver.child.kill('SIGTERM')
    await receiver.child.exited
    await sql.close()
  }
}

export function printClusterWebhooks(r: ClusterWebhookBench): void {
  const out = (line: string) => process.stdout.write(`  ${line}\n`)
  out(`${WEBHOOKS} webhooks, WEBHOOK_CONCURRENCY ${CONCURRENCY} (${PER_WEBHOOK} per webhook) on each instance`)
  out(
    `as fast as ${CLIENTS} API clients (${CLIENTS / 2} on each instance) create events: ${r.live.deliveries.toLocaleString('en')} deliveries, ${Math.round(r.live.perSecond)}/s   commit -> first attempt p50 ${r.live.p50Ms} ms   p99 ${r.live.p99Ms} ms`,
  )
  out(`a backlog of ${r.backlog.toLocaleString('en')} due at once (median of ${r.rounds.length} rounds):`)
  out(
    `  two instances ${Math.round(r.two)} deliveries/s   one instance ${Math.round(r.one)}/s   ratio two/one ${(r.two / r.one).toFixed(2)}`,
  )
  out(
    `  ceiling (bare signed fetch loop, ${CONCURRENCY} at once, same receiver): ${Math.round(r.ceiling)}/s   two instances / ceiling ${(r.two / r.ceiling).toFixed(2)}`,
  )
  const each = r.rounds.map((x) => `${Math.round(x.two)}/${Math.round(x.one)}/${Math.round(x.ceiling)}`).join(', ')
  out(`  each round two/one/ceiling: ${each}`)
  const exact = r.received === r.expected && r.rows.retries === 0 && r.rows.notSucceeded === 0
  out(
    `received ${r.received.toLocaleString('en')} deliveries for ${r.expected.toLocaleString('en')} (tickets x webhooks); ${r.rows.total.toLocaleString('en')} delivery rows, ${r.rows.retries} retries, ${r.rows.notSucceeded} not successful: ${exact ? 'each sent exactly once' : 'MISMATCH'}`,
  )
}
