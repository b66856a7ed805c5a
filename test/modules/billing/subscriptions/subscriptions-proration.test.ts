// Proration against figures worked out by hand (Stripe's always_invoice, to the millisecond): an
// upgrade, a seat reduction whose negative total becomes credit taken off the renewal, an interval
// change starting a new period, and a first period shortened by billing_cycle_anchor.
import { expect, test } from 'bun:test'
import { DAY, type Invoice, iso, type Subscription, subscriptionsApp } from './subscriptions-api.ts'

const HOUR = 3_600_000
const MARCH_1 = Date.UTC(2026, 2, 1)
const t = await subscriptionsApp({ start: MARCH_1 })
const { app, acme, globex } = t
await t.setPrices('starter', [
  { currency: 'usd', interval: 'month', unit_amount: 2900 },
  { currency: 'usd', interval: 'year', unit_amount: 29000 },
])
await t.setPrices('professional', [{ currency: 'usd', interval: 'month', unit_amount: 9900 }])

const latest = async (): Promise<Invoice> => t.invoice(acme, (await t.current(acme)).latest_invoice_id!)
const amounts = (invoice: Invoice) => invoice.lines.map((l) => [l.kind, l.amount])

test('upgrade, fewer seats (credit), renewal with the credit taken off, then a yearly interval', async () => {
  // 1 March 00:00: Starter × 2 for March (31 days): 2 × 29.00 = 58.00.
  const sub = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd', quantity: 2 }), 201)
  expect(sub.current_period_end).toBe(iso(Date.UTC(2026, 3, 1)))
  expect((await latest()).total).toBe(5800)
  // Paid: the seat reduction below credits time that was paid (unpaid, its credit would go to this invoice).
  await t.transfer((await latest()).id, 5800)

  // 11 March 06:00: 20.75 of the 31 days left (1,792,800,000 of 2,678,400,000 ms).
  //   credit  5,800 × 20.75 / 31 = 120,350 / 31 = 3,882.26 -> -3,882
  //   charge 19,800 × 20.75 / 31 = 410,850 / 31 = 13,253.23 -> 13,253
  //   total 9,371
  app.clock.advance(10 * DAY + 6 * HOUR)
  const upgraded = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'professional' }))
  expect(upgraded).toMatchObject({
    plan: 'professional',
    quantity: 2,
    unit_amount: 9900,
    current_period_end: iso(Date.UTC(2026, 3, 1)),
    entitlements: { plan: 'professional' },
  })
  const upgrade = await latest()
  expect(upgrade).toMatchObject({ billing_reason: 'subscription_update', subtotal: 9371, total: 9371, amount_due: 9371, status: 'open' })
  expect(amounts(upgrade)).toEqual([
    ['proration', -3882],
    ['proration', 13253],
  ])
  expect(upgrade.lines[0]).toMatchObject({
    quantity: 2,
    unit_amount: 2900,
    plan: 'starter',
    period_start: iso(MARCH_1 + 10 * DAY + 6 * HOUR),
    period_end: iso(Date.UTC(2026, 3, 1)),
  })
  expect(upgrade.lines[1]).toMatchObject({ quantity: 2, unit_amount: 9900, plan: 'professional' })
  await t.transfer(upgrade.id, 9371)

  // 21 March 12:00: 10.5 days left. Professional 2 seats -> 1:
  //   credit 19,800 × 10.5 / 31 = 207,900 / 31 = 6,706.45 -> -6,706
  //   charge  9,900 × 10.5 / 31 = 103,950 / 31 = 3,353.23 -> 3,353
  //   total -3,353: nothing due (paid at once), 33.53 credit on the account.
  app.clock.advance(10 * DAY + 6 * HOUR)
  await t.ok(await t.subscribe(acme, { quantity: 1 }))
  const fewer = await latest()
  expect(amounts(fewer)).toEqual([
    ['proration', -6706],
    ['proration', 3353],
  ])
  expect(fewer).toMatchObject({ total: -3353, applied_balance: -3353, amount_due: 0, status: 'paid' })
  expect(await t.ok<{ credit_balance: number }>(await t.send(acme, 'GET', '/api/v1/billing/settings'))).toMatchObject({
    credit_balance: 3353,
  })
  expect((await t.current(acme)).status).toBe('active')

  // 1 April: the renewal, 99.00 less the 33.53 credit: 65.47 due.
  await t.cronAt(Date.UTC(2026, 3, 1))
  const renewal = await latest()
  expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', total: 9900, applied_balance: 3353, amount_due: 6547 })
  await t.transfer(renewal.id, 6547)

  // 11 April 00:00: 20 of April's 30 days left; to Starter yearly: a new period from now.
  //   credit 9,900 × 20 / 30 = 6,600 -> -6,600
  //   charge the full year: 29,000
  //   total 22,400
  await t.cronAt(Date.UTC(2026, 3, 11))
  const yearly = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', interval: 'year' }))
  expect(yearly).toMatchObject({
    plan: 'starter',
    interval: 'year',
    unit_amount: 29000,
    current_period_start: iso(Date.UTC(2026, 3, 11)),
    current_period_end: iso(Date.UTC(2027, 3, 11)),
    billing_cycle_anchor: iso(Date.UTC(2026, 3, 11)),
  })
  const change = await latest()
  expect(amounts(change)).toEqual([
    ['proration', -6600],
    ['subscription', 29000],
  ])
  expect(change).toMatchObject({ total: 22400, period_start: iso(Date.UTC(2026, 3, 11)), period_end: iso(Date.UTC(2027, 3, 11)) })
})

