// The webhook delivery benchmark: tickets created through the API of the compiled binary, each event
// fanned out to 4 webhooks on a local HTTPS receiver (another process); deliveries per second and the
// time from the event's commit to its first attempt's arrival, beside the ceiling measured in the same
// run: a bare loop of signed fetch calls with the same concurrency to the same receiver.
// Three loads: events at a steady rate (open loop: the latency a receiver sees), events as fast as 8
// API clients can create them (the dispatcher then shares the server's thread with the writes), and a
// backlog due at once (how fast the dispatcher alone sends: the figure to hold against the ceiling).
// The API's writes are never in the backlog's measured time: only sends and their bookkeeping are.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { CA_FILE } from '../helpers/receiver.ts'
import { ROUNDS, waitFor } from './load.ts'

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000)
const BACKLOG_EVENTS = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 3000)
/** Tickets a second in the steady phase, for STEADY_S seconds. */
const STEADY_RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200)
const STEADY_S = 5
const WEBHOOKS = 4
const CLIENTS = 8
const CONCURRENCY = 32
const PER_WEBHOOK = Number(process.env.BENCH_WEBHOOK_PER_WEBHOOK ?? 4)

interface Live {
  deliveries: number
  deliveriesPerSecond: number
  p50Ms: number
  p99Ms: number
}

export interface WebhookBench {
  steady: Live
  full: Live
  backlog: number
  /** The backlog, due at once (median of the rounds). */
  drainPerSecond: number
  ceilingPerSecond: number
  /** Backlog / ceiling, each round. */
  ratios: number[]
}

interface Stats {
  sample_body: string
  count: number
  first_at: number
  last_at: number
  latencies_ms: number[]
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** `prebuilt`: a binary of this tree already built (by versus-main.ts); built here if not given. */
/** The HTTPS webhook receiver (webhook-receiver.ts) on a free port, and the URL of its counters. */
export async function startReceiver(): Promise<{ child: Bun.Subprocess; port: number; statsUrl: string }> {
  const port = freePort()
  const statsPort = freePort()
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'webhook-receiver.ts')], {
    env: { PORT: String(port), STATS_PORT: String(statsPort) },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  const statsUrl = `http://127.0.0.1:${statsPort}/`
  await waitFor(statsUrl)
  return { child, port, statsUrl }
}

