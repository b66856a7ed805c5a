// The request path (issue 32): three authenticated reads of the compiled binary, each against its own
// minimal essential work (bare-essential.ts: a bare Bun.serve running the same query on the same
// database and answering Response.json of the rows), on SQLite and on PostgreSQL (one instance,
// loopback), in one run with wrk. 3,000 tickets made through the API, with unicode, tags and custom
// fields. Prints req/s and the ratio A/C of each read. Env: BENCH_PATH_TICKETS (3000),
// BENCH_PATH_ENGINES (sqlite,postgres).
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { postgresAvailable, type RunningService, startPostgres } from '../helpers/services.ts'
import { compare, type LoadResult, waitFor } from './load.ts'

const TICKETS = Number(process.env.BENCH_PATH_TICKETS ?? 3000)
const ENGINES = (process.env.BENCH_PATH_ENGINES ?? 'sqlite,postgres').split(',')
const ADMIN = { email: 'bench@bench.example', password: 'bench-password-123' }

export interface PathResult {
  engine: string
  rows: LoadResult[]
  ratios: { read: string; ratio: number }[]
}

async function api(base: string, method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, unknown>
}

/** Tickets of varied shapes: unicode, tags or none, custom fields or none, a requester or none. */
async function seed(base: string, token: string): Promise<string> {
  let last = ''
  const subjects = [
    'Printer on fire',
    'Überweisung fehlgeschlagen',
    '請求書が届かない',
    'Emoji 🔥 in the subject',
    'Quote " and \\ backslash',
  ]
  for (let i = 0; i < TICKETS; i += 10) {
    const batch = Array.from({ length: Math.min(10, TICKETS - i) }, (_, j) => {
      const n = i + j
      return api(base, 'POST', '/api/v1/tickets', token, {
        subject: `${subjects[n % subjects.length]} #${n}`,
        description: n % 3 === 0 ? 'Line one\nline two, “quoted”' : `Ticket ${n}`,
        priority: ['low', 'normal', 'high', 'urgent'][n % 4],
        tags: n % 2 === 0 ? ['billing', `t${n % 7}`] : [],
        custom_fields: n % 3 === 0 ? { floor: n % 9, vip: n % 2 === 0, region: 'Zürich' } : {},
        ...(n % 4 === 0 ? { requester: { name: 'Zoë', email: `customer${n}@example.com` } } : {}),
      })
    })
    last = ((await Promise.all(batch)).at(-1)!.id as string) ?? last
  }
  return last
}

async function benchEngine(binary: string, engine: string, dir: string): Promise<PathResult> {
  const children: Bun.Subprocess[] = []
  let postgres: RunningService | undefined
  try {
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DATA_DIR: join(dir, engine),
    }
    if (engine === 'postgres') {
      postgres = await startPostgres()
      env.DATABASE_URL = postgres.url
    }
    const port = freePort()
    const base = `http://127.0.0.1:${port}`
    env.PUBLIC_URL = base
    const server = Bun.spawn([binary, 'serve'], {
      env: { ...env, PORT: String(port) },
      stdout: Bun.file(join(dir, `${engine}.log`)),
      stderr: 'inherit',
    })
    children.push(server)
    await waitFor(`${base}/health`, 60_000)
    const login = await api(base, 'POST', '/api/v1/auth/login', undefined, ADMIN)
    const token = login.access_token as string
    const me = await api(base, 'GET', '/api/v1/me', token)
    const raised = Bun.spawnSync(
      [binary, 'org', 'set-limits', me.organization_id as string, '--per-minute', '1000000', '--per-day', '100000000'],
      {
        env,
        stdout: 'ignore',
        stderr: 'inherit',
      },
    )
    if (raised.exitCode !== 0) throw new Error('org set-limits failed')
    const ticketId = await seed(base, token)
    // Let the cron work the seeding left behind (the reports fold runs every 10 s) finish before measuring.
    await Bun.sleep(15_000)

    const barePort = freePort()
    const bareEnv = { PORT: String(barePort), ORG_ID: me.organization_id as string, TICKET_ID: ticketId, USER_ID: me.id as string }
    children.push(
      Bun.spawn([process.execPath, join(import.meta.dir, 'bare-essential.ts')], {
        env: { ...bareEnv, ...(postgres ? { DATABASE_URL: postgres.url } : { DB_PATH: join(env.DATA_DIR!, 'switchboard.db') }) },
        stdout: 'inherit',
        stderr: 'inherit',
      }),
    )
    const bare = `http://127.0.0.1:${barePort}`
    await waitFor(`${bare}/`)
    const headers = { authorization: `Bearer ${token}` }
    const rows = await compare([
      { label: `A  GET /api/v1/tickets?page_size=20`, url: `${base}/api/v1/tickets?page_size=20`, headers },
      { label: 'C  essential: keyset query + Response.json', url: `${bare}/list` },
      { label: 'A  GET /api/v1/tickets/{id}', url: `${base}/api/v1/tickets/${ticketId}`, headers },
      { label: 'C  essential: ticket by id + Response.json', url: `${bare}/ticket` },
      { label: 'A  GET /api/v1/me', url: `${base}/api/v1/me`, headers },
      { label: 'C  essential: user by id + Response.json', url: `${bare}/me` },
    ])
    const ratios = ['list', 'ticket', 'me'].map((read, i) => ({ read, ratio: rows[2 * i]!.rps / rows[2 * i + 1]!.rps }))
    return { engine, rows, ratios }
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((c) => c.exited))
    await postgres?.stop()
  }
}

export async function benchRequestPath(): Promise<PathResult[]> {
  const dir = tempDir('switchboard-bench-path-')
  try {
    const binary = join(dir, 'switchboard')
    await buildBinary(binary)
    const results: PathResult[] = []
    for (const engine of ENGINES) {
      if (engine === 'postgres' && !postgresAvailable) {
        process.stdout.write('  PostgreSQL: not installed (Debian package postgresql): left out\n')
        continue
      }
      results.push(await benchEngine(binary, engine, dir))
    }
    return results
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printRequestPath(results: PathResult[]): void {
  const { printTable } = require('./load.ts') as typeof import('./load.ts')
  for (const { engine, rows, ratios } of results) {
    process.stdout.write(`  ${engine}\n`)
    printTable(rows)
    process.stdout.write(`  A/C: ${ratios.map((r) => `${r.read} ${r.ratio.toFixed(2)}`).join('   ')}\n`)
  }
}

if (import.meta.main) printRequestPath(await benchRequestPath())
