// A full year of monthly renewals by the cron loop on a fake clock (manual provider, send_invoice):
// from an anchor on the 31st the periods end on each month's last day when it is shorter (28 February,
// 30 April…) and on the 31st again after; twelve renewal invoices with gap-free numbers and their
// amounts (tax at the account's rate), each paid by a transfer the operator records, the subscription
// active throughout. And a server that was off for three periods catching up one period per run.
import { expect, test } from 'bun:test'
import { DAY, type Invoice, iso, type Subscription, subscriptionsApp } from './subscriptions-api.ts'

const ANCHOR = Date.UTC(2026, 0, 31, 9, 30)
const t = await subscriptionsApp({ start: ANCHOR })
const { app, acme, globex, operator } = t
await t.setPrices('starter', [{ currency: 'usd', interval: 'month', unit_amount: 2900 }])
const taxed = await app.request(`/api/v1/operator/organizations/${acme.org.id}/billing`, {
  method: 'PATCH',
  headers: { ...operator, 'content-type': 'application/json' },
  body: JSON.stringify({ tax_rate_bps: 2000 }),
})
expect(taxed.status).toBe(200)

/** Each period's end from the 31 January 2026 anchor: the month's last day when it has no 31st. */
const ENDS = [
  Date.UTC(2026, 1, 28, 9, 30),
  Date.UTC(2026, 2, 31, 9, 30),
  Date.UTC(2026, 3, 30, 9, 30),
  Date.UTC(2026, 4, 31, 9, 30),
  Date.UTC(2026, 5, 30, 9, 30),
  Date.UTC(2026, 6, 31, 9, 30),
  Date.UTC(2026, 7, 31, 9, 30),
  Date.UTC(2026, 8, 30, 9, 30),
  Date.UTC(2026, 9, 31, 9, 30),
  Date.UTC(2026, 10, 30, 9, 30),
  Date.UTC(2026, 11, 31, 9, 30),
  Date.UTC(2027, 0, 31, 9, 30),
  Date.UTC(2027, 1, 28, 9, 30),
]

test('twelve monthly renewals: calendar periods from a 31st anchor, numbers without gaps, paid, active throughout', async () => {
  const sub = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd', quantity: 3 }), 201)
  expect(sub).toMatchObject({ status: 'active', current_period_start: iso(ANCHOR), current_period_end: iso(ENDS[0]!) })
  const first = await t.invoice(acme, sub.latest_invoice_id!)
  // 3 seats × 29.00 = 87.00; 20 % tax = 17.40; 104.40 due.
  expect(first).toMatchObject({ number: 'INV-000001', subtotal: 8700, tax: 1740, total: 10440, amount_due: 10440 })
  await t.transfer(first.id, 10440)

  for (let month = 1; month <= 12; month++) {
    const end = ENDS[month - 1]!
    // A minute before the period's end nothing happens; at its end the renewal is made.
    await t.cronAt(end - 60_000)
    expect((await t.current(acme)).current_period_end).toBe(iso(end))
    await t.cronAt(end)
    const now = await t.current(acme)
    expect(now).toMatchObject({ status: 'active', current_period_start: iso(end), current_period_end: iso(ENDS[month]!) })
    const invoice = await t.invoice(acme, now.latest_invoice_id!)
    expect(invoice).toMatchObject({
      number: `INV-${String(month + 1).padStart(6, '0')}`,
      status: 'open',
      billing_reason: 'subscription_cycle',
      collection_method: 'send_invoice',
      subtotal: 8700,
      tax: 1740,
      total: 10440,
      amount_due: 10440,
      period_start: iso(end),
      period_end: iso(ENDS[month]!),
      due_date: iso(end + 30 * DAY),
    })
    expect(invoice.lines).toMatchObject([
      { kind: 'subscription', quantity: 3, unit_amount: 2900, amount: 8700, period_start: iso(end), period_end: iso(ENDS[month]!) },
    ])
    // The operator records the transfer a week later; the subscription stays active.
    await t.cronAt(end + 7 * DAY)
    expect((await t.transfer(invoice.id, 10440)).status).toBe('succeeded')
    expect((await t.current(acme)).status).toBe('active')
  }

  const invoices: Invoice[] = await t.invoices(acme, sub.id)
  expect(invoices.map((i) => i.number)).toEqual(Array.from({ length: 13 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`))
  expect(invoices.every((i) => i.status === 'paid')).toBe(true)
  expect(invoices.filter((i) => i.billing_reason === 'subscription_cycle')).toHaveLength(12)
  // Contiguous: each period starts where the one before ended.
  for (let i = 1; i < invoices.length; i++) expect(invoices[i]!.period_start).toBe(invoices[i - 1]!.period_end)
  // The subscription never left active: every event says so.
  const events = await t.subscriptionEvents(acme)
  expect(events.map((e) => e.type)).toEqual(['subscription.created', ...Array(12).fill('subscription.updated')])
  expect(events.every((e) => e.data.subscription.status === 'active')).toBe(true)
}, 60_000)

test('a server off for three periods catches up one period per run, no period skipped or billed twice', async () => {
  const start = app.clock.now()
  const sub = await t.ok<Subscription>(await t.subscribe(globex, { plan: 'starter', currency: 'usd' }), 201)
  const anchor = Date.parse(sub.billing_cycle_anchor)
  expect(anchor).toBe(start)
  // Three months and a day later, the first run renews the first period only.
  app.clock.advance(92 * DAY)
  await t.cronAt(app.clock.now())
  const firstRun = await t.current(globex)
  expect(firstRun.current_period_start).toBe(sub.current_period_end)
  for (let run = 0; run < 4; run++) await t.cronAt(app.clock.now() + 60_000)
  const invoices = await t.invoices(globex, sub.id)
  expect(invoices.map((i) => i.billing_reason)).toEqual([
    'subscription_create',
    'subscription_cycle',
    'subscription_cycle',
    'subscription_cycle',
  ])
  for (let i = 1; i < invoices.length; i++) expect(invoices[i]!.period_start).toBe(invoices[i - 1]!.period_end)
  // Caught up: the current period contains now.
  const caughtUp = await t.current(globex)
  expect(Date.parse(caughtUp.current_period_end)).toBeGreaterThan(app.clock.now())
  expect(Date.parse(caughtUp.current_period_start)).toBeLessThanOrEqual(app.clock.now())
}, 60_000)