export async function benchWebhooks(prebuilt?: string): Promise<WebhookBench> {
  const dir = tempDir('switchboard-bench-webhooks-')
  const children: Bun.Subprocess[] = []
  try {
    const binary = prebuilt ?? join(dir, 'switchboard')
    if (!prebuilt) await buildBinary(binary)
    const receiver = await startReceiver()
    children.push(receiver.child)
    const { port: receiverPort, statsUrl } = receiver
    const stats = async () => (await (await fetch(statsUrl)).json()) as Stats

    const port = freePort()
    const admin = { email: 'bench@bench.example', password: 'bench-password-123' }
    const env = {
      DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      NODE_EXTRA_CA_CERTS: CA_FILE,
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_CONCURRENCY_PER_WEBHOOK: String(PER_WEBHOOK),
      RATE_LIMITS_ENABLED: 'false',
    }
    children.push(Bun.spawn([binary, 'serve'], { env, stdout: Bun.file(join(dir, 'server.log')), stderr: 'inherit' }))
    const base = `http://127.0.0.1:${port}`
    await waitFor(`${base}/health`)
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    })
    const headers = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
      'content-type': 'application/json',
    }
    // The receiver is on loopback: the operator allows it for this organization.
    const orgId = ((await (await fetch(`${base}/api/v1/me`, { headers })).json()) as { organization_id: string }).organization_id
    const allowed = Bun.spawnSync([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], { env: { DATA_DIR: env.DATA_DIR } })
    if (allowed.exitCode !== 0) throw new Error(`org webhook-cidrs failed: ${allowed.stderr.toString()}`)
    for (let i = 0; i < WEBHOOKS; i++) {
      const created = await fetch(`${base}/api/v1/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: `https://127.0.0.1:${receiverPort}/hook-${i}`,
          events: ['ticket.created'],
          secret: 'bench-secret-0123456789',
        }),
      })
      if (created.status !== 201) throw new Error(`webhook registration answered ${created.status}`)
    }

    const post = async (i: number) => {
      const response = await fetch(`${base}/api/v1/tickets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ subject: `Bench ticket ${i}` }),
      })
      if (response.status !== 201) throw new Error(`ticket creation answered ${response.status}`)
      await response.arrayBuffer()
    }
    const createTickets = async (count: number) => {
      let next = 0
      const client = async () => {
        while (next < count) await post(next++)
      }
      await Promise.all(Array.from({ length: CLIENTS }, client))
    }
    const waitForCount = async (count: number) => {
      for (const deadline = Date.now() + 180_000; ; ) {
        const s = await stats()
        if (s.count >= count) return s
        if (Date.now() > deadline) throw new Error(`only ${s.count} of ${count} deliveries arrived`)
        await Bun.sleep(50)
      }
    }

    const live = async (run: () => Promise<void>, events: number): Promise<Live> => {
      await fetch(statsUrl, { method: 'POST' })
      const started = Date.now()
      await run()
      const s = await waitForCount(events * WEBHOOKS)
      const sorted = [...s.latencies_ms].sort((a, b) => a - b)
      return {
        deliveries: s.count,
        deliveriesPerSecond: s.count / ((s.last_at - started) / 1000),
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
      }
    }

    // Warm-up, then a steady rate: each ticket at its time, whether the ones before were answered or not.
    await createTickets(200)
    await waitForCount(200 * WEBHOOKS)
    const steadyEvents = STEADY_RATE * STEADY_S
    const steady = await live(async () => {
      const started = performance.now()
      const sent: Promise<void>[] = []
      for (let i = 0; i < steadyEvents; i++) {
        const wait = started + (i * 1000) / STEADY_RATE - performance.now()
        if (wait > 1) await Bun.sleep(wait)
        sent.push(post(i))
      }
      await Promise.all(sent)
    }, steadyEvents)
    const full = await live(() => createTickets(EVENTS), EVENTS)

    // A backlog: the receiver holds its answers while the events come, so they pile up as due rows
    // behind the sends it holds; then it lets go, and the dispatcher has nothing else to do than
    // drain them. Alternating with the ceiling, ROUNDS times: this machine's noise is larger than one run shows.
    const drainOnce = async () => {
      await fetch(`${statsUrl}hold`, { method: 'POST' })
      await createTickets(BACKLOG_EVENTS)
      const started = Date.now()
      await fetch(`${statsUrl}release`, { method: 'POST' })
      const drained = await waitForCount(BACKLOG_EVENTS * WEBHOOKS)
      return { perSecond: (BACKLOG_EVENTS * WEBHOOKS) / ((drained.last_at - started) / 1000), sample: drained.sample_body }
    }
    const ceilingOnce = (body: string) => {
      const ceiling = Bun.spawnSync([process.execPath, join(import.meta.dir, 'webhook-ceiling.ts')], {
        env: {
          URL: `https://127.0.0.1:${receiverPort}/ceiling`,
          TOTAL: String(BACKLOG_EVENTS * WEBHOOKS),
          CONCURRENCY: String(CONCURRENCY),
          BODY: body,
        },
        stderr: 'inherit',
      })
      return (BACKLOG_EVENTS * WEBHOOKS) / (JSON.parse(ceiling.stdout.toString()) as { seconds: number }).seconds
    }
    const rounds: Array<{ drain: number; ceiling: number }> = []
    for (let round = 0; round < ROUNDS; round++) {
      const drain = await drainOnce()
      // The ceiling sends a real envelope of this run: the same bytes a delivery carries.
      rounds.push({ drain: drain.perSecond, ceiling: ceilingOnce(drain.sample) })
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    return {
      steady,
      full,
      backlog: BACKLOG_EVENTS * WEBHOOKS,
      drainPerSecond: median(rounds.map((r) => r.drain)),
      ceilingPerSecond: median(rounds.map((r) => r.ceiling)),
      ratios: rounds.map((r) => r.drain / r.ceiling),
    }
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((c) => c.exited))
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printWebhookBench(r: WebhookBench): void {
  const line = (label: string, l: Live) =>
    `  ${label}: ${l.deliveries.toLocaleString('en')} deliveries, ${Math.round(l.deliveriesPerSecond)}/s   commit -> first attempt p50 ${l.p50Ms} ms   p99 ${l.p99Ms} ms\n`
  process.stdout.write(`  ${WEBHOOKS} webhooks, WEBHOOK_CONCURRENCY ${CONCURRENCY} (${PER_WEBHOOK} per webhook)\n`)
  process.stdout.write(line(`steady, ${STEADY_RATE} events/s for ${STEADY_S} s`, r.steady) + '  (target p50 < 50 ms)\n')
  process.stdout.write(line(`as fast as ${CLIENTS} API clients create events`, r.full))
  process.stdout.write(
    `  a backlog of ${r.backlog.toLocaleString('en')} due at once: ${Math.round(r.drainPerSecond)} deliveries/s (median of ${r.ratios.length} rounds)\n`,
  )
  process.stdout.write(
    `  ceiling (bare signed fetch loop, same concurrency, same receiver, warmed up): ${Math.round(r.ceilingPerSecond)}/s\n`,
  )
  const ratios = r.ratios.map((x) => x.toFixed(2))
  process.stdout.write(
    `  ratio backlog / ceiling ${(r.drainPerSecond / r.ceilingPerSecond).toFixed(2)} (target >= 0.5); each round ${ratios.join(', ')}\n`,
  )
}

if (import.meta.main) printWebhookBench(await benchWebhooks())