test('a first period shortened by billing_cycle_anchor is prorated over the full interval ending there', async () => {
  // Created 11 April 00:00, anchor 25 April 00:00: 14 days of the month from 25 March to 25 April
  // (31 days): 2,900 × 14 / 31 = 40,600 / 31 = 1,309.68 -> 1,310.
  const now = app.clock.now()
  expect(now).toBe(Date.UTC(2026, 3, 11))
  const sub = await t.ok<Subscription>(
    await t.subscribe(globex, { plan: 'starter', currency: 'usd', billing_cycle_anchor: iso(Date.UTC(2026, 3, 25)) }),
    201,
  )
  expect(sub).toMatchObject({
    current_period_start: iso(now),
    current_period_end: iso(Date.UTC(2026, 3, 25)),
    billing_cycle_anchor: iso(Date.UTC(2026, 3, 25)),
  })
  const first = await t.invoice(globex, sub.latest_invoice_id!)
  expect(first).toMatchObject({ billing_reason: 'subscription_create', total: 1310 })
  expect(first.lines).toMatchObject([{ kind: 'subscription', quantity: 1, unit_amount: 2900, amount: 1310 }])
  // A change within that short period prorates over the same full interval: 7 of 31 days left, 1 -> 3 seats.
  //   credit 2,900 × 7 / 31 = 20,300 / 31 = 654.84 -> -655
  //   charge 8,700 × 7 / 31 = 60,900 / 31 = 1,964.52 -> 1,965
  await t.cronAt(Date.UTC(2026, 3, 18))
  await t.ok(await t.subscribe(globex, { quantity: 3 }))
  const change = await t.invoice(globex, (await t.current(globex)).latest_invoice_id!)
  expect(change.lines.map((l) => l.amount)).toEqual([-655, 1965])
  // From the anchor on, whole months: 25 April -> 25 May, 3 × 29.00.
  await t.cronAt(Date.UTC(2026, 3, 25))
  const renewed = await t.current(globex)
  expect(renewed).toMatchObject({ current_period_start: iso(Date.UTC(2026, 3, 25)), current_period_end: iso(Date.UTC(2026, 4, 25)) })
  expect((await t.invoice(globex, renewed.latest_invoice_id!)).total).toBe(8700)
})
