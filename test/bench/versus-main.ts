// This tree against `main` before issue 13 (BENCH_BASELINE, default c37c888), on this machine, in one
// run: both compiled binaries, each on its own DATA_DIR set up the same way, measured in alternating
// rounds (odd rounds reversed) and reported by their median rounds:
//   a. GET /api/v1/tickets?page_size=20 with a Bearer token, 3,000 tickets in one organization, the
//      organization's limits raised with `org set-limits` so that nothing is refused;
//   b. POST /api/v1/tickets with 4 webhooks subscribed to ticket.created on a local HTTPS receiver
//      (another process, one per binary), RATE_LIMITS_ENABLED=false; after each measurement the
//      deliveries the load left behind are let finish, so they never fall in the other binary's time;
// and the webhook backlog against the signed-fetch ceiling for this tree (webhooks.ts, same build).
// Targets: new/old >= 0.95 on a and b, backlog/ceiling >= 0.5.
// The baseline is built from a git worktree in a temporary directory (`git worktree add --detach`,
// `bun install --frozen-lockfile`, `bun run build`), removed once its binary is copied out.
import { copyFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { CA_FILE } from '../helpers/receiver.ts'
import { CONNECTIONS, compare, DURATION_S, GENERATOR, printTable, ROUNDS, waitFor, type LoadResult } from './load.ts'
import { seedTickets } from './seed-tickets.ts'
import { benchWebhooks, printWebhookBench, startReceiver, type WebhookBench } from './webhooks.ts'

export const BASELINE = process.env.BENCH_BASELINE ?? 'c37c888'
const TICKETS = 3_000
const WEBHOOKS = 4
const TARGET = 0.95
const ROOT = join(import.meta.dir, '../..')
const ADMIN = { email: 'bench@bench.example', password: 'bench-password-123' }

export interface VersusMain {
  baseline: string
  /** [new, old] */
  list: [LoadResult, LoadResult]
  create: [LoadResult, LoadResult]
  /** new/old in each round (the two measured one after the other), to show the noise beside the medians. */
  listRatios: number[]
  createRatios: number[]
  /** Per binary: tickets in its database after b, deliveries its receiver got (WEBHOOKS each). */
  deliveries: Array<{ tickets: number; received: number }>
  webhooks?: WebhookBench
}

function run(command: string[], cwd: string, env: Record<string, string | undefined> = process.env): string {
  const result = Bun.spawnSync(command, { cwd, env, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0)
    throw new Error(`${command.join(' ')} (in ${cwd}) failed: ${result.stderr.toString()}${result.stdout.toString()}`)
  return result.stdout.toString()
}

/** Builds BASELINE's binary to `outfile` from a temporary worktree, removed afterwards. */
function buildBaseline(dir: string, outfile: string): string {
  const commit = run(['git', 'rev-parse', '--short', `${BASELINE}^{commit}`], ROOT).trim()
  const tree = join(dir, 'baseline-src')
  run(['git', 'worktree', 'add', '--detach', tree, commit], ROOT)
  try {
    run([process.execPath, 'install', '--frozen-lockfile'], tree)
    run([process.execPath, 'run', 'build'], tree)
    copyFileSync(join(tree, 'dist/switchboard'), outfile)
  } finally {
    run(['git', 'worktree', 'remove', '--force', tree], ROOT)
  }
  return commit
}

interface Server {
  child: Bun.Subprocess
  base: string
  headers: Record<string, string>
  orgId: string
  dataDir: string
}

/** A fresh DATA_DIR: the first start creates the organization and its admin; `prepare` runs with the server stopped. */
async function startServer(
  binary: string,
  dir: string,
  name: string,
  env: Record<string, string>,
  prepare: (dbPath: string, orgId: string) => void,
): Promise<Server> {
  const dataDir = join(dir, `data-${name}`)
  const base = { ...env, DATA_DIR: dataDir, HOST: '127.0.0.1', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }
  const bootstrapPort = freePort()
  const bootstrapping = Bun.spawn([binary, 'serve'], { env: { ...base, PORT: String(bootstrapPort) }, stdout: 'ignore', stderr: 'inherit' })
  try {
    await waitFor(`http://127.0.0.1:${bootstrapPort}/health`, 30_000)
  } finally {
    bootstrapping.kill('SIGTERM')
    await bootstrapping.exited
  }
  const dbPath = join(dataDir, 'switchboard.db')
  const db = new Database(dbPath, { readonly: true })
  const orgId = db.query<{ id: string }, []>('SELECT id FROM organizations').get()!.id
  db.close()
  prepare(dbPath, orgId)

  const port = freePort()
  // Logs go to a file, as under a process manager (draining a pipe here would slow the load generator).
  const child = Bun.spawn([binary, 'serve'], {
    env: { ...base, PORT: String(port) },
    stdout: Bun.file(join(dir, `server-${name}.log`)),
    stderr: 'inherit',
  })
  const url = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${url}/health`, 30_000)
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  if (login.status !== 200) throw new Error(`${name}: login answered ${login.status}`)
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` }
  return { child, base: url, headers, orgId, dataDir }
}

/** Each round's results of [new, old], as compare() measures them. */
function roundsOf() {
  const results: [LoadResult[], LoadResult[]] = [[], []]
  return {
    add: (result: LoadResult, i: number) => results[i]!.push(result),
    ratios: () => results[0].map((r, round) => r.rps / results[1][round]!.rps),
  }
}

async function stop(servers: Array<{ child: Bun.Subprocess }>): Promise<void> {
  for (const { child } of servers) child.kill('SIGTERM')
  await Promise.all(servers.map(({ child }) => child.exited))
}

export async function benchVersusMain(options: { webhooks?: boolean } = {}): Promise<VersusMain> {
  const dir = tempDir('switchboard-bench-versus-')
  const children: Bun.Subprocess[] = []
  try {
    const binaries = { new: join(dir, 'switchboard-new'), old: join(dir, 'switchboard-old') }
    await buildBinary(binaries.new)
    const baseline = buildBaseline(dir, binaries.old)
    const names = ['new', 'old'] as const

    // a. The tickets list, limits on (as shipped) and raised; the same tickets, created_at included, in both files.
    const startMs = Date.now() - TICKETS * 500
    const listServers: Server[] = []
    for (const name of names) {
      const binary = binaries[name]
      const server = await startServer(binary, dir, `list-${name}`, { LOG_LEVEL: 'info' }, (dbPath, orgId) => {
        seedTickets(dbPath, orgId, TICKETS, startMs)
        run([binary, 'org', 'set-limits', orgId, '--per-minute', '1000000', '--per-day', '100000000'], dir, {
          DATA_DIR: join(dir, `data-list-${name}`),
        })
      })
      children.push(server.child)
      listServers.push(server)
      const first = await fetch(`${server.base}/api/v1/tickets?page_size=20`, { headers: server.headers })
      const body = (await first.json()) as { tickets?: unknown[] }
      if (first.status !== 200 || body.tickets?.length !== 20) throw new Error(`${name}: GET /api/v1/tickets answered ${first.status}`)
      if (first.headers.get('x-ratelimit-limit') !== '1000000') throw new Error(`${name}: the raised limits are not in force`)
    }
    const listRounds = roundsOf()
    const list = await compare(
      names.map((name, i) => ({
        label: `a  ${name}: GET /api/v1/tickets?page_size=20`,
        url: `${listServers[i]!.base}/api/v1/tickets?page_size=20`,
        headers: listServers[i]!.headers,
      })),
      ROUNDS,
      async (result, i) => void listRounds.add(result, i),
    )
    await stop(listServers)

    // b. Ticket creation, 4 webhooks on ticket.created, each binary with its own receiver.
    const receivers: Array<{ port: number; statsUrl: string; received: number }> = []
    for (const _ of names) {
      const { child, port, statsUrl } = await startReceiver()
      children.push(child)
      receivers.push({ port, statsUrl, received: 0 })
    }
    const hookServers: Server[] = []
    for (const [i, name] of names.entries()) {
      const binary = binaries[name]
      const server = await startServer(
        binary,
        dir,
        `hooks-${name}`,
        { RATE_LIMITS_ENABLED: 'false', NODE_EXTRA_CA_CERTS: CA_FILE },
        (_, orgId) => {
          // The receiver is on loopback: the operator allows it for this organization.
          run([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], dir, { DATA_DIR: join(dir, `data-hooks-${name}`) })
        },
      )
      children.push(server.child)
      hookServers.push(server)
      for (let w = 0; w < WEBHOOKS; w++) {
        const created = await fetch(`${server.base}/api/v1/webhooks`, {
          method: 'POST',
          headers: { ...server.headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            url: `https://127.0.0.1:${receivers[i]!.port}/hook-${w}`,
            events: ['ticket.created'],
            secret: 'bench-secret-0123456789',
          }),
        })
        if (created.status !== 201) throw new Error(`${name}: webhook registration answered ${created.status}`)
      }
    }
    /** Waits until receiver i has had nothing new for a second (the binary's deliveries are done), and counts them. */
    const drain = async (i: number) => {
      const receiver = receivers[i]!
      let last = -1
      let since = Date.now()
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; await Bun.sleep(100)) {
        const { count } = (await (await fetch(receiver.statsUrl)).json()) as { count: number }
        if (count !== last) {
          last = count
          since = Date.now()
        } else if (Date.now() - since >= 1000) break
      }
      receiver.received += last
      // Cleared, so the figures it serves stay small.
      await fetch(receiver.statsUrl, { method: 'POST' })
    }
    const createRounds = roundsOf()
    const createBody = JSON.stringify({ subject: 'Bench ticket', description: 'Created under load by the benchmark.' })
    const create = await compare(
      names.map((name, i) => ({
        label: `b  ${name}: POST /api/v1/tickets, ${WEBHOOKS} webhooks`,
        url: `${hookServers[i]!.base}/api/v1/tickets`,
        method: 'POST' as const,
        body: createBody,
        headers: { ...hookServers[i]!.headers, 'content-type': 'application/json' },
      })),
      ROUNDS,
      async (result, i) => {
        createRounds.add(result, i)
        await drain(i)
      },
    )
    const deliveries = hookServers.map((server, i) => {
      const db = new Database(join(server.dataDir, 'switchboard.db'), { readonly: true })
      const tickets = db.query<{ n: number }, []>('SELECT count(*) AS n FROM tickets').get()!.n
      db.close()
      return { tickets, received: receivers[i]!.received }
    })
    await stop(hookServers)

    const webhooks = options.webhooks === false ? undefined : await benchWebhooks(binaries.new)
    return {
      baseline,
      list: list as [LoadResult, LoadResult],
      create: create as [LoadResult, LoadResult],
      listRatios: listRounds.ratios(),
      createRatios: createRounds.ratios(),
      deliveries,
      webhooks,
    }
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map((c) => c.exited))
    rmSync(dir, { recursive: true, force: true })
  }
}

