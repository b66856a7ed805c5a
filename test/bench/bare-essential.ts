// C of the request-path benchmark: the minimal essential work of three authenticated reads, with no
// framework and no authentication. A bare Bun.serve on the same database (the SQLite file, or
// PostgreSQL through Bun.SQL) runs each read's query and answers `Response.json` of the rows:
//   /list    the tickets list's own keyset statement (SELECT tickets.*, 21 rows)
//   /ticket  one ticket by id and organization
//   /me      the user by id and organization
// Env: PORT, ORG_ID, TICKET_ID, USER_ID, and DB_PATH (SQLite) or DATABASE_URL (PostgreSQL).
import { Database } from 'bun:sqlite'
import { planStable } from '../../src/db/plan-stable.ts'
import { numbered } from '../../src/db/postgres.ts'
import { TICKET_LIST } from '../../src/modules/tickets/store.ts'

const org = process.env.ORG_ID!
const ticketId = process.env.TICKET_ID!
const userId = process.env.USER_ID!
// The list's own statement, as the app runs it (the same SQL, the same parameters, on SQLite with +?).
const list = TICKET_LIST.statement('created_at:desc', org, [], undefined, 21)
const TICKET = 'SELECT * FROM tickets WHERE id = ? AND organization_id = ?'
const ME = 'SELECT * FROM users WHERE id = ? AND organization_id = ?'

type Read = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>
let read: Read
if (process.env.DATABASE_URL) {
  const sql = new Bun.SQL(process.env.DATABASE_URL, { max: 10 })
  read = (text, params) => sql.unsafe(numbered(text), params) as Promise<Record<string, unknown>[]>
} else {
  const db = new Database(process.env.DB_PATH!, { readonly: true })
  db.exec('PRAGMA busy_timeout = 5000')
  // As the app's reads run on SQLite: parameters the planner does not read, so the plan is kept (plan-stable.ts).
  read = async (text, params) => db.query(planStable(text)).all(...(params as string[])) as Record<string, unknown>[]
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  async fetch(request) {
    const path = new URL(request.url).pathname
    if (path === '/list') return Response.json(await read(list.sql, list.params))
    if (path === '/ticket') return Response.json((await read(TICKET, [ticketId, org]))[0])
    if (path === '/me') return Response.json((await read(ME, [userId, org]))[0])
    return new Response('ok')
  },
})
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
