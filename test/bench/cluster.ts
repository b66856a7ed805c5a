// The PostgreSQL + Redis benchmark (issue 14): the authenticated tickets list (tickets.ts's query and data
// size, the same rows on both engines) and ticket creation, on SQLite (one compiled binary), on PostgreSQL +
// Redis with one instance and with two (two binaries, one database, one Redis, one MASTER_KEY, two wrk at
// once), rate limits off; the list again with limits on, SQLite's in-memory counters against Redis's; and
// webhook deliveries with two instances (cluster-webhooks.ts). Alternating rounds, medians (load.ts).
import { UNUSED_S3 } from './bootstrap.ts'
import { randomBytes } from 'node:crypto'
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { postgresAvailable, redisAvailable, type RunningService, startPostgres, startRedis } from '../helpers/services.ts'
import { alternate, type Load, type Measured, roundRatios } from './cluster-load.ts'
import { copyTickets, dataDirOf, firstStart, type Instance, organizationOf, raiseLimits, signIn, startInstance } from './cluster-setup.ts'
import { benchClusterWebhooks, type ClusterWebhookBench, printClusterWebhooks } from './cluster-webhooks.ts'
import { CONNECTIONS, printTable } from './load.ts'
import { seedTickets } from './seed-tickets.ts'
import { TICKETS } from './tickets.ts'

export const clusterBenchAvailable = postgresAvailable && redisAvailable
export const CLUSTER_HEADER = `PostgreSQL + Redis: one and two instances against SQLite (compiled binaries, ${TICKETS.toLocaleString('en')} tickets in one organization, the same rows on both engines)`

export interface ClusterBench {
  postgresVersion: string
  /** SQLite, PostgreSQL + Redis with one instance, with two; rate limits off. */
  list: Measured[]
  create: Measured[]
  /** The list with rate limits on (raised, nothing refused): SQLite, PostgreSQL + Redis one instance. */
  limited: Measured[]
  /** On PostgreSQL after the creation runs: tickets, their highest number, distinct numbers, the counter. */
  numbering: { tickets: number; top: number; distinct: number; counter: number }
  webhooks: ClusterWebhookBench
}

const LIST_PATH = '/api/v1/tickets?page_size=20'
const CREATE_BODY = JSON.stringify({ subject: 'Bench ticket', description: 'Created under load by the benchmark.' })