/** `webhooks`: the backlog figures when they were measured elsewhere in the same run. */
export function printVersusMain(r: VersusMain, webhooks = r.webhooks): void {
  process.stdout.write(`  old = ${r.baseline}\n`)
  process.stdout.write(`  a. tickets list, ${TICKETS.toLocaleString('en')} tickets in one organization, limits raised\n`)
  printTable(r.list)
  process.stdout.write(`  b. ticket creation, ${WEBHOOKS} webhooks subscribed (HTTPS receiver on loopback), rate limits off\n`)
  printTable(r.create)
  for (const [i, name] of (['new', 'old'] as const).entries()) {
    const d = r.deliveries[i]!
    const expected = d.tickets * WEBHOOKS
    process.stdout.write(
      `     ${name}: ${d.tickets.toLocaleString('en')} tickets created, ${d.received.toLocaleString('en')} of ${expected.toLocaleString('en')} deliveries received${d.received === expected ? '' : '  (MISMATCH)'}\n`,
    )
  }
  if (r.webhooks) {
    process.stdout.write('  webhook backlog, this tree (the same build)\n')
    printWebhookBench(r.webhooks)
  }
  // Three decimals, so that a ratio printed as the target is not reported as missing it.
  const verdict = (value: number, target: number) => `${value.toFixed(3)} (target >= ${target}${value >= target ? '' : ', NOT MET'})`
  // The rounds' own ratios (the two binaries measured one right after the other) and their median: a paired
  // figure, less moved by the machine's drift than the ratio of the two medians.
  const rounds = (ratios: number[]) =>
    `each round ${ratios.map((x) => x.toFixed(2)).join(', ')} (median ${[...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!.toFixed(2)})`
  process.stdout.write('  c. new/old req/s (medians)\n')
  process.stdout.write(`     tickets list ${verdict(r.list[0].rps / r.list[1].rps, TARGET)}; ${rounds(r.listRatios)}\n`)
  process.stdout.write(
    `     ticket creation with ${WEBHOOKS} webhooks ${verdict(r.create[0].rps / r.create[1].rps, TARGET)}; ${rounds(r.createRatios)}\n`,
  )
  if (webhooks) {
    process.stdout.write(
      `     webhook backlog / signed-fetch ceiling, this tree: ${verdict(webhooks.drainPerSecond / webhooks.ceilingPerSecond, 0.5)}; ${rounds(webhooks.ratios)}\n`,
    )
  }
}

export const VERSUS_HEADER = `This tree (new) against ${BASELINE} (old: main before issue 13), both compiled, on this machine, in alternating rounds`

if (import.meta.main) {
  process.stdout.write(
    `Switchboard benchmarks: ${GENERATOR}, ${CONNECTIONS} connections, ${DURATION_S} s per measurement, median of ${ROUNDS} alternating rounds, bun ${Bun.version}\n\n`,
  )
  process.stdout.write(`${VERSUS_HEADER}\n`)
  const started = performance.now()
  printVersusMain(await benchVersusMain())
  process.stdout.write(`  (${Math.round((performance.now() - started) / 1000)} s in all)\n`)
}
