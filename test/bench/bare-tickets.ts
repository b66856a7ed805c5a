// C of the tickets benchmark: the essential work of GET /api/v1/tickets?page_size=20 alone. A bare
// Bun.serve on the same database file runs the same keyset query and serializes the same JSON
// (with a next_page_token), with no framework and no authentication.
import { keysetSql } from '../../src/db/keyset.ts'
import { openDatabase } from '../../src/db/open.ts'
import { encodePageToken, queryDigest } from '../../src/lib/page-token.ts'
import { TICKET_LIST } from '../../src/modules/tickets/list-tickets.ts'
import { ticketJson, type TicketRow } from '../../src/modules/tickets/ticket-json.ts'

const { sqlite } = openDatabase(process.env.DB_PATH!)
const organizationId = process.env.ORG_ID!
const key = new Uint8Array(Buffer.from(sqlite.query<{ value: string }, []>("SELECT value FROM system_kv WHERE key = 'page_token_key'").get()!.value, 'base64'))
const binding = { organizationId, query: queryDigest('tickets', {}, 'created_at:desc') }
const sort = TICKET_LIST.sorts.created_at!

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  fetch() {
    const query = keysetSql({ columns: TICKET_LIST.columns, from: TICKET_LIST.from, where: [{ sql: 'organization_id = ?', params: [organizationId] }], sortExpr: sort.expr, direction: 'desc', idExpr: 'id', limit: 21 })
    const rows = sqlite.query<TicketRow, never[]>(query.sql).all(...(query.params as never[]))
    const more = rows.length > 20
    if (more) rows.pop()
    const last = rows.at(-1)!
    const next = more ? encodePageToken(key, binding, { after: [sort.value(last), last.id] }, Math.floor(Date.now() / 1000) + 3600) : ''
    return new Response(JSON.stringify({ tickets: rows.map(ticketJson), next_page_token: next }), { headers: { 'content-type': 'application/json;charset=utf-8' } })
  },
})
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
