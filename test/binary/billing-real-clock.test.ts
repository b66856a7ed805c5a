// Billing on the compiled binary and the real clock, with its own cron loop (ticks of 100 ms, the
// billing tasks every second): an operator token made with the CLI, a price set through the operator's
// API, a subscription whose first period ends a few seconds from now (billing_cycle_anchor), then one
// real renewal by the cron loop: the renewal invoice open (send_invoice) with the next number, the
// period advanced by a calendar month. And dunning on the same clock, for a second organization whose
// invoices are due at once (days_until_due 0) with retries after 1 s and 2 s: its sent invoice goes
// overdue, the subscription past_due, then canceled once the last retry passes, back to Free.
// Waits of about 4 s, side by side.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { periodEnd } from '../../src/modules/billing/money.ts'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { freePort, type RunningServer, run, startServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-billing-clock-')
const port = String(freePort())
const env = {
  DATA_DIR: join(folder, 'data'),
  ADMIN_EMAIL: 'admin@billing-clock.test',
  ADMIN_PASSWORD: 'billing-clock-test-password',
  CRON_TICK_MS: '100',
  BILLING_INTERVAL: '1',
  BILLING_RETRY_SCHEDULE: '1s,2s',
  PORT: port,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

let server: RunningServer

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : {} }
}

async function ok(reply: Promise<{ status: number; body: Json }>, status = 200): Promise<Json> {
  const got = await reply
  expect({ status: got.status, body: got.body }).toMatchObject({ status })
  return got.body
}

const s = {} as { anchor: number; created: Json; renewed: Json; first: Json; renewal: Json; waitedMs: number }
const d = {} as { created: Json; pastDue: Json; ended: { status: number; body: Json }; invoice: Json; waitedMs: number }

async function signIn(email: string, password: string): Promise<string> {
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  return ((await login.json()) as Json).access_token as string
}

/** The second organization's dunning, from its subscription to its end (at most 10 s). */
async function dun(binary: string, operator: string): Promise<void> {
  const org = await run([binary, 'org', 'create', '--name', 'Dunning Ltd'], env, folder)
  expect(org.code).toBe(0)
  const orgId = (JSON.parse(org.stdout) as Json).id as string
  const password = 'dunning-test-password'
  const user = await run(
    [binary, 'user', 'create', '--org', orgId, '--email', 'owner@dunning.test', '--password', password, '--role', 'super_admin'],
    env,
    folder,
  )
  expect(user.code).toBe(0)
  const token = await signIn('owner@dunning.test', password)
  await ok(call('PATCH', `/api/v1/operator/organizations/${orgId}/billing`, operator, { days_until_due: 0 }))
  d.created = await ok(call('POST', '/api/v1/billing/subscription', token, { plan: 'starter', currency: 'usd' }), 201)
  const started = Date.now()
  for (;;) {
    const now = await call('GET', '/api/v1/billing/subscription', token)
    if (now.status === 200 && now.body.status === 'past_due') d.pastDue ??= now.body
    if (now.status === 404 || Date.now() - started > 10_000) {
      d.ended = now
      break
    }
    await Bun.sleep(100)
  }
  d.waitedMs = Date.now() - started
  d.invoice = await ok(call('GET', `/api/v1/billing/invoices/${d.created.latest_invoice_id}`, token))
}

describe('billing on the real clock (one binary, one renewal)', () => {
  beforeAll(async () => {
    const binary = await compiledBinary()
    server = await startServer([binary], env, folder)
    const made = await run([binary, 'operator-token', 'create', 'clock'], env, folder)
    expect(made.code).toBe(0)
    const operator = (JSON.parse(made.stdout) as Json).token as string
    const token = await signIn(env.ADMIN_EMAIL, env.ADMIN_PASSWORD)

    await ok(
      call('PUT', '/api/v1/operator/plans/starter', operator, { prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] }),
    )
    const dunning = dun(binary, operator)
    // The first period ends 3 s from now (whole seconds: RFC 3339 as a client would write it).
    s.anchor = Math.ceil(Date.now() / 1000) * 1000 + 3000
    s.created = await ok(
      call('POST', '/api/v1/billing/subscription', token, {
        plan: 'starter',
        currency: 'usd',
        billing_cycle_anchor: new Date(s.anchor).toISOString(),
      }),
      201,
    )
    s.first = await ok(call('GET', `/api/v1/billing/invoices/${s.created.latest_invoice_id}`, token))
    const started = Date.now()
    for (;;) {
      s.renewed = await ok(call('GET', '/api/v1/billing/subscription', token))
      if (s.renewed.latest_invoice_id !== s.created.latest_invoice_id || Date.now() - started > 10_000) break
      await Bun.sleep(100)
    }
    s.waitedMs = Date.now() - started
    s.renewal = await ok(call('GET', `/api/v1/billing/invoices/${s.renewed.latest_invoice_id}`, token))
    await dunning
  }, 90_000)

  afterAll(async () => {
    await server?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  test('the subscription starts now, its first period ending at the anchor (send_invoice: active)', () => {
    expect(s.created).toMatchObject({
      status: 'active',
      collection_method: 'send_invoice',
      current_period_end: new Date(s.anchor).toISOString(),
    })
    // A few seconds of a month: prorated to (almost) nothing, number 1.
    expect(s.first).toMatchObject({ number: 'INV-000001', billing_reason: 'subscription_create' })
    expect(s.first.total).toBeLessThan(10)
  })

  test('the cron loop renewed it at the anchor: the next period, its invoice open with the next number', () => {
    expect(s.waitedMs).toBeLessThan(10_000)
    expect(s.renewed).toMatchObject({
      status: 'active',
      current_period_start: new Date(s.anchor).toISOString(),
      current_period_end: new Date(periodEnd(s.anchor, 'month', 1)).toISOString(),
    })
    expect(s.renewal).toMatchObject({
      number: 'INV-000002',
      status: 'open',
      billing_reason: 'subscription_cycle',
      collection_method: 'send_invoice',
      total: 2900,
      amount_due: 2900,
      period_start: new Date(s.anchor).toISOString(),
      period_end: new Date(periodEnd(s.anchor, 'month', 1)).toISOString(),
    })
    // Not before the anchor: the renewal's invoice was made after the period ended.
    expect(Date.parse(s.renewal.created_at)).toBeGreaterThanOrEqual(s.anchor)
  })

  test('dunning: the sent invoice overdue at once, past_due, then canceled after the last retry (1 s, 2 s)', () => {
    expect(d.created).toMatchObject({ status: 'active', collection_method: 'send_invoice' })
    expect(d.pastDue).toMatchObject({ status: 'past_due', id: d.created.id })
    expect(d.waitedMs).toBeLessThan(10_000)
    // No current subscription: the organization is on Free again.
    expect(d.ended.status).toBe(404)
    // Three failures: on its due date, then at the first failure + 1 s and + 2 s; no attempt after.
    expect(d.invoice).toMatchObject({ status: 'open', attempt_count: 3, next_payment_attempt: null })
  })
})
