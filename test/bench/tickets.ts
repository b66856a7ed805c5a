// The tickets list benchmark: 200,000 tickets in one organization on disk, the compiled binary under
// load for A (first page, full path: JWT, revocation, rate limits, permission, keyset query, JSON,
// access log) and B (a page token ~150,000 rows deep), against C (the same query and JSON in a bare
// Bun.serve), D (a bare Bun.serve returning A's bytes) and E (A on a second server of the same file
// with RATE_LIMITS_ENABLED=false), all measured in this one run. The organization's limits are raised
// with `org set-limits` so that nothing is refused.
import { cpSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { compare, waitFor, type LoadResult } from './load.ts'
import { bootstrapBench, deepPageToken, raiseLimits, signIn } from './bootstrap.ts'
import { seedTickets } from './seed-tickets.ts'

export const TICKETS = Number(process.env.BENCH_TICKETS ?? 200_000)
const DEPTH = Math.floor(TICKETS * 0.75)

export interface TicketsBench {
  rows: LoadResult[]
  seedSeconds: number
  /** A and E measured again on their own, alternating over OVERHEAD_ROUNDS. */
  overhead: { limited: LoadResult; unlimited: LoadResult }
}

const OVERHEAD_ROUNDS = Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 6)

export async function benchTickets(): Promise<TicketsBench> {
  const dir = tempDir('switchboard-bench-tickets-')
  const children: Bun.Subprocess[] = []
  try {
    const setup = await bootstrapBench(dir)
    const { binary, dataDir, dbPath, orgId, admin, env } = setup
    const seedStarted = performance.now()
    seedTickets(dbPath, orgId, TICKETS, Date.now() - TICKETS * 500)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    raiseLimits(setup)

    // E runs on a copy of the seeded DATA_DIR: one server per DATA_DIR (serve holds its lock), and the
    // copy's signing keys and master key are A's, so A's token is E's too.
    const unlimitedDataDir = join(dir, 'data-unlimited')
    cpSync(dataDir, unlimitedDataDir, { recursive: true })

    const port = freePort()
    // One issuer and audience for both servers (A and E), so A's token is E's too.
    env.PUBLIC_URL = `http://127.0.0.1:${port}`
    // The access log goes to a file, as under a process manager: draining a pipe here would slow the load generator for A and B only.
    const app = Bun.spawn([binary, 'serve'], {
      env: { ...env, PORT: String(port) },
      stdout: Bun.file(join(dir, 'server.log')),
      stderr: 'inherit',
    })
    children.push(app)
    const base = `http://127.0.0.1:${port}`
    await waitFor(`${base}/health`)
    const headers = await signIn(base, admin)
    const { token: deepToken } = deepPageToken(dbPath, orgId, 'tickets', DEPTH)

    const listUrl = `${base}/api/v1/tickets?page_size=20`
    const first = await fetch(listUrl, { headers })
    if (first.status !== 200) throw new Error(`GET /api/v1/tickets answered ${first.status}`)
    const body = await first.text()
    const deep = (await (await fetch(`${listUrl}&page_token=${encodeURIComponent(deepToken)}`, { headers })).json()) as {
      tickets: { number: number }[]
    }
    if (deep.tickets.length !== 20 || deep.tickets[0]!.number > TICKETS - DEPTH)
      throw new Error('the deep page token did not land deep in the list')

    const unlimitedPort = freePort()
    children.push(
      Bun.spawn([binary, 'serve'], {
        env: { ...env, DATA_DIR: unlimitedDataDir, PORT: String(unlimitedPort), RATE_LIMITS_ENABLED: 'false' },
        stdout: Bun.file(join(dir, 'server-unlimited.log')),
        stderr: 'inherit',
      }),
    )
    await waitFor(`http://127.0.0.1:${unlimitedPort}/health`)
    const unlimitedUrl = `http://127.0.0.1:${unlimitedPort}/api/v1/tickets?page_size=20`
    const check = await fetch(listUrl, { headers })
    if (check.headers.get('x-ratelimit-limit') !== '1000000') throw new Error('A is not rate limited with the raised limits')
    const probe = await fetch(unlimitedUrl, { headers })
    if (probe.status !== 200 || probe.headers.get('x-ratelimit-limit') !== null)
      throw new Error(`E answered ${probe.status}, or is rate limited`)

    const bareSqlPort = freePort()
    children.push(
      Bun.spawn([process.execPath, join(import.meta.dir, 'bare-tickets.ts')], {
        env: { PORT: String(bareSqlPort), DB_PATH: dbPath, ORG_ID: orgId },
        stdout: 'inherit',
        stderr: 'inherit',
      }),
    )
    const barePort = freePort()
    children.push(
      Bun.spawn([process.execPath, join(import.meta.dir, 'bare-server.ts')], {
        env: { PORT: String(barePort), BODY: body },
        stdout: 'inherit',
        stderr: 'inherit',
      }),
    )
    await waitFor(`http://127.0.0.1:${bareSqlPort}/`)
    await waitFor(`http://127.0.0.1:${barePort}/`)

    const rows = await compare([
      { label: 'A  GET /api/v1/tickets?page_size=20', url: listUrl, headers },
      {
        label: `B  same, page_token ${DEPTH.toLocaleString('en')} deep`,
        url: `${listUrl}&page_token=${encodeURIComponent(deepToken)}`,
        headers,
      },
      { label: 'C  bare Bun.serve: same query and JSON', url: `http://127.0.0.1:${bareSqlPort}/` },
      { label: "D  bare Bun.serve: A's bytes", url: `http://127.0.0.1:${barePort}/` },
      { label: 'E  A with RATE_LIMITS_ENABLED=false', url: unlimitedUrl, headers },
    ])
    // The overhead target (5%) is below this machine's run-to-run noise: A and E once more, by themselves, over more rounds.
    const [limited, unlimited] = await compare(
      [
        { label: "A' A again", url: listUrl, headers },
        { label: "E' E again", url: unlimitedUrl, headers },
      ],
      OVERHEAD_ROUNDS,
    )
    return { rows, seedSeconds, overhead: { limited: limited!, unlimited: unlimited! } }
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((c) => c.exited))
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { rows, overhead } = await benchTickets()
  const { printTable } = await import('./load.ts')
  printTable([...rows, overhead.limited, overhead.unlimited])
  const [a, , c] = rows
  process.stdout.write(
    `  A/C = ${(a!.rps / c!.rps).toFixed(2)}   rate-limit overhead 1 - A'/E' = ${((1 - overhead.limited.rps / overhead.unlimited.rps) * 100).toFixed(1)}%\n`,
  )
}
