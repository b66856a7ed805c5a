// Webhook registrations changed at once over two instances: at most 50 an organization however many are
// created together; PATCHes turning one on and off each answer what they asked; deletes racing each
// other, new events and test sends give one 204, and never a 500; the operator's allowed ranges changed
// together are each recorded with what they replaced. Two instances on one PostgreSQL, one app on SQLite.
import { describe, expect, test } from 'bun:test'
import { contextFor } from '../../src/context.ts'
import { changeAllowedCidrs, parseAllowedCidrs } from '../../src/modules/webhooks/index.ts'
import { json, TEST_ENGINE, WRITERS, webhookCluster } from './webhook-cluster.ts'

const SLOW_MS = 120_000

describe(`webhook registrations changed at once (${TEST_ENGINE})`, () => {
  test(
    'creations at once near the limit: exactly as many 201 as there is room, the rest 409, never more than 50',
    async () => {
      const c = await webhookCluster(() => ({ status: 200 }))
      const room = WRITERS / 2
      for (let i = 0; i < 50 - room; i++) await c.hook()
      const made = await c.many(WRITERS, () =>
        c.send('POST', '/api/v1/webhooks', { url: c.receiver.url(), events: ['*'], secret: 'sixteen-chars-ok!' }),
      )
      const statuses = made.map((r) => r.status).sort()
      expect(statuses).toEqual([...Array(room).fill(201), ...Array(WRITERS - room).fill(409)])
      const n = await c.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE organization_id = ?', [c.org.id])
      expect(Number(n!.n)).toBe(50)
    },
    SLOW_MS,
  )

  test(
    'PATCHes turning one webhook on and off at once: each answers with the state it asked for',
    async () => {
      const c = await webhookCluster(() => ({ status: 200 }))
      const id = await c.hook()
      for (let round = 0; round < 4; round++) {
        const asked = Array.from({ length: WRITERS }, (_, i) => (i + round) % 2 === 0)
        const answers = await c.many(WRITERS, (i) => c.send('PATCH', `/api/v1/webhooks/${id}`, { enabled: asked[i] }))
        expect(answers.map((r) => r.status)).toEqual(Array(WRITERS).fill(200))
        const states = await Promise.all(answers.map((r) => json<{ enabled: boolean; disabled_reason: string | null }>(r)))
        expect(states.map((s) => s.enabled)).toEqual(asked)
        for (const s of states) expect(s.disabled_reason).toBe(s.enabled ? null : 'manual')
      }
    },
    SLOW_MS,
  )

  test(
    'deletes at once, amid a stream of new events and test sends: one 204, the other deletes 404, every event 201, no 500',
    async () => {
      const c = await webhookCluster(() => ({ status: 200 }))
      for (let round = 0; round < 4; round++) {
        const id = await c.hook()
        // Events written one after another by each writer until the deletes have answered, so that some
        // are under way when the webhook goes.
        let deleting = true
        const events: number[] = []
        const writer = async (w: number) => {
          for (let n = 0; deleting || n < 2; n++) events.push((await c.send('POST', '/api/v1/tickets', { subject: `${w}.${n}` })).status)
        }
        const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))
        await Bun.sleep(50)
        const kinds = Array.from({ length: WRITERS }, (_, i) => (i % 2 === 0 ? 'delete' : 'test'))
        const answers = await c.many(kinds.length, (i) =>
          kinds[i] === 'delete'
            ? c.send('DELETE', `/api/v1/webhooks/${id}`)
            : c.send('POST', `/api/v1/webhooks/${id}/test`, { event_type: 'ticket.created' }),
        )
        deleting = false
        await writers
        const of = (kind: string) => answers.filter((_, i) => kinds[i] === kind).map((r) => r.status)
        expect(of('delete').sort()).toEqual([204, ...Array(of('delete').length - 1).fill(404)])
        for (const status of of('test')) expect([200, 404]).toContain(status)
        expect(events).toEqual(Array(events.length).fill(201))
        const left = await c.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?', [id])
        expect(Number(left!.n)).toBe(0)
      }
    },
    SLOW_MS,
  )

  test(
    "the operator's allowed ranges changed at once: each audit record's before is the list the one before it left",
    async () => {
      const c = await webhookCluster(() => ({ status: 200 }))
      await c.many(WRITERS, (i) => {
        const parsed = parseAllowedCidrs(`10.${i}.0.0/16`)
        if ('problem' in parsed) throw new Error(parsed.problem)
        const ctx = contextFor(c.instances[i % c.instances.length]!.context, { kind: 'system', id: 'cli' })
        return changeAllowedCidrs(ctx, { organizationId: c.org.id, cidrs: parsed.cidrs }).then(() => new Response())
      })
      const records = await c.audit('organization.webhook_cidrs_changed')
      // The setup's change, then one each.
      expect(records).toHaveLength(WRITERS + 1)
      for (let k = 1; k < records.length; k++) expect(records[k]!.details.before).toEqual(records[k - 1]!.details.after)
    },
    SLOW_MS,
  )
})
