// The request path layer by layer (issue 32), in process, on the embedded engine: what one authenticated
// GET /api/v1/tickets?page_size=20 costs in all (app.handle, rate limits on), and what its parts cost
// alone — authentication, the rate-limit charge, the keyset query, rows to objects to JSON (today's
// path) — in µs per request, medians of batches in this one run; the rest of the whole is routing, the
// platform's hooks, schemas and the Response. Below them, for comparison: paths tried or replaced (the
// query with bare parameters, the user state read each time, rows to text with the JSON columns
// spliced) and each per-request hook of the platform alone.
import { Database as SqliteFile } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { bootstrap } from '../../src/bootstrap.ts'
import { loadConfig } from '../../src/config.ts'
import { isoTime } from '../../src/lib/clock.ts'
import { listBody } from '../../src/db/list.ts'
import { createLogger, fileSink, memorySink } from '../../src/lib/log.ts'
import { refuseUnknownParameters } from '../../src/http/list.ts'
import { chargeUser, writeRateLimitHeaders } from '../../src/http/rate-limit.ts'
import { beginRequest } from '../../src/http/request-state.ts'
import { userState } from '../../src/modules/auth/store.ts'
import { currentUserState } from '../../src/modules/auth/user-state-cache.ts'
import { TICKET_LIST } from '../../src/modules/tickets/store.ts'
import { priorityName } from '../../src/modules/tickets/lifecycle.ts'
import { ticketJson, type TicketRow } from '../../src/modules/tickets/ticket-json.ts'
import { openRuntime } from '../../src/runtime.ts'
import { tempDir } from '../helpers/app.ts'

const TICKETS = Number(process.env.BENCH_PATH_TICKETS ?? 3000)
const ADMIN = { email: 'layers@bench.example', password: 'bench-password-123' }

const time = (ms: number | null) => (ms === null ? 'null' : `"${isoTime(Number(ms))}"`)

/** The path tried in c4ded34 (and reverted): ticketJson's text with the stored JSON columns spliced in, not parsed. */
function splicedText(row: TicketRow): string {
  const head = JSON.stringify({
    id: row.id,
    number: Number(row.number),
    subject: row.subject,
    description: row.description,
    status: row.status,
    priority: priorityName(row.priority),
    type: row.type,
    channel: row.channel,
    requester: row.requester_email === null ? null : { name: row.requester_name ?? '', email: row.requester_email },
    contact_id: row.contact_id,
    assignee_id: row.assignee_id,
  })
  return `${head.slice(0, -1)},"tags":${row.tags},"custom_fields":${row.custom_fields},"upload_ids":${row.upload_ids},"created_at":${time(row.created_at)},"updated_at":${time(row.updated_at)},"solved_at":${time(row.solved_at)},"closed_at":${time(row.closed_at)}}`
}

/** µs per call: the median of 15 batches of `n` calls, after a warm-up batch. */
async function perCall(n: number, call: () => unknown): Promise<number> {
  const batches: number[] = []
  for (let b = 0; b < 16; b++) {
    const started = performance.now()
    for (let i = 0; i < n; i++) await call()
    if (b > 0) batches.push(((performance.now() - started) * 1000) / n)
  }
  return batches.sort((x, y) => x - y)[7]!
}

