// The tickets list benchmark: 200,000 tickets in one organization on disk, the compiled binary under
// load for A (first page, full path: JWT, revocation, permission, keyset query, JSON, access log) and
// B (a page token ~150,000 rows deep), against C (the same query and JSON in a bare Bun.serve) and D
// (a bare Bun.serve returning A's bytes), all measured in this one run.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { buildBinary } from '../../scripts/build.ts'
import { encodePageToken, queryDigest } from '../../src/lib/page-token.ts'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { compare, waitFor, type LoadResult } from './load.ts'
import { seedTickets } from './seed-tickets.ts'

export const TICKETS = Number(process.env.BENCH_TICKETS ?? 200_000)
const DEPTH = Math.floor(TICKETS * 0.75)

export interface TicketsBench {
  rows: LoadResult[]
  seedSeconds: number
}

export async function benchTickets(): Promise<TicketsBench> {
  const dir = tempDir('switchboard-bench-tickets-')
  const children: Bun.Subprocess[] = []
  try {
    const binary = join(dir, 'switchboard')
    await buildBinary(binary)
    const dataDir = join(dir, 'data')
    const admin = { email: 'bench@bench.example', password: 'bench-password-123' }
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info' }

    // First start creates the organization and its admin; stop it, then seed straight into the file.
    const bootstrapPort = freePort()
    const bootstrapping = Bun.spawn([binary, 'serve'], { env: { ...env, PORT: String(bootstrapPort) }, stdout: 'ignore', stderr: 'inherit' })
    await waitFor(`http://127.0.0.1:${bootstrapPort}/health`)
    bootstrapping.kill('SIGTERM')
    await bootstrapping.exited
    const dbPath = join(dataDir, 'switchboard.db')
    const db = new Database(dbPath)
    const orgId = db.query<{ id: string }, []>('SELECT id FROM organizations').get()!.id
    db.close()
    const seedStarted = performance.now()
    seedTickets(dbPath, orgId, TICKETS, Date.now() - TICKETS * 500)
    const seedSeconds = (performance.now() - seedStarted) / 1000

    const port = freePort()
    // The access log goes to a file, as under a process manager: draining a pipe here would slow the load generator for A and B only.
    const app = Bun.spawn([binary, 'serve'], { env: { ...env, PORT: String(port) }, stdout: Bun.file(join(dir, 'server.log')), stderr: 'inherit' })
    children.push(app)
    const base = `http://127.0.0.1:${port}`
    await waitFor(`${base}/health`)
    const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })
    const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` }

    // A page token pointing DEPTH rows deep, made with the installation's own key (paging there would take 7,500 requests).
    const read = new Database(dbPath, { readonly: true })
    const key = new Uint8Array(Buffer.from(read.query<{ value: string }, []>("SELECT value FROM system_kv WHERE key = 'page_token_key'").get()!.value, 'base64'))
    const at = read.query<{ created_at: number; id: string }, [string, number]>('SELECT created_at, id FROM tickets WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?').get(orgId, DEPTH)!
    read.close()
    const deepToken = encodePageToken(key, { organizationId: orgId, query: queryDigest('tickets', {}, 'created_at:desc') }, { after: [at.created_at, at.id] }, Math.floor(Date.now() / 1000) + 3600)

    const listUrl = `${base}/api/v1/tickets?page_size=20`
    const first = await fetch(listUrl, { headers })
    if (first.status !== 200) throw new Error(`GET /api/v1/tickets answered ${first.status}`)
    const body = await first.text()
    const deep = (await (await fetch(`${listUrl}&page_token=${encodeURIComponent(deepToken)}`, { headers })).json()) as { tickets: { number: number }[] }
    if (deep.tickets.length !== 20 || deep.tickets[0]!.number > TICKETS - DEPTH) throw new Error('the deep page token did not land deep in the list')

    const bareSqlPort = freePort()
    children.push(Bun.spawn([process.execPath, join(import.meta.dir, 'bare-tickets.ts')], { env: { PORT: String(bareSqlPort), DB_PATH: dbPath, ORG_ID: orgId }, stdout: 'inherit', stderr: 'inherit' }))
    const barePort = freePort()
    children.push(Bun.spawn([process.execPath, join(import.meta.dir, 'bare-server.ts')], { env: { PORT: String(barePort), BODY: body }, stdout: 'inherit', stderr: 'inherit' }))
    await waitFor(`http://127.0.0.1:${bareSqlPort}/`)
    await waitFor(`http://127.0.0.1:${barePort}/`)

    const rows = await compare([
      { label: 'A  GET /api/v1/tickets?page_size=20', url: listUrl, headers },
      { label: `B  same, page_token ${DEPTH.toLocaleString('en')} deep`, url: `${listUrl}&page_token=${encodeURIComponent(deepToken)}`, headers },
      { label: 'C  bare Bun.serve: same query and JSON', url: `http://127.0.0.1:${bareSqlPort}/` },
      { label: 'D  bare Bun.serve: A\'s bytes', url: `http://127.0.0.1:${barePort}/` },
    ])
    return { rows, seedSeconds }
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((c) => c.exited))
    rmSync(dir, { recursive: true, force: true })
  }
}
