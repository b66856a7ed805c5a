// ticketJsonText (the read paths' serializer) writes exactly what JSON.stringify(ticketJson(row)) wrote:
// tickets of every shape made through the API (unicode and escapes, empty and full tags and custom
// fields, numbers, booleans, a requester or none, solved and closed times), read back from the
// database, compared byte for byte. On both engines (the rows come from the engine under test).
import { afterAll, expect, test } from 'bun:test'
import { ticketJson, ticketJsonText, type TicketRow } from '../../../src/modules/tickets/ticket-json.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { org, users } = await seedOrganization(app)
const headers = { ...users.admin.auth, 'content-type': 'application/json' }

const SHAPES: Record<string, unknown>[] = [
  { subject: 'plain' },
  { subject: 'Überweisung 請求書 🔥', description: 'Line one\nline two\t“quoted” \\ back\\slash "double"' },
  { subject: 'control \u0001 \u001f and \u2028 \u2029 separators', description: '' },
  { subject: 'tags', tags: ['Billing', 'vip', 'a-b', 'Billing'] },
  { subject: 'custom fields', custom_fields: { floor: 3, ratio: 0.1, big: 1e21, negative: -0, vip: true, off: false, note: 'Zürich "x"' } },
  { subject: 'integer-like keys', custom_fields: { b: 1, '10': 'ten', '2': 'two', a: 'x' } },
  { subject: 'requester', requester: { name: 'Zoë "Z" O’Neil', email: 'zoe@example.com' }, priority: 'urgent', type: 'incident' },
  { subject: 'phone, low', requester: { name: 'A', email: 'anon@example.com' }, priority: 'low', channel: 'phone' },
]

test('every shape: the spliced text is byte for byte what the object path wrote', async () => {
  const ids: string[] = []
  for (const shape of SHAPES) {
    const response = await app.request('/api/v1/tickets', { method: 'POST', headers, body: JSON.stringify(shape) })
    const created = await json(response)
    expect({ shape, status: response.status, created }).toMatchObject({ shape, status: 201 })
    ids.push(created.id as string)
  }
  // Solved, then closed: both times set.
  for (const status of ['solved', 'closed']) {
    const response = await app.request(`/api/v1/tickets/${ids[0]}`, { method: 'PATCH', headers, body: JSON.stringify({ status }) })
    expect(response.status).toBe(200)
  }
  const rows = await app.context.db.raw.all<TicketRow>('SELECT * FROM tickets WHERE organization_id = ?', [org.id])
  expect(rows.length).toBe(SHAPES.length)
  for (const row of rows) expect(ticketJsonText(row)).toBe(JSON.stringify(ticketJson(row)))
  expect(rows.some((row) => row.closed_at !== null && row.solved_at !== null)).toBe(true)
})

test('the list and a ticket answer that text as application/json, the same bytes the object path sent', async () => {
  const rows = await app.context.db.raw.all<TicketRow>(
    'SELECT * FROM tickets WHERE organization_id = ? ORDER BY created_at DESC, id DESC',
    [org.id],
  )
  const list = await app.request('/api/v1/tickets?page_size=100&include_total=true', { headers })
  expect(list.headers.get('content-type')).toBe('application/json;charset=utf-8')
  expect(await list.text()).toBe(JSON.stringify({ tickets: rows.map(ticketJson), next_page_token: '', total_count: rows.length }))
  const one = await app.request(`/api/v1/tickets/${rows[0]!.id}`, { headers })
  expect(one.headers.get('content-type')).toBe('application/json;charset=utf-8')
  expect(await one.text()).toBe(JSON.stringify(ticketJson(rows[0]!)))
})
