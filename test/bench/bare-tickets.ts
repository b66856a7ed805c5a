// C of the tickets benchmark: the essential work of GET /api/v1/tickets?page_size=20 alone. A bare
// Bun.serve on the same database file runs the same keyset query and serializes the same JSON
// (with a next_page_token), with no framework and no authentication.
import { openSqlite } from '../../src/db/sqlite.ts'
import { encodePageToken, queryDigest } from '../../src/lib/page-token.ts'
import { TICKET_LIST } from '../../src/modules/tickets/store.ts'
import { ticketJson, type TicketRow } from '../../src/modules/tickets/ticket-json.ts'

const db = openSqlite(process.env.DB_PATH!)
const organizationId = process.env.ORG_ID!
const key = new Uint8Array(
  Buffer.from((await db.raw.get<{ value: string }>("SELECT value FROM system_kv WHERE key = 'page_token_key'"))!.value, 'base64'),
)
const binding = { organizationId, query: queryDigest('tickets', {}, 'created_at:desc') }
const query = TICKET_LIST.statement('created_at:desc', organizationId, [], undefined, 21)

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  async fetch() {
    const rows = await db.raw.all<TicketRow>(query.sql, query.params)
    const more = rows.length > 20
    if (more) rows.pop()
    const last = rows.at(-1)!
    const next = more ? encodePageToken(key, binding, { after: [last.created_at, last.id] }, Math.floor(Date.now() / 1000) + 3600) : ''
    return new Response(JSON.stringify({ tickets: rows.map(ticketJson), next_page_token: next }), {
      headers: { 'content-type': 'application/json;charset=utf-8' },
    })
  },
})
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
