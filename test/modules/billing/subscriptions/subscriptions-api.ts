// What the subscriptions tests share: an app with two organizations and an operator token, prices set
// through the operator's API, requests as a client sends them (each signed in afresh: the tests move
// the clock by months), the subscription and invoice as a client reads them, the cron loop run by
// ticking the scheduler, and the subscription events as written.
import { afterAll, expect } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import type { SettingName } from '../../../../src/config.ts'
import { createOperatorToken } from '../../../../src/modules/operators/index.ts'
import { json, makeTestApp, type TestApp } from '../../../helpers/app.ts'
import { FakeClock } from '../../../helpers/clock.ts'
import { type SeededOrg, seedOrganization, signIn } from '../../../helpers/seed.ts'

export { expectError } from '../../../helpers/errors.ts'

export interface Subscription {
  id: string
  organization_id: string
  plan: string
  price_id: string
  currency: string
  interval: string
  unit_amount: number
  quantity: number
  status: string
  collection_method: string
  current_period_start: string
  current_period_end: string
  billing_cycle_anchor: string
  trial_start: string | null
  trial_end: string | null
  cancel_at_period_end: boolean
  canceled_at: string | null
  ended_at: string | null
  cancellation_reason: string | null
  default_payment_method_id: string | null
  latest_invoice_id: string | null
  past_due_since: string | null
  entitlements: { plan: string; rate_limit_per_minute: number; rate_limit_per_day: number }
  metadata: Record<string, string>
  created_at: string
  updated_at: string
}

export interface Invoice {
  id: string
  subscription_id: string | null
  number: string | null
  status: string
  billing_reason: string
  collection_method: string
  currency: string
  lines: {
    kind: string
    description: string
    plan: string | null
    quantity: number
    unit_amount: number
    amount: number
    period_start: string | null
    period_end: string | null
  }[]
  subtotal: number
  tax: number
  total: number
  applied_balance: number
  amount_credited: number
  amount_due: number
  amount_paid: number
  amount_remaining: number
  period_start: string | null
  period_end: string | null
  due_date: string | null
  attempt_count: number
  next_payment_attempt: string | null
}

export const DAY = 86_400_000
export const iso = (ms: number) => new Date(ms).toISOString()

/** Where each status may go (research §2.5 and the issue), stated here independently of the module's table. */
export const ALLOWED: Record<string, string[]> = {
  incomplete: ['active', 'incomplete_expired', 'canceled'],
  trialing: ['active', 'past_due', 'paused', 'canceled'],
  active: ['past_due', 'canceled'],
  past_due: ['active', 'canceled', 'unpaid'],
  unpaid: ['active', 'canceled'],
  paused: ['active', 'canceled'],
  canceled: [],
  incomplete_expired: [],
}

export async function subscriptionsApp(options: { settings?: Partial<Record<SettingName, string>>; start?: number } = {}) {
  const clock = new FakeClock(options.start)
  const app = await makeTestApp({ BILLING_INTERVAL: '60', ...options.settings }, { clock })
  afterAll(() => app.close())
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  const { token } = await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 't' })
  return { app, clock, acme, globex, operator: { authorization: `Bearer ${token}` }, ...client(app, { authorization: `Bearer ${token}` }) }
}

export type Role = 'super_admin' | 'admin' | 'supervisor' | 'agent' | 'viewer'

export function client(app: TestApp, operator: Record<string, string>) {
  /** A request as `role` of `org`, signed in now (tokens of an hour would not outlive the months these tests skip). */
  async function send(org: SeededOrg, method: string, path: string, body?: unknown, role: Role = 'super_admin'): Promise<Response> {
    const { auth } = await signIn(app, org.users[role].user)
    return app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }
  async function ok<T>(response: Response, status = 200): Promise<T> {
    if (response.status !== status) expect({ status: response.status, body: await response.text() }).toEqual({ status, body: '' })
    return json<T>(response)
  }
  return {
    send,
    ok,
    /** Sets the public prices of `plan` through the operator's API. */
    async setPrices(plan: string, prices: { currency: string; interval: string; unit_amount: number }[]) {
      const response = await app.request(`/api/v1/operator/plans/${plan}`, {
        method: 'PUT',
        headers: { ...operator, 'content-type': 'application/json' },
        body: JSON.stringify({ prices }),
      })
      return ok<{ prices: { id: string; currency: string; interval: string; unit_amount: number }[] }>(response)
    },
    subscribe: (org: SeededOrg, body: Record<string, unknown>) => send(org, 'POST', '/api/v1/billing/subscription', body),
    getSub: (org: SeededOrg) => send(org, 'GET', '/api/v1/billing/subscription'),
    cancel: (org: SeededOrg, body: Record<string, unknown> = {}) => send(org, 'POST', '/api/v1/billing/subscription/cancel', body),
    resume: (org: SeededOrg, body: Record<string, unknown> = {}) => send(org, 'POST', '/api/v1/billing/subscription/resume', body),
    async current(org: SeededOrg): Promise<Subscription> {
      return ok<Subscription>(await send(org, 'GET', '/api/v1/billing/subscription'))
    },
    async invoice(org: SeededOrg, id: string): Promise<Invoice> {
      return ok<Invoice>(await send(org, 'GET', `/api/v1/billing/invoices/${id}`))
    },
    /** The subscription's invoices, oldest first. */
    async invoices(org: SeededOrg, subscriptionId: string): Promise<Invoice[]> {
      const page = await ok<{ invoices: Invoice[] }>(
        await send(org, 'GET', `/api/v1/billing/invoices?subscription_id=${subscriptionId}&sort=created_at:asc&page_size=100`),
      )
      return page.invoices
    },
    /** The operator records a bank transfer of `amount` for the invoice. */
    async transfer(invoiceId: string, amount: number) {
      const response = await app.request(`/api/v1/operator/invoices/${invoiceId}/payments`, {
        method: 'POST',
        headers: { ...operator, 'content-type': 'application/json' },
        body: JSON.stringify({ amount, reference: `wire ${invoiceId}` }),
      })
      return ok<{ status: string }>(response, 201)
    },
    /** The organization's subscription events as written, oldest first. */
    async subscriptionEvents(org: SeededOrg): Promise<{ type: string; data: { subscription: Subscription } }[]> {
      const rows = await app.context.db.raw.all<{ body: string }>(
        "SELECT body FROM events WHERE organization_id = ? AND type LIKE 'subscription.%' ORDER BY id",
        [org.org.id],
      )
      return rows.map((row) => JSON.parse(row.body))
    },
    /** Moves the clock to `at` (or by nothing) and runs every due cron task once. */
    async cronAt(at?: number) {
      if (at !== undefined) app.clock.advance(at - app.clock.now())
      await app.context.scheduler.tick()
    },
    async setRetriesExhausted(org: SeededOrg, value: 'canceled' | 'unpaid') {
      await ok(await send(org, 'PATCH', '/api/v1/billing/settings', { on_retries_exhausted: value }))
    },
  }
}