export async function benchRequestLayers(): Promise<{ layer: string; us: number }[]> {
  const dataDir = tempDir('switchboard-bench-layers-')
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
  const runtime = await openRuntime(config, { log: createLogger({ level: 'warn', sink: memorySink() }) })
  try {
    const { app, context } = runtime
    // What `serve` does on a first start: the organization and its Super Admin (ADMIN_EMAIL, ADMIN_PASSWORD).
    await bootstrap(context)
    const call = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init))
    const json = { 'content-type': 'application/json' }
    const login = (await (await call('/api/v1/auth/login', { method: 'POST', headers: json, body: JSON.stringify(ADMIN) })).json()) as {
      access_token: string
      user: { id: string; organization_id: string }
    }
    const auth = { authorization: `Bearer ${login.access_token}` }
    const org = login.user.organization_id
    await context.db.raw.run('UPDATE organizations SET rate_limit_per_minute = 100000000, rate_limit_per_day = 1000000000 WHERE id = ?', [
      org,
    ])
    for (let i = 0; i < TICKETS; i++) {
      const body = { subject: `Ticket ${i} Überweisung`, tags: i % 2 ? ['billing'] : [], custom_fields: i % 3 ? {} : { floor: i % 9 } }
      await call('/api/v1/tickets', { method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify(body) })
    }
    const url = 'http://localhost/api/v1/tickets?page_size=20'
    const list = TICKET_LIST.statement('created_at:desc', org, [], undefined, 21)
    const rows = await context.db.raw.all<TicketRow>(list.sql, list.params)
    const page = { rows: rows.slice(0, 20), nextPageToken: 'x'.repeat(120) }
    const meta = { requestId: 'bench', ip: '127.0.0.1', userAgent: 'bench' }
    const actor = await context.guards.authenticate(context, new Request(url, { headers: auth }), meta)
    const limiter = context.guards.rateLimiter(context)
    const endpoint = context.guards.endpointLimitFor('GET', '/api/v1/tickets')
    const full = await perCall(2000, async () => (await app.handle(new Request(url, { headers: auth }))).text())
    const layers = [
      {
        layer: 'authentication (token, revocation, user state, allowlist)',
        us: await perCall(5000, () => context.guards.authenticate(context, new Request(url, { headers: auth }), meta)),
      },
      {
        layer: 'rate limits (user, organization, route)',
        us: await perCall(20000, () => limiter.user(actor.userId, org, actor.rates, endpoint, Date.now())),
      },
      { layer: 'query (keyset, 21 rows)', us: await perCall(5000, () => context.db.raw.all(list.sql, list.params)) },
      {
        layer: 'rows to objects to JSON (ticketJson, JSON.stringify)',
        us: await perCall(5000, () => JSON.stringify(listBody('tickets', page, ticketJson))),
      },
      {
        layer: 'tried: rows to text, JSON columns spliced',
        us: await perCall(5000, () => `{"tickets":[${page.rows.map(splicedText).join(',')}],"next_page_token":"${page.nextPageToken}"}`),
      },
    ]
    // The parts of today's path: authentication, limits, query, rows to JSON (not the tried one).
    const parts = layers[0]!.us + layers[1]!.us + layers[2]!.us + layers[3]!.us
    const file = new SqliteFile(join(dataDir, 'switchboard.db'), { readonly: true })
    const bare = file.query(list.sql)
    const userId = login.user.id
    const access = createLogger({ level: 'info', sink: fileSink(Bun.file('/dev/null')) })
    const charged = new Request(url, { headers: auth })
    chargeUser(context, { request: charged, route: '/api/v1/tickets' }, actor)
    const headers: Record<string, string> = {}
    const known = ['status', 'priority', 'assignee_id', 'contact_id', 'tag', 'page_size', 'page_token', 'sort', 'include_total']
    const compared = [
      {
        layer: 'replaced: the query with bare ? (prepared again each time)',
        us: await perCall(5000, () => bare.all(...(list.params as string[]))),
      },
      { layer: 'replaced: the user state read each time', us: await perCall(20000, () => userState(context.db, userId, org)) },
      { layer: 'the user state from memory (SQLite)', us: await perCall(20000, () => currentUserState(context.db, userId, org)) },
      layers.pop()!,
      { layer: 'hook: request id', us: await perCall(50000, () => beginRequest({ request: charged })) },
      {
        layer: 'hook: access log line',
        us: await perCall(50000, () =>
          access.info('request', { request_id: 'x', method: 'GET', path: '/api/v1/tickets', status: 200, duration_ms: 0.5 }),
        ),
      },
      { layer: 'hook: X-RateLimit-* headers', us: await perCall(50000, () => writeRateLimitHeaders({ request: charged }, headers)) },
      { layer: 'hook: unknown query parameters', us: await perCall(50000, () => refuseUnknownParameters(url, known)) },
    ]
    file.close()
    access.flush()
    return [
      { layer: 'whole request (app.handle, body read)', us: full },
      ...layers,
      { layer: 'the rest: routing, hooks, schemas, Response', us: full - parts },
      ...compared,
    ]
  } finally {
    await runtime.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export function printRequestLayers(rows: { layer: string; us: number }[]): void {
  for (const { layer, us } of rows) process.stdout.write(`  ${layer.padEnd(60)}${us.toFixed(1).padStart(8)} µs\n`)
}

if (import.meta.main) printRequestLayers(await benchRequestLayers())
