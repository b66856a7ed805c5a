// Charged automatically through a fake Stripe on loopback: a subscription paid at once (active), a
// declined first payment (incomplete, then incomplete_expired after BILLING_INCOMPLETE_EXPIRY with its
// invoice voided, or canceled), dunning (a declined renewal: past_due, retried on the schedule, a new
// card makes the next retry succeed: active), retries exhausted (canceled, or unpaid per the account,
// the organization back on Free), and trials ending with a card (active) or without (paused, resumed).
import { afterAll, describe, expect, test } from 'bun:test'
import { seedOrganization } from '../../../helpers/seed.ts'
import { startStripeServer } from '../../../helpers/stripe-server.ts'
import { DAY, expectError, iso, type Subscription, subscriptionsApp } from './subscriptions-api.ts'

const HOUR = 3_600_000
const stripe = await startStripeServer()
afterAll(() => stripe.close())
const t = await subscriptionsApp({ settings: { ...stripe.settings, BILLING_RETRY_SCHEDULE: '1d,3d,5d' } })
const { app, acme, globex } = t
const initech = await seedOrganization(app, 'initech')
await t.setPrices('starter', [{ currency: 'usd', interval: 'month', unit_amount: 2900 }])
await t.setPrices('professional', [{ currency: 'usd', interval: 'month', unit_amount: 9900 }])

// The fake Stripe attaches each test card to one customer only: each organization uses its own cards.
const charges = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')

describe('the first invoice charged at once', () => {
  test('a good card: active in the answer, the invoice paid, the plan in force', async () => {
    const before = charges().length
    const response = await t.subscribe(acme, { plan: 'starter', default_payment_method_id: 'pm_card_visa' })
    const sub = await t.ok<Subscription>(response, 201)
    expect(sub).toMatchObject({ status: 'active', collection_method: 'charge_automatically', entitlements: { plan: 'starter' } })
    expect(await t.invoice(acme, sub.latest_invoice_id!)).toMatchObject({
      status: 'paid',
      amount_paid: 2900,
      billing_reason: 'subscription_create',
    })
    expect(charges().length).toBe(before + 1)
    const events = await t.subscriptionEvents(acme)
    expect(events.map((e) => [e.type, e.data.subscription.status])).toEqual([
      ['subscription.created', 'incomplete'],
      ['subscription.updated', 'active'],
    ])
  })

  test('a declined card: incomplete (on Free), changes refused; expired after 23 hours, its invoice voided', async () => {
    const created = app.clock.now()
    const sub = await t.ok<Subscription>(
      await t.subscribe(globex, { plan: 'professional', default_payment_method_id: 'pm_card_chargeDeclinedExpiredCard' }),
      201,
    )
    expect(sub).toMatchObject({ status: 'incomplete', entitlements: { plan: 'free', rate_limit_per_minute: 60 } })
    expect(await t.invoice(globex, sub.latest_invoice_id!)).toMatchObject({ status: 'open', attempt_count: 1 })
    await expectError(await t.subscribe(globex, { quantity: 2 }), 409, 'INVALID_STATE_TRANSITION')
    const atPeriodEnd = await expectError(await t.cancel(globex, { at_period_end: true }), 409, 'INVALID_STATE_TRANSITION')
    expect(atPeriodEnd.message).toStartWith('An incomplete subscription cannot become canceled at period end: ')
    await expectError(await t.resume(globex), 409, 'INVALID_STATE_TRANSITION')
    await t.cronAt(created + 23 * HOUR - 60_000)
    expect((await t.current(globex)).status).toBe('incomplete')
    await t.cronAt(created + 23 * HOUR)
    await expectError(await t.getSub(globex), 404, 'NOT_FOUND')
    const last = (await t.subscriptionEvents(globex)).at(-1)!
    expect(last.type).toBe('subscription.updated')
    expect(last.data.subscription).toMatchObject({
      id: sub.id,
      status: 'incomplete_expired',
      ended_at: iso(created + 23 * HOUR),
      cancellation_reason: 'incomplete_expired',
    })
    expect((await t.invoice(globex, sub.latest_invoice_id!)).status).toBe('void')
  })

  test('incomplete -> canceled: canceled now, its first invoice voided', async () => {
    const sub = await t.ok<Subscription>(
      await t.subscribe(globex, { plan: 'starter', default_payment_method_id: 'pm_card_chargeDeclinedExpiredCard' }),
      201,
    )
    expect(sub.status).toBe('incomplete')
    const canceled = await t.ok<Subscription>(await t.cancel(globex, { at_period_end: false }))
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'requested', entitlements: { plan: 'free' } })
    expect((await t.invoice(globex, sub.latest_invoice_id!)).status).toBe('void')
  })
})