export async function benchCluster(): Promise<ClusterBench> {
  const dir = tempDir('switchboard-bench-cluster-')
  const instances: Instance[] = []
  let postgres: RunningService | undefined
  let redis: RunningService | undefined
  let sql: InstanceType<typeof Bun.SQL> | undefined
  try {
    const binary = join(dir, 'switchboard')
    ;[, postgres, redis] = await Promise.all([buildBinary(binary), startPostgres(), startRedis()])
    // One issuer and audience everywhere, as behind a load balancer: a token of one instance is every instance's.
    const common = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', PUBLIC_URL: 'http://switchboard.bench' }
    const off = { RATE_LIMITS_ENABLED: 'false' }
    const start = async (name: string, env: Record<string, string>) => {
      const instance = await startInstance(binary, dir, name, env)
      instances.push(instance)
      return instance
    }

    // SQLite: seeded as tickets.ts does; the limits-on server runs on a copy (one server per DATA_DIR, same keys).
    await firstStart(binary, dir, 'sqlite', common)
    const dbPath = join(dataDirOf(dir, 'sqlite'), 'switchboard.db')
    const file = new Database(dbPath, { readonly: true })
    const sqliteOrg = file.query<{ id: string }, []>('SELECT id FROM organizations').get()!.id
    file.close()
    seedTickets(dbPath, sqliteOrg, TICKETS, Date.now() - TICKETS * 500)
    raiseLimits(binary, dir, 'sqlite', common, sqliteOrg)
    cpSync(dataDirOf(dir, 'sqlite'), dataDirOf(dir, 'sqlite-on'), { recursive: true })

    // PostgreSQL + Redis: one database, one Redis, one MASTER_KEY; each instance its own DATA_DIR and INSTANCE_ID.
    const cluster = {
      ...common,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ...UNUSED_S3,
      MASTER_KEY: randomBytes(32).toString('hex'),
    }
    await firstStart(binary, dir, 'pg-boot', cluster)
    sql = new Bun.SQL(postgres.url)
    const pgOrg = await organizationOf(sql)
    await copyTickets(dbPath, sql, pgOrg)
    raiseLimits(binary, dir, 'pg-boot', cluster, pgOrg)
    const [version] = (await sql`SHOW server_version`) as Array<{ server_version: string }>
    const postgresVersion = version!.server_version

    const sqlite = await start('sqlite', { ...common, ...off })
    const sqliteOn = await start('sqlite-on', common)
    const pgA = await start('pg-a', { ...cluster, ...off })
    const pgB = await start('pg-b', { ...cluster, ...off })
    const pgOn = await start('pg-on', cluster)
    const sqliteAuth = await signIn(sqlite.base)
    const pgAuth = await signIn(pgA.base)
    const authOf = (i: Instance) => (i.name.startsWith('pg') ? pgAuth : sqliteAuth)

    // The same first page everywhere, limits counted only where they are on.
    const firstPages = await Promise.all(
      [sqlite, sqliteOn, pgA, pgB, pgOn].map(async (i) => {
        const response = await fetch(`${i.base}${LIST_PATH}`, { headers: authOf(i) })
        const body = (await response.json()) as { tickets?: Array<{ id: string }> }
        const limit = response.headers.get('x-ratelimit-limit')
        if (response.status !== 200 || body.tickets?.length !== 20) throw new Error(`${i.name}: the list answered ${response.status}`)
        if (limit !== (i.name.endsWith('-on') ? '1000000' : null)) throw new Error(`${i.name}: x-ratelimit-limit is ${limit}`)
        return body.tickets.map((t) => t.id).join()
      }),
    )
    if (new Set(firstPages).size !== 1) throw new Error('the first page differs between the engines')

    const get = (label: string, ...on: Instance[]): Load => ({
      label,
      targets: on.map((i) => ({ label, url: `${i.base}${LIST_PATH}`, headers: authOf(i) })),
    })
    const post = (label: string, ...on: Instance[]): Load => ({
      label,
      targets: on.map((i) => ({
        label,
        url: `${i.base}/api/v1/tickets`,
        method: 'POST' as const,
        body: CREATE_BODY,
        headers: { ...authOf(i), 'content-type': 'application/json' },
      })),
    })
    const lists = await alternate([
      get('L1 SQLite, limits off', sqlite),
      get('L2 PG + Redis, 1 instance, limits off', pgA),
      get('L3 PG + Redis, 2 instances, limits off', pgA, pgB),
      get('L4 SQLite, limits on (in memory)', sqliteOn),
      get('L5 PG + Redis, 1 instance, limits on (Redis)', pgOn),
    ])
    const create = await alternate([
      post('C1 SQLite', sqlite),
      post('C2 PG + Redis, 1 instance', pgA),
      post('C3 PG + Redis, 2 instances', pgA, pgB),
    ])
    const [numbers] = (await sql`SELECT count(*)::int AS tickets, max(number)::int AS top, count(DISTINCT number)::int AS "distinct",
      (SELECT last_number FROM ticket_counters WHERE organization_id = ${pgOrg})::int AS counter FROM tickets WHERE organization_id = ${pgOrg}`) as Array<
      ClusterBench['numbering']
    >
    await Promise.all(instances.splice(0).map((i) => i.stop()))

    const webhooks = await benchClusterWebhooks(binary, dir, postgres, redis, common)
    return { postgresVersion, list: lists.slice(0, 3), limited: lists.slice(3), create, numbering: numbers!, webhooks }
  } finally {
    await Promise.all(instances.map((i) => i.stop()))
    await sql?.close()
    await Promise.allSettled([postgres?.stop(), redis?.stop()])
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printClusterBench(r: ClusterBench): void {
  const out = (line: string) => process.stdout.write(`  ${line}\n`)
  const ratio = (m: Measured, reference: Measured) => {
    const each = roundRatios(m, reference).map((x) => x.toFixed(2))
    return `${(m.result.rps / reference.result.rps).toFixed(2)} (each round ${each.join(', ')})`
  }
  const half = Math.floor(CONNECTIONS / 2)
  out("two instances + PostgreSQL + Redis + wrk share this machine's 2 cores: the two-instance figures measure that")
  out('sharing holds under load (one database writer, one Redis) more than they measure scale-out')
  out(`PostgreSQL ${r.postgresVersion} as test/helpers/services.ts starts it (loopback, fsync off, synchronous_commit off),`)
  out('Redis without persistence; SQLite as shipped (WAL, synchronous NORMAL); every instance logs to a file')
  out(`2 instances: two wrk at once, one per instance, ${half} connections each; req/s summed, p50/p99 of the slower`)
  const [list1, list2, list3] = r.list as [Measured, Measured, Measured]
  process.stdout.write(`\n  Tickets list, GET ${LIST_PATH} with a Bearer token\n`)
  printTable(r.list.map((m) => m.result))
  out(`PG1/SQLite = ${ratio(list2, list1)}`)
  out(`PG2/SQLite = ${ratio(list3, list1)}`)
  const [create1, create2, create3] = r.create as [Measured, Measured, Measured]
  process.stdout.write('\n  Ticket creation, POST /api/v1/tickets, limits off, no webhooks\n')
  printTable(r.create.map((m) => m.result))
  out(`PG1/SQLite = ${ratio(create2, create1)}`)
  out(`PG2/SQLite = ${ratio(create3, create1)}`)
  const n = r.numbering
  const intact = n.tickets === n.top && n.top === n.distinct && n.distinct === n.counter
  out(
    `on PostgreSQL afterwards: ${n.tickets.toLocaleString('en')} tickets numbered 1..${n.top.toLocaleString('en')}, ${n.distinct.toLocaleString('en')} distinct numbers, counter ${n.counter.toLocaleString('en')}: ${intact ? 'no gap, no duplicate' : 'MISMATCH'}`,
  )
  const [sqliteOn, pgOn] = r.limited as [Measured, Measured]
  process.stdout.write('\n  Tickets list with rate limits on (limits raised: counted, nothing refused)\n')
  printTable(r.limited.map((m) => m.result))
  out(`PG1/SQLite, limits on = ${ratio(pgOn, sqliteOn)}`)
  const cost = (on: Measured, offM: Measured) => `${((1 - on.result.rps / offM.result.rps) * 100).toFixed(1)}%`
  out(
    `cost of the limits, 1 - on/off: SQLite ${cost(sqliteOn, list1)} (in memory)   PG1 ${cost(pgOn, list2)} (Redis, one script a request)`,
  )
  process.stdout.write('\n  Webhook deliveries, two instances on one database, a local HTTPS receiver\n')
  printClusterWebhooks(r.webhooks)
}

/** The section of `bun run bench`: its header, then the figures, or why they were not measured. */
export async function runClusterBench(): Promise<void> {
  process.stdout.write(`${CLUSTER_HEADER}\n`)
  if (clusterBenchAvailable) printClusterBench(await benchCluster())
  else process.stdout.write('  skipped: PostgreSQL (Debian package postgresql) or redis-server is not installed\n')
}

if (import.meta.main) await runClusterBench()
