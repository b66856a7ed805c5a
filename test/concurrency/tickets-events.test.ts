// Ticket numbers, the event stream's order and the audit chain under many writers on two instances
// (issue 28): each is per organization and kept in the commit pipeline (tickets/store.ts
// assignTicketNumber, events/record-change.ts, audit/append.ts under the organization's log lock).
import { describe, expect, test } from 'bun:test'
import { verifyChains } from '../../src/modules/audit/index.ts'
import { eventsAfter } from '../../src/modules/event-stream/store.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'

const SLOW_MS = 120_000
const cluster = await makeCluster()
const { instances, org, send } = cluster
const db = instances[0]!.context.db
const orgId = org.org.id

/** `total` requests, `inFlight` at a time, each started as another is answered. */
async function pool(total: number, inFlight: number, request: (i: number) => Promise<Response>): Promise<Response[]> {
  const responses: Response[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const i = next++
        responses[i] = await request(i)
      }
    }),
  )
  return responses
}

describe(`per-organization order under ${WRITERS * 2} writers (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    '1,000 tickets created at once: numbers 1..1,000 without gap or duplicate, each ticket.created carries its number',
    async () => {
      const responses = await pool(1000, WRITERS * 2, (i) => send('POST', '/api/v1/tickets', { subject: `Load ${i}`, tags: ['load'] }))
      expect(responses.map((r) => r.status).filter((s) => s !== 201)).toEqual([])
      const tickets = await Promise.all(responses.map((r) => json<{ id: string; number: number }>(r)))
      expect(tickets.map((t) => t.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1))
      // The number each client was answered is the stored one, and the one its event told receivers.
      const stored = await db.raw.all<{ id: string; number: number; body: string }>(
        "SELECT t.id, t.number, e.body FROM tickets t JOIN events e ON e.organization_id = t.organization_id AND e.type = 'ticket.created' " +
          "AND e.body LIKE '%' || t.id || '%' WHERE t.organization_id = ?",
        [orgId],
      )
      const answered = new Map(tickets.map((t) => [t.id, t.number]))
      expect(stored.length).toBe(1000)
      for (const row of stored) {
        expect(Number(row.number)).toBe(answered.get(row.id)!)
        expect((JSON.parse(row.body) as { data: { ticket: { number: number } } }).data.ticket.number).toBe(Number(row.number))
      }
    },
    SLOW_MS,
  )

  test(
    'stream readers polling while 600 changes commit see every event exactly once, in stream order; the audit chain verifies',
    async () => {
      const { id } = await json<{ id: string }>(await send('POST', '/api/v1/tickets', { subject: 'Busy' }))
      const start = Number(
        (await db.raw.get<{ n: number }>('SELECT coalesce(max(stream_seq), 0) AS n FROM events WHERE organization_id = ?', [orgId]))!.n,
      )
      let writing = true
      // Each reader resumes after the last event it saw, as a client with Last-Event-ID does, on either instance.
      const readers = Array.from({ length: 4 }, async (_, r) => {
        const seen: number[] = []
        let last = start
        for (;;) {
          const done = !writing
          const page = await eventsAfter(instances[r % instances.length]!.context.db, orgId, last, 50)
          for (const event of page) seen.push(event.seq)
          if (page.length > 0) last = page.at(-1)!.seq
          else if (done) return seen
          else await Bun.sleep(1)
        }
      })
      const kinds = [
        () => send('POST', `/api/v1/tickets/${id}/comments`, { body: 'Working on it', public: true }),
        () => send('PATCH', `/api/v1/tickets/${id}`, { priority: 'high' }),
        () => send('PATCH', `/api/v1/tickets/${id}`, { priority: 'low' }),
        () => send('POST', '/api/v1/tickets', { subject: 'Another' }),
      ]
      const responses = await pool(600, WRITERS * 2, (i) => kinds[i % kinds.length]!())
      writing = false
      expect(responses.map((r) => r.status).filter((s) => s >= 300)).toEqual([])
      const all = (
        await db.raw.all<{ seq: number }>(
          'SELECT stream_seq AS seq FROM events WHERE organization_id = ? AND stream_seq > ? ORDER BY stream_seq',
          [orgId, start],
        )
      ).map((row) => Number(row.seq))
      // A comment and a creation always record an event; a PATCH to the priority the ticket already has records none.
      expect(all.length).toBeGreaterThanOrEqual(300)
      // Gap-free numbering: every number from start + 1 on, once.
      expect(all).toEqual(Array.from({ length: all.length }, (_, i) => start + 1 + i))
      for (const seen of await Promise.all(readers)) expect(seen).toEqual(all)
      const chains = await verifyChains({ db })
      expect(chains.filter((chain) => chain.broken !== undefined)).toEqual([])
      expect(chains.find((chain) => chain.organizationId === orgId)!.records).toBeGreaterThan(1300)
    },
    SLOW_MS,
  )

  test(
    'a ticket deleted while 16 calls are created naming it: each call 201 or 400, the delete 204, no call names the deleted ticket',
    async () => {
      for (let round = 0; round < 10; round++) {
        const { id } = await json<{ id: string }>(await send('POST', '/api/v1/tickets', { subject: `Doomed ${round}` }))
        const call = () => send('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199', ticket_id: id })
        const before = Array.from({ length: WRITERS / 2 }, call)
        const deleted = send('DELETE', `/api/v1/tickets/${id}`)
        const after = Array.from({ length: WRITERS / 2 }, call)
        const statuses = (await Promise.all([...before, ...after])).map((r) => r.status)
        for (const status of statuses) expect([201, 400]).toContain(status)
        expect((await deleted).status).toBe(204)
        const naming = await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM calls WHERE ticket_id = ?', [id])
        expect(Number(naming!.n)).toBe(0)
      }
    },
    SLOW_MS,
  )
})
