// The outbox: an event's delivery rows are written in the transaction of the change that caused it —
// pending for each enabled webhook that subscribes to its type, skipped for a disabled one, none for
// the others — and vanish with it when that transaction rolls back; oversized event data is refused.
import { afterAll, describe, expect, test } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { recordChange } from '../../../src/modules/events/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const org = await seedOrganization(app, 'acme')
const other = await seedOrganization(app, 'globex')

async function send(method: string, path: string, body?: unknown, auth = org.users.admin.auth) {
  return app.request(path, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function hook(events: string[], auth = org.users.admin.auth): Promise<string> {
  const response = await send(
    'POST',
    '/api/v1/webhooks',
    { url: 'https://hooks.example.com/in', events, secret: 'sixteen-chars-ok!' },
    auth,
  )
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

interface DeliveryRow {
  webhook_id: string
  event_id: string
  event_type: string
  attempt: number
  trigger: string
  status: string
  next_attempt_at: number | null
}

const db = app.context.db
const deliveriesOf = (eventId: string) =>
  db.raw.all<DeliveryRow>(
    'SELECT webhook_id, event_id, event_type, attempt, trigger, status, next_attempt_at FROM webhook_deliveries WHERE event_id = ? ORDER BY webhook_id',
    [eventId],
  )

describe('fan-out', () => {
  test('a new ticket: pending for ticket.*, ticket.created and *, skipped for a disabled subscriber, nothing for user.* or another organization', async () => {
    const tickets = await hook(['ticket.*'])
    const exact = await hook(['ticket.created'])
    const everything = await hook(['*'])
    const users = await hook(['user.*'])
    const disabled = await hook(['ticket.*'])
    expect((await send('PATCH', `/api/v1/webhooks/${disabled}`, { enabled: false })).status).toBe(200)
    const elsewhere = await hook(['*'], other.users.admin.auth)

    let woken = 0
    const stop = app.context.ports.wakeups.onDeliveriesQueued(() => woken++)
    const created = await send('POST', '/api/v1/tickets', { subject: 'Printer on fire' })
    stop()
    expect(created.status).toBe(201)
    expect(woken).toBe(1)
    const ticketId = (await json<{ id: string }>(created)).id
    const event = (await db.raw.get<{ id: string; body: string }>(
      "SELECT id, body FROM events WHERE type = 'ticket.created' AND body LIKE '%' || ? || '%'",
      [ticketId],
    ))!
    expect(JSON.parse(event.body)).toMatchObject({
      id: event.id,
      type: 'ticket.created',
      organization_id: org.org.id,
      data: { ticket: { id: ticketId, subject: 'Printer on fire' } },
    })

    const rows = await deliveriesOf(event.id)
    const byWebhook = Object.fromEntries(rows.map((r) => [r.webhook_id, r]))
    expect(Object.keys(byWebhook).sort()).toEqual([tickets, exact, everything, disabled].sort())
    for (const id of [tickets, exact, everything]) {
      expect(byWebhook[id]).toEqual({
        webhook_id: id,
        event_id: event.id,
        event_type: 'ticket.created',
        attempt: 1,
        trigger: 'event',
        status: 'pending',
        next_attempt_at: app.clock.now(),
      })
    }
    expect(byWebhook[disabled]).toMatchObject({ status: 'skipped', next_attempt_at: null })
    expect(byWebhook[users]).toBeUndefined()
    expect(byWebhook[elsewhere]).toBeUndefined()
  })

  test('a rolled-back change leaves neither its event nor its deliveries', async () => {
    const count = () =>
      db.raw.get<{ e: number; d: number }>('SELECT (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM webhook_deliveries) AS d')
    const before = await count()
    const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
    const change = (tx: Parameters<Parameters<typeof db.write>[1]>[0]) =>
      recordChange(tx, ctx, {
        type: 'ticket.updated',
        organizationId: org.org.id,
        target: { type: 'ticket', id: 'tkt_x' },
        data: { ticket: { id: 'tkt_x' } },
      })
    await expect(
      db.write('test.rollback', async (tx) => {
        await change(tx)
        throw new Error('the change failed after its event')
      }),
    ).rejects.toThrow('the change failed after its event')
    expect(await count()).toEqual(before)
    // The same change committed does queue deliveries (written in the commit pipeline, with the event).
    await db.write('test.commit', change)
    expect((await count())!.d).toBeGreaterThan(before!.d)
    await db.raw.run("DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM events WHERE body LIKE '%tkt_x%')")
    await db.raw.run("DELETE FROM events WHERE body LIKE '%tkt_x%'")
    expect(await count()).toEqual(before)
  })

  test('event data over 256 KB is refused with the change (413), nothing written', async () => {
    await hook(['ticket.*'])
    const tickets = async () => (await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM tickets'))!.n
    const before = await tickets()
    // 65,535 characters of 3 bytes each in UTF-8: about 192 KB of description, plus the escapes of control characters.
    const description = '\u0001'.repeat(45_000)
    const response = await send('POST', '/api/v1/tickets', { subject: 'Huge', description })
    expect(response.status).toBe(413)
    expect((await json(response)).code).toBe('PAYLOAD_TOO_LARGE')
    expect(await tickets()).toBe(before)
  })
})