describe('dunning', () => {
  test('a declined renewal: past_due (plan kept), retried on the schedule; a new card makes the next retry succeed: active', async () => {
    await t.ok(await t.subscribe(acme, { default_payment_method_id: 'pm_card_chargeDeclined' }))
    const sub = await t.current(acme)
    const end = Date.parse(sub.current_period_end)
    await t.cronAt(end)
    const pastDue = await t.current(acme)
    expect(pastDue).toMatchObject({ status: 'past_due', past_due_since: iso(end), entitlements: { plan: 'starter' } })
    const renewal = pastDue.latest_invoice_id!
    expect(await t.invoice(acme, renewal)).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'open',
      attempt_count: 1,
      next_payment_attempt: iso(end + DAY),
    })
    // Nothing is retried before the schedule says so.
    const tried = charges().length
    await t.cronAt(end + DAY - 60_000)
    expect(charges().length).toBe(tried)
    await t.cronAt(end + DAY)
    expect(charges().length).toBe(tried + 1)
    expect(await t.invoice(acme, renewal)).toMatchObject({ attempt_count: 2, next_payment_attempt: iso(end + 3 * DAY) })
    expect((await t.current(acme)).status).toBe('past_due')
    // A new card; the next retry (3 days after the first failure) succeeds.
    await t.ok(await t.subscribe(acme, { default_payment_method_id: 'pm_card_visa' }))
    await t.cronAt(end + 3 * DAY)
    expect(await t.invoice(acme, renewal)).toMatchObject({
      status: 'paid',
      attempt_count: 2,
      amount_paid: 2900,
      next_payment_attempt: null,
    })
    expect(await t.current(acme)).toMatchObject({ status: 'active', past_due_since: null, entitlements: { plan: 'starter' } })
    const types = (await t.subscriptionEvents(acme)).slice(-3).map((e) => [e.type, e.data.subscription.status])
    expect(types).toEqual([
      ['subscription.updated', 'past_due'],
      ['subscription.updated', 'past_due'],
      ['subscription.updated', 'active'],
    ])
  })

  test('retries exhausted: canceled (the default), the organization back on Free', async () => {
    await t.ok(await t.subscribe(acme, { default_payment_method_id: 'pm_card_chargeDeclined' }))
    const end = Date.parse((await t.current(acme)).current_period_end)
    for (const at of [end, end + DAY, end + 3 * DAY]) {
      await t.cronAt(at)
      expect((await t.current(acme)).status).toBe('past_due')
    }
    await t.cronAt(end + 5 * DAY)
    await expectError(await t.getSub(acme), 404, 'NOT_FOUND')
    const last = (await t.subscriptionEvents(acme)).at(-1)!
    expect(last.type).toBe('subscription.canceled')
    expect(last.data.subscription).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'payment_failed',
      ended_at: iso(end + 5 * DAY),
      entitlements: { plan: 'free', rate_limit_per_minute: 60, rate_limit_per_day: 1000 },
    })
  })

  test('retries exhausted: unpaid when the account says so; paying the invoice by card makes it active', async () => {
    await t.setRetriesExhausted(initech, 'unpaid')
    await t.ok(await t.subscribe(initech, { plan: 'professional', default_payment_method_id: 'pm_card_mastercard' }), 201)
    await t.ok(await t.subscribe(initech, { default_payment_method_id: 'pm_card_insufficientFunds' }))
    const end = Date.parse((await t.current(initech)).current_period_end)
    for (const at of [end, end + DAY, end + 3 * DAY, end + 5 * DAY]) await t.cronAt(at)
    const unpaid = await t.current(initech)
    expect(unpaid).toMatchObject({ status: 'unpaid', ended_at: null, entitlements: { plan: 'free' } })
    const pay = await t.send(initech, 'POST', `/api/v1/billing/invoices/${unpaid.latest_invoice_id}/pay`, {
      payment_method_id: 'pm_card_mastercard',
    })
    expect(pay.status).toBe(200)
    expect(await t.current(initech)).toMatchObject({ status: 'active', entitlements: { plan: 'professional' } })
    await t.ok(await t.cancel(initech, { at_period_end: false }))
  })
})

