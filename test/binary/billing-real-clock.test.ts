// Billing on the compiled binary and the real clock, with its own cron loop (ticks of 100 ms, the
// billing tasks every second): an operator token made with the CLI, a price set through the operator's
// API, a subscription whose first period ends a few seconds from now (billing_cycle_anchor), then one
// real renewal by the cron loop: the renewal invoice open (send_invoice) with the next number, the
// period advanced by a calendar month. One wait of about 4 s.
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

describe('billing on the real clock (one binary, one renewal)', () => {
  beforeAll(async () => {
    const binary = await compiledBinary()
    server = await startServer([binary], env, folder)
    const made = await run([binary, 'operator-token', 'create', 'clock'], env, folder)
    expect(made.code).toBe(0)
    const operator = (JSON.parse(made.stdout) as Json).token as string
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    })
    const token = ((await login.json()) as Json).access_token as string

    await ok(
      call('PUT', '/api/v1/operator/plans/starter', operator, { prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] }),
    )
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
})
