// The organization's request rates follow its subscription on the very next request: X-RateLimit-Limit
// (the minute window, per user) after subscribing, after an upgrade, while past_due (the grace
// period keeps the plan), and after a cancellation (back to Free).
import { expect, test } from 'bun:test'
import { signIn } from '../../../helpers/seed.ts'
import { type Subscription, subscriptionsApp } from './subscriptions-api.ts'

const t = await subscriptionsApp({ settings: { RATE_LIMITS_ENABLED: 'true', BILLING_RETRY_SCHEDULE: '1d' } })
const { app, acme } = t
await t.setPrices('starter', [{ currency: 'usd', interval: 'month', unit_amount: 2900 }])
await t.setPrices('professional', [{ currency: 'usd', interval: 'month', unit_amount: 9900 }])

/** An agent's next request: the limit it runs under now. */
async function limit(): Promise<string | null> {
  const { auth } = await signIn(app, acme.users.agent.user)
  const response = await app.request('/api/v1/me', { headers: auth })
  expect(response.status).toBe(200)
  return response.headers.get('x-ratelimit-limit')
}

test('subscribe, upgrade, past_due, cancel: the limit changes on the very next request', async () => {
  // Seeded on Professional by the operator (no subscription): 1000 a minute.
  expect(await limit()).toBe('1000')
  const sub = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd' }), 201)
  expect(sub.entitlements).toEqual({ plan: 'starter', rate_limit_per_minute: 300, rate_limit_per_day: 10000 })
  expect(await limit()).toBe('300')
  await t.ok(await t.subscribe(acme, { plan: 'professional' }))
  expect(await limit()).toBe('1000')
  // Unpaid past its due date: past_due keeps the plan (the grace period)…
  const invoice = await t.invoice(acme, (await t.current(acme)).latest_invoice_id!)
  await t.cronAt(Date.parse(invoice.due_date!))
  expect((await t.current(acme)).status).toBe('past_due')
  expect(await limit()).toBe('1000')
  // …and a cancellation falls back to Free at once.
  await t.ok(await t.cancel(acme, { at_period_end: false }))
  expect(await limit()).toBe('60')
})
