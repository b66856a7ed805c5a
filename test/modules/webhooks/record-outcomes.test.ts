// recordOutcomes: the outcomes of many attempts recorded in one transaction (the dispatcher's tick) give
// what recording each in turn gives: every delivery closed with its own answer, one retry per failure,
// and the webhook's failure state as the last outcome left it — a success after a failure resets it,
// a failure after a success starts it anew.
import { afterAll, describe, expect, test } from 'bun:test'
import { recordOutcomes } from '../../../src/modules/webhooks/record-outcome.ts'
import type { AttemptOutcome } from '../../../src/modules/webhooks/send-attempt.ts'
import type { ClaimedDelivery } from '../../../src/modules/webhooks/store/dispatch.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const org = await seedOrganization(app, 'acme')
const SCHEDULE = app.config.webhooks.retryScheduleMs

async function send(method: string, path: string, body?: unknown) {
  return app.request(path, {
    method,
    headers: { ...org.users.admin.auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

/** A webhook and `count` tickets: its first attempts, pending, oldest first. */
async function pendingDeliveries(count: number): Promise<{ webhookId: string; deliveries: ClaimedDelivery[] }> {
  const hook = await send('POST', '/api/v1/webhooks', {
    url: 'https://hooks.example.com/in',
    events: ['ticket.created'],
    secret: 'sixteen-chars-ok!',
  })
  expect(hook.status).toBe(201)
  const webhookId = (await json<{ id: string }>(hook)).id
  for (let i = 0; i < count; i++) expect((await send('POST', '/api/v1/tickets', { subject: `Ticket ${i}` })).status).toBe(201)
  const deliveries = await app.context.db.raw.all<ClaimedDelivery>(
    'SELECT id, organization_id, webhook_id, event_id, event_type, attempt, trigger, created_at FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at, id',
    [webhookId],
  )
  for (const d of deliveries) d.attempt = Number(d.attempt)
  expect(deliveries.length).toBe(count)
  return { webhookId, deliveries }
}

const ok = (code = 200): AttemptOutcome => ({
  ok: true,
  responseCode: code,
  responseTimeMs: 12,
  responseBody: `fine ${code}`,
  errorClass: null,
  errorMessage: null,
  retryAfterS: null,
})
const failed: AttemptOutcome = {
  ok: false,
  responseCode: 500,
  responseTimeMs: 30,
  responseBody: 'boom',
  errorClass: 'http_status',
  errorMessage: 'the receiver answered 500',
  retryAfterS: null,
}

interface Stored {
  id: string
  event_id: string
  attempt: number
  status: string
  response_code: number | null
  response_time_ms: number | null
  response_body: string | null
  error_class: string | null
  delivered_at: number | null
  lease_until: number | null
  next_attempt_at: number | null
}

const stored = (webhookId: string) =>
  app.context.db.raw.all<Stored>('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at, attempt, id', [webhookId])
const state = async (webhookId: string) => {
  const row = await app.context.db.raw.get<{ consecutive_failures: number; failing_since: number | null; last_success_at: number | null }>(
    'SELECT consecutive_failures, failing_since, last_success_at FROM webhooks WHERE id = ?',
    [webhookId],
  )
  return {
    consecutive_failures: Number(row!.consecutive_failures),
    failing_since: row!.failing_since === null ? null : Number(row!.failing_since),
    last_success_at: row!.last_success_at === null ? null : Number(row!.last_success_at),
  }
}

describe('recordOutcomes', () => {
  test('closes every attempt with its own answer; a success after a failure resets the failure state', async () => {
    const { webhookId, deliveries } = await pendingDeliveries(4)
    const now = app.clock.now()
    const outcomes = [ok(200), failed, ok(201), ok(204)]
    const results = await app.context.db.write('test.outcomes', (tx) =>
      recordOutcomes(
        tx,
        deliveries.map((delivery, i) => ({ delivery, outcome: outcomes[i]! })),
        SCHEDULE,
        now,
      ),
    )
    expect(results.map((r) => r.disabled)).toEqual([null, null, null, null])
    expect(results[1]!.nextAttemptAt).toBeGreaterThanOrEqual(now + SCHEDULE[1]!)
    for (const i of [0, 2, 3]) expect(results[i]!.nextAttemptAt).toBeNull()

    const rows = await stored(webhookId)
    const firsts = rows.filter((r) => Number(r.attempt) === 1)
    expect(firsts.map((r) => [r.status, Number(r.response_code), r.response_body, Number(r.delivered_at)])).toEqual([
      ['success', 200, 'fine 200', now],
      ['failed', 500, 'boom', now],
      ['success', 201, 'fine 201', now],
      ['success', 204, 'fine 204', now],
    ])
    for (const r of firsts) {
      expect(r.lease_until).toBeNull()
      expect(r.next_attempt_at).toBeNull()
      expect(Number(r.response_time_ms)).toBe(r.status === 'success' ? 12 : 30)
    }
    // The failure's retry, pending at the time its result gave.
    const retries = rows.filter((r) => Number(r.attempt) === 2)
    expect(retries.map((r) => [r.event_id, r.status, Number(r.next_attempt_at)])).toEqual([
      [deliveries[1]!.event_id, 'pending', Number(results[1]!.nextAttemptAt)],
    ])
    expect(await state(webhookId)).toEqual({ consecutive_failures: 0, failing_since: null, last_success_at: now })
  })

  test('a failure after successes leaves the webhook failing since now', async () => {
    const { webhookId, deliveries } = await pendingDeliveries(3)
    const now = app.clock.now()
    const outcomes = [ok(), ok(), failed]
    await app.context.db.write('test.outcomes', (tx) =>
      recordOutcomes(
        tx,
        deliveries.map((delivery, i) => ({ delivery, outcome: outcomes[i]! })),
        SCHEDULE,
        now,
      ),
    )
    expect(await state(webhookId)).toEqual({ consecutive_failures: 1, failing_since: now, last_success_at: now })
    expect((await stored(webhookId)).map((r) => r.status)).toEqual(['success', 'success', 'failed', 'pending'])
  })

  test('many successes at once (more than one statement holds on PostgreSQL) are all closed', async () => {
    const { webhookId, deliveries } = await pendingDeliveries(150)
    const now = app.clock.now()
    await app.context.db.write('test.outcomes', (tx) =>
      recordOutcomes(
        tx,
        deliveries.map((delivery, i) => ({ delivery, outcome: ok(200 + (i % 3)) })),
        SCHEDULE,
        now,
      ),
    )
    const rows = await stored(webhookId)
    expect(rows.length).toBe(150)
    const byId = new Map(rows.map((r) => [r.id, r]))
    for (const [i, d] of deliveries.entries()) {
      const row = byId.get(d.id)!
      expect([row.status, Number(row.response_code), row.response_body]).toEqual(['success', 200 + (i % 3), `fine ${200 + (i % 3)}`])
    }
    expect(await state(webhookId)).toEqual({ consecutive_failures: 0, failing_since: null, last_success_at: now })
  })
})