describe('trials charged automatically', () => {
  test('with a card: the trial end charges the first period; active', async () => {
    const start = app.clock.now()
    const sub = await t.ok<Subscription>(
      await t.subscribe(acme, { plan: 'starter', trial_days: 7, default_payment_method_id: 'pm_card_visa' }),
      201,
    )
    expect(sub).toMatchObject({ status: 'trialing', latest_invoice_id: null, entitlements: { plan: 'starter' } })
    await t.cronAt(start + 7 * DAY)
    const active = await t.current(acme)
    expect(active).toMatchObject({ status: 'active', current_period_start: iso(start + 7 * DAY) })
    expect(await t.invoice(acme, active.latest_invoice_id!)).toMatchObject({
      status: 'paid',
      amount_paid: 2900,
      billing_reason: 'subscription_cycle',
    })
    await t.ok(await t.cancel(acme, { at_period_end: false }))
  })

  test('without a card: paused at the trial end (on Free); resume needs a card, then a new period from now, charged', async () => {
    const start = app.clock.now()
    await t.ok(await t.subscribe(acme, { plan: 'professional', trial_days: 14 }), 201)
    await t.cronAt(start + 14 * DAY)
    const paused = await t.current(acme)
    expect(paused).toMatchObject({ status: 'paused', latest_invoice_id: null, entitlements: { plan: 'free' } })
    await expectError(await t.subscribe(acme, { quantity: 2 }), 409, 'INVALID_STATE_TRANSITION')
    await expectError(await t.cancel(acme), 409, 'INVALID_STATE_TRANSITION')
    await expectError(await t.resume(acme), 400, 'VALIDATION_FAILED', 'default_payment_method_id')
    app.clock.advance(2 * DAY)
    const resumedAt = app.clock.now()
    const resumed = await t.ok<Subscription>(await t.resume(acme, { default_payment_method_id: 'pm_card_visa' }))
    expect(resumed).toMatchObject({
      status: 'active',
      current_period_start: iso(resumedAt),
      billing_cycle_anchor: iso(resumedAt),
      default_payment_method_id: 'pm_card_visa',
      entitlements: { plan: 'professional' },
    })
    expect(await t.invoice(acme, resumed.latest_invoice_id!)).toMatchObject({ status: 'paid', total: 9900, period_start: iso(resumedAt) })
    // paused -> canceled is allowed too (another one paused).
    await t.ok(await t.cancel(acme, { at_period_end: false }))
    await t.ok(await t.subscribe(acme, { plan: 'starter', trial_days: 1 }), 201)
    await t.cronAt(app.clock.now() + DAY)
    expect((await t.current(acme)).status).toBe('paused')
    expect(await t.ok<Subscription>(await t.cancel(acme, { at_period_end: false }))).toMatchObject({ status: 'canceled' })
  })
})
