// Write capacity of a cluster whose PostgreSQL is across a network (issue 28): compiled binaries, one
// PostgreSQL, one Redis, rate limits off, and a TCP proxy (delay-proxy.ts) delaying every chunk in each
// direction between the instances and PostgreSQL. U1: one instance on loopback; D1: one instance across
// the proxy; D2: two across it, each driven by its own wrk with CONNECTIONS connections, measured at the
// same moment and summed. Ticket creation, the list and a mixed load (a list and a creation client per
// instance); round trips per request of the hot writes, counted by the proxy; the webhook backlog drained
// by two instances across the proxy against the signed-fetch ceiling (cluster-webhooks.ts).
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { postgresAvailable, redisAvailable, type RunningService, startPostgres, startRedis } from '../helpers/services.ts'
import { UNUSED_S3 } from './bootstrap.ts'
import { benchClusterWebhooks, printClusterWebhooks } from './cluster-webhooks.ts'
import { firstStart, type Instance, signIn, startInstance } from './cluster-setup.ts'
import { type DelayProxy, startDelayProxy } from '../helpers/delay-proxy.ts'
import { type Load, measureAtOnce } from './cluster-load.ts'
import { DURATION_S, GENERATOR, type LoadResult, ROUNDS, type Target } from './load.ts'

/** Milliseconds each chunk waits in each direction (a timer: about 1–1.3 ms here). */
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 1)
/** wrk connections per instance. */
const PER_INSTANCE = Number(process.env.BENCH_WRITE_CONNECTIONS ?? 32)
const SEQUENTIAL = 40

export const WRITE_CAPACITY_HEADER = `Write capacity with PostgreSQL across a network: compiled binaries, a TCP proxy delaying each chunk ${DELAY_MS} ms each way, ${GENERATOR}, ${PER_INSTANCE} connections per instance, ${DURATION_S} s, median of ${ROUNDS} alternating rounds`

async function alternate(loads: { load: Load; connections: number }[]): Promise<LoadResult[]> {
  const rounds: LoadResult[][] = loads.map(() => [])
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...loads.keys()]
    if (round % 2 === 1) order.reverse()
    for (const i of order) rounds[i]!.push(await measureAtOnce(loads[i]!.load, loads[i]!.connections))
  }
  return rounds.map((results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)]!)
}

/** Round trips through the proxy per request of `request`, run SEQUENTIAL times one after another; the idle rate subtracted. */
async function roundTripsOf(proxy: DelayProxy, request: (i: number) => Promise<Response>): Promise<number> {
  await (await request(-1)).arrayBuffer()
  const idleFrom = await proxy.roundTrips()
  const idleStart = performance.now()
  await Bun.sleep(1000)
  const idlePerMs = ((await proxy.roundTrips()) - idleFrom) / (performance.now() - idleStart)
  const from = await proxy.roundTrips()
  const start = performance.now()
  for (let i = 0; i < SEQUENTIAL; i++) {
    const response = await request(i)
    if (response.status >= 300) throw new Error(`round-trip sample answered ${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
  }
  return Math.max(0, (await proxy.roundTrips()) - from - idlePerMs * (performance.now() - start)) / SEQUENTIAL
}

/** Milliseconds of one `SELECT 1` through the proxy (median of 50): the round trip the proxy adds. */
async function proxiedRoundTripMs(url: string): Promise<number> {
  const sql = new Bun.SQL(url, { max: 1 })
  await sql.unsafe('SELECT 1')
  const samples: number[] = []
  for (let i = 0; i < 50; i++) {
    const start = performance.now()
    await sql.unsafe('SELECT 1')
    samples.push(performance.now() - start)
  }
  await sql.close()
  return samples.sort((a, b) => a - b)[25]!
}

export interface WriteCapacityBench {
  rttMs: number
  loads: LoadResult[]
  roundTrips: { what: string; perRequest: number }[]
}

export async function benchWriteCapacity(): Promise<WriteCapacityBench> {
  const dir = tempDir('switchboard-bench-write-')
  const instances: Instance[] = []
  let postgres: RunningService | undefined
  let redis: RunningService | undefined
  let proxy: DelayProxy | undefined
  try {
    const binary = join(dir, 'switchboard')
    ;[, postgres, redis] = await Promise.all([buildBinary(binary), startPostgres(), startRedis()])
    proxy = await startDelayProxy(Number(new URL(postgres.url).port), DELAY_MS)
    const proxied = postgres.url.replace(/:\d+\//, `:${proxy.port}/`)
    const common = {
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://switchboard.bench',
      REDIS_URL: redis.url,
      ...UNUSED_S3,
      MASTER_KEY: randomBytes(32).toString('hex'),
      RATE_LIMITS_ENABLED: 'false',
    }
    await firstStart(binary, dir, 'boot', { ...common, DATABASE_URL: postgres.url })
    const [u1, d1, d2] = await Promise.all([
      startInstance(binary, dir, 'u1', { ...common, DATABASE_URL: postgres.url }),
      startInstance(binary, dir, 'd1', { ...common, DATABASE_URL: proxied }),
      startInstance(binary, dir, 'd2', { ...common, DATABASE_URL: proxied }),
    ])
    instances.push(u1!, d1!, d2!)
    const headers = { ...(await signIn(u1!.base)), 'content-type': 'application/json' }
    const rttMs = await proxiedRoundTripMs(proxied)

    const create = (i: Instance): Target => ({
      label: i.name,
      url: `${i.base}/api/v1/tickets`,
      headers,
      method: 'POST',
      body: '{"subject":"Bench ticket","tags":["bench"]}',
    })
    const list = (i: Instance): Target => ({ label: i.name, url: `${i.base}/api/v1/tickets?page_size=20`, headers })
    const half = Math.max(1, PER_INSTANCE / 2)
    const loads = await alternate([
      { load: { label: 'create U1: one instance, loopback', targets: [create(u1!)] }, connections: PER_INSTANCE },
      { load: { label: 'create D1: one instance, across the proxy', targets: [create(d1!)] }, connections: PER_INSTANCE },
      { load: { label: 'create D2: two instances, across the proxy', targets: [create(d1!), create(d2!)] }, connections: PER_INSTANCE },
      { load: { label: 'list U1', targets: [list(u1!)] }, connections: PER_INSTANCE },
      { load: { label: 'list D2', targets: [list(d1!), list(d2!)] }, connections: PER_INSTANCE },
      { load: { label: 'mixed U1 (list + create)', targets: [list(u1!), create(u1!)] }, connections: half },
      { load: { label: 'mixed D2 (list + create)', targets: [list(d1!), create(d1!), list(d2!), create(d2!)] }, connections: half },
    ])

    // Round trips per request of the hot writes, on D1 alone.
    const on = d1!.base
    const send = (method: string, path: string, body?: unknown, auth = headers) =>
      fetch(`${on}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) })
    const ticket = (await (await send('POST', '/api/v1/tickets', { subject: 'Round trips' })).json()) as { id: string }
    const contact = (await (await send('POST', '/api/v1/contacts', { name: 'Grace' })).json()) as { id: string }
    const opened = await send('POST', '/api/v1/engagements', { channel: 'chat', contact_id: contact.id })
    if (opened.status !== 201) throw new Error(`session creation answered ${opened.status}: ${await opened.text()}`)
    const session = (await opened.json()) as { id: string }
    const calls: string[] = []
    const roundTrips = [
      { what: 'ticket create', request: () => send('POST', '/api/v1/tickets', { subject: 'RT', tags: ['rt'] }) },
      {
        what: 'ticket update',
        request: (i: number) => send('PATCH', `/api/v1/tickets/${ticket.id}`, { priority: i % 2 ? 'high' : 'low' }),
      },
      { what: 'ticket comment', request: () => send('POST', `/api/v1/tickets/${ticket.id}/comments`, { body: 'On it', public: true }) },
      {
        what: 'call create',
        request: async () => {
          const response = await send('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199' })
          calls.push(((await response.clone().json()) as { id: string }).id)
          return response
        },
      },
      { what: 'call end', request: (i: number) => send('POST', `/api/v1/calls/${calls[i + 1]}/end`, { status: 'canceled' }) },
      {
        what: 'session message',
        request: () => send('POST', `/api/v1/engagements/${session.id}/messages`, { direction: 'in', body: 'Hello' }),
      },
      {
        what: 'login',
        request: () =>
          send(
            'POST',
            '/api/v1/auth/login',
            { email: 'bench@bench.example', password: 'bench-password-123' },
            { 'content-type': 'application/json' },
          ),
      },
    ]
    const counted: { what: string; perRequest: number }[] = []
    for (const { what, request } of roundTrips) counted.push({ what, perRequest: await roundTripsOf(proxy, request) })

    process.stdout.write('  (webhook backlog across the proxy:)\n')
    printClusterWebhooks(
      await benchClusterWebhooks(binary, dir, { ...postgres, url: proxied }, redis, {
        LOG_LEVEL: 'warn',
        PUBLIC_URL: 'http://switchboard.bench',
      }),
    )
    return { rttMs, loads, roundTrips: counted }
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()))
    await proxy?.close()
    await Promise.all([postgres?.stop(), redis?.stop()])
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printWriteCapacity(r: WriteCapacityBench): void {
  const u1 = r.loads[0]!.rps
  const listU1 = r.loads[3]!.rps
  const mixedU1 = r.loads[5]!.rps
  const base = [u1, u1, u1, listU1, listU1, mixedU1, mixedU1]
  process.stdout.write(`  round trip through the proxy (SELECT 1): ${r.rttMs.toFixed(2)} ms\n`)
  r.loads.forEach((load, i) => {
    const ratio = (load.rps / base[i]!).toFixed(2)
    process.stdout.write(
      `  ${load.label.padEnd(46)}${String(load.rps).padStart(7)} req/s   p50 ${String(load.p50).padStart(6)} ms   p99 ${String(load.p99).padStart(6)} ms   /U1 ${ratio}${load.errors || load.non2xx ? `   errors ${load.errors} non-2xx ${load.non2xx}` : ''}\n`,
    )
  })
  process.stdout.write(
    `  D1/U1 ${(r.loads[1]!.rps / u1).toFixed(2)} (target >= 0.6)   D2/U1 ${(r.loads[2]!.rps / u1).toFixed(2)} (target >= 0.8)\n`,
  )
  process.stdout.write('  round trips to PostgreSQL per request (proxy count, idle traffic subtracted):\n')
  for (const row of r.roundTrips) process.stdout.write(`    ${row.what.padEnd(18)}${row.perRequest.toFixed(1).padStart(6)}\n`)
}

export async function runWriteCapacityBench(): Promise<void> {
  process.stdout.write(`${WRITE_CAPACITY_HEADER}\n`)
  if (!postgresAvailable || !redisAvailable) {
    process.stdout.write('  skipped: PostgreSQL and Redis are needed (Debian packages postgresql, redis-server)\n')
    return
  }
  printWriteCapacity(await benchWriteCapacity())
}

if (import.meta.main) await runWriteCapacityBench()
