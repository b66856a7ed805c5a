// The subscription lifecycle through the API and the cron loop with the manual provider (send_invoice):
// subscribing, the fields refused, every transition the table allows and every one it refuses,
// cancellation at period end and now, resume, an overdue invoice making it past_due and the retries
// exhausted ending it (canceled or unpaid per the account), the permissions, and the events.
import { describe, expect, test } from 'bun:test'
import { assertSubscriptionTransition, canMove, SUBSCRIPTION_TRANSITIONS } from '../../../../src/modules/billing/subscriptions/lifecycle.ts'
import { periodEnd } from '../../../../src/modules/billing/money.ts'
import { SUBSCRIPTION_STATUSES } from '../../../../src/modules/billing/table.ts'
import { json } from '../../../helpers/app.ts'
import { ALLOWED, DAY, expectError, type Invoice, iso, type Subscription, subscriptionsApp } from './subscriptions-api.ts'

const t = await subscriptionsApp({ settings: { BILLING_RETRY_SCHEDULE: '1d,3d' } })
const { app, acme, globex } = t
await t.setPrices('starter', [
  { currency: 'usd', interval: 'month', unit_amount: 2900 },
  { currency: 'usd', interval: 'year', unit_amount: 29000 },
  { currency: 'eur', interval: 'month', unit_amount: 2700 },
])
await t.setPrices('professional', [{ currency: 'usd', interval: 'month', unit_amount: 9900 }])

describe('the table', () => {
  test('every move the research lists is allowed, every other refused with 409 naming both states', () => {
    expect(SUBSCRIPTION_TRANSITIONS).toEqual(ALLOWED as never)
    for (const from of SUBSCRIPTION_STATUSES)
      for (const to of SUBSCRIPTION_STATUSES) {
        expect(canMove(from, to)).toBe(ALLOWED[from]!.includes(to))
        if (ALLOWED[from]!.includes(to)) continue
        let error: { code?: string; message: string } | undefined
        try {
          assertSubscriptionTransition(from, to)
        } catch (e) {
          error = e as { code: string; message: string }
        }
        expect(error?.code).toBe('INVALID_STATE_TRANSITION')
        expect(error?.message).toContain(from)
        expect(error?.message).toContain(to)
      }
  })
})

describe('reading and permissions', () => {
  test('no subscription: 404 saying the organization is on Free', async () => {
    const body = await expectError(await t.getSub(acme), 404, 'NOT_FOUND')
    expect(body.message).toContain('Free')
  })

  test('admin reads but cannot change (403); viewer, agent and supervisor cannot read', async () => {
    await expectError(await t.send(acme, 'GET', '/api/v1/billing/subscription', undefined, 'admin'), 404, 'NOT_FOUND')
    await expectError(
      await t.send(acme, 'POST', '/api/v1/billing/subscription', { plan: 'starter' }, 'admin'),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(await t.send(acme, 'POST', '/api/v1/billing/subscription/cancel', {}, 'admin'), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await t.send(acme, 'POST', '/api/v1/billing/subscription/resume', {}, 'admin'), 403, 'INSUFFICIENT_PERMISSIONS')
    for (const role of ['viewer', 'agent', 'supervisor'] as const) {
      await expectError(await t.send(acme, 'GET', '/api/v1/billing/subscription', undefined, role), 403, 'INSUFFICIENT_PERMISSIONS')
      await expectError(
        await t.send(acme, 'POST', '/api/v1/billing/subscription', { plan: 'starter' }, role),
        403,
        'INSUFFICIENT_PERMISSIONS',
      )
    }
  })
})

describe('the fields of a new subscription', () => {
  test('each bad field is a 400 naming it', async () => {
    const now = app.clock.now()
    const cases: [Record<string, unknown>, string, string?][] = [
      [{}, 'plan'],
      [{ plan: 'free' }, 'plan', 'cancel the subscription'],
      [{ plan: 'professional', interval: 'year' }, 'plan', 'professional'],
      [{ plan: 'starter' }, 'plan', 'usd per month, usd per year, eur per month'],
      [{ plan: 'starter', currency: 'usd', collection_method: 'charge_automatically' }, 'collection_method', 'stripe'],
      [{ plan: 'starter', currency: 'xyz' }, 'currency'],
      [{ plan: 'starter', currency: 'usd', billing_cycle_anchor: iso(now - 1000) }, 'billing_cycle_anchor'],
      [{ plan: 'starter', currency: 'usd', billing_cycle_anchor: iso(now + 32 * DAY) }, 'billing_cycle_anchor'],
      [{ plan: 'starter', currency: 'usd', trial_days: 7, billing_cycle_anchor: iso(now + DAY) }, 'billing_cycle_anchor'],
      [{ plan: 'starter', price_id: 'price_nope' }, 'price_id'],
      [{ plan: 'starter', currency: 'usd', quantity: 0 }, 'quantity'],
      [{ plan: 'starter', currency: 'usd', quantity: 10_001 }, 'quantity'],
      [{ plan: 'starter', currency: 'usd', trial_days: 731 }, 'trial_days'],
      [{ plan: 'starter', currency: 'usd', default_payment_method_id: 'card_1' }, 'default_payment_method_id'],
    ]
    for (const [body, field, text] of cases) {
      const error = await expectError(await t.subscribe(globex, body), 400, 'VALIDATION_FAILED')
      const said = `${error.message} ${error.errors?.map((e) => `${e.field}: ${e.message}`).join('; ')}`
      expect(said).toContain(field)
      if (text) expect(said).toContain(text)
    }
    await expectError(await t.getSub(globex), 404, 'NOT_FOUND')
  })
})

describe('send_invoice (the manual provider)', () => {
  let sub: Subscription

  test('subscribing: 201, active at once, the first invoice open until its due date; the plan follows', async () => {
    const now = app.clock.now()
    const response = await t.subscribe(acme, { plan: 'starter', currency: 'USD', quantity: 2, metadata: { po: '42' } })
    sub = await t.ok<Subscription>(response, 201)
    expect(sub).toMatchObject({
      organization_id: acme.org.id,
      plan: 'starter',
      currency: 'usd',
      interval: 'month',
      unit_amount: 2900,
      quantity: 2,
      status: 'active',
      collection_method: 'send_invoice',
      current_period_start: iso(now),
      current_period_end: iso(Date.UTC(2026, 1, 1, 12)),
      billing_cycle_anchor: iso(now),
      cancel_at_period_end: false,
      entitlements: { plan: 'starter', rate_limit_per_minute: 300, rate_limit_per_day: 10000 },
      metadata: { po: '42' },
    })
    const invoice = await t.invoice(acme, sub.latest_invoice_id!)
    expect(invoice).toMatchObject({
      number: 'INV-000001',
      status: 'open',
      billing_reason: 'subscription_create',
      collection_method: 'send_invoice',
      total: 5800,
      amount_due: 5800,
      period_start: iso(now),
      period_end: sub.current_period_end,
      due_date: iso(now + 30 * DAY),
    })
    expect(invoice.lines).toMatchObject([{ kind: 'subscription', quantity: 2, unit_amount: 2900, amount: 5800, plan: 'starter' }])
    expect(await t.current(acme)).toEqual(sub)
    const events = await t.subscriptionEvents(acme)
    expect(events.map((e) => e.type)).toEqual(['subscription.created'])
    expect(events[0]!.data.subscription).toEqual(sub)
  })

  test('a second POST changes the subscription (200), never makes a second one', async () => {
    const response = await t.subscribe(acme, { metadata: { po: '', cost_center: 'ops' } })
    const changed = await t.ok<Subscription>(response)
    expect(changed).toMatchObject({ id: sub.id, metadata: { cost_center: 'ops' }, latest_invoice_id: sub.latest_invoice_id })
    await expectError(await t.subscribe(acme, { plan: 'starter', currency: 'eur' }), 400, 'VALIDATION_FAILED', 'currency')
    await expectError(await t.subscribe(acme, { trial_days: 3 }), 400, 'VALIDATION_FAILED', 'trial_days')
    // Nothing changed: no event.
    await t.ok(await t.subscribe(acme, { plan: 'starter' }))
    expect((await t.subscriptionEvents(acme)).map((e) => e.type)).toEqual(['subscription.created', 'subscription.updated'])
    sub = changed
  })

  test('cancel at period end, resume undoes it, resume again is 409', async () => {
    const canceling = await t.ok<Subscription>(await t.cancel(acme))
    expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true, canceled_at: iso(app.clock.now()), ended_at: null })
    // Asked twice: the same, no second event.
    expect(await t.ok<Subscription>(await t.cancel(acme, { at_period_end: true }))).toEqual(canceling)
    const resumed = await t.ok<Subscription>(await t.resume(acme))
    expect(resumed).toMatchObject({ status: 'active', cancel_at_period_end: false, canceled_at: null })
    const error = await expectError(await t.resume(acme), 409, 'INVALID_STATE_TRANSITION')
    expect(error.message).toContain('active')
    const types = (await t.subscriptionEvents(acme)).map((e) => e.type)
    expect(types.slice(-2)).toEqual(['subscription.updated', 'subscription.updated'])
  })

  test('unpaid past its due date: past_due (the plan kept), then the retries exhausted: canceled, back to Free', async () => {
    const invoice = await t.invoice(acme, sub.latest_invoice_id!)
    const due = Date.parse(invoice.due_date!)
    await t.cronAt(due - 60_000)
    expect((await t.current(acme)).status).toBe('active')
    await t.cronAt(due)
    const pastDue = await t.current(acme)
    expect(pastDue).toMatchObject({ status: 'past_due', past_due_since: iso(due), entitlements: { plan: 'starter' } })
    expect(await t.invoice(acme, invoice.id)).toMatchObject({ status: 'open', attempt_count: 1, next_payment_attempt: iso(due + DAY) })
    // The period ended meanwhile: a past_due subscription still renews (its invoices pile up as Stripe's).
    expect(Date.parse(pastDue.current_period_end)).toBeGreaterThan(due)
    await t.cronAt(due + DAY)
    expect(await t.invoice(acme, invoice.id)).toMatchObject({ attempt_count: 2, next_payment_attempt: iso(due + 3 * DAY) })
    expect((await t.current(acme)).status).toBe('past_due')
    await t.cronAt(due + 3 * DAY)
    expect(await t.invoice(acme, invoice.id)).toMatchObject({ status: 'open', attempt_count: 3, next_payment_attempt: null })
    await expectError(await t.getSub(acme), 404, 'NOT_FOUND')
    const events = await t.subscriptionEvents(acme)
    const last = events.at(-1)!
    expect(last.type).toBe('subscription.canceled')
    expect(last.data.subscription).toMatchObject({
      id: sub.id,
      status: 'canceled',
      cancellation_reason: 'payment_failed',
      ended_at: iso(due + 3 * DAY),
      entitlements: { plan: 'free', rate_limit_per_minute: 60, rate_limit_per_day: 1000 },
    })
    // Another POST subscribes again: a new subscription.
    const again = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd' }), 201)
    expect(again.id).not.toBe(sub.id)
    expect((await t.invoice(acme, again.latest_invoice_id!)).number).toMatch(/^INV-0000\d\d$/)
    await t.ok(await t.cancel(acme, { at_period_end: false }))
  })

  test('unpaid per the account: kept on Free; paying the latest invoice makes it active on a new cycle', async () => {
    await t.setRetriesExhausted(globex, 'unpaid')
    const sub = await t.ok<Subscription>(await t.subscribe(globex, { plan: 'professional', currency: 'usd' }), 201)
    const due = Date.parse((await t.invoice(globex, sub.latest_invoice_id!)).due_date!)
    for (const at of [due, due + DAY, due + 3 * DAY]) await t.cronAt(at)
    const unpaid = await t.current(globex)
    expect(unpaid).toMatchObject({ status: 'unpaid', ended_at: null, entitlements: { plan: 'free' } })
    // Changing the plan of an unpaid subscription is refused; its payment method or metadata is not.
    const refused = await expectError(await t.subscribe(globex, { quantity: 3 }), 409, 'INVALID_STATE_TRANSITION')
    expect(refused.message).toContain('unpaid')
    await expectError(await t.cancel(globex), 409, 'INVALID_STATE_TRANSITION')
    await t.ok(await t.subscribe(globex, { metadata: { note: 'late payer' } }))
    // An unpaid subscription is not renewed: its period ends and stays ended.
    const ended = Date.parse(unpaid.current_period_end)
    await t.cronAt(ended + DAY)
    expect(await t.current(globex)).toMatchObject({
      status: 'unpaid',
      current_period_end: unpaid.current_period_end,
      latest_invoice_id: unpaid.latest_invoice_id,
    })
    // Its latest invoice (the renewal made while it was past_due) paid by transfer: active, a new cycle from now.
    const latest = await t.invoice(globex, unpaid.latest_invoice_id!)
    expect(latest.billing_reason).toBe('subscription_cycle')
    await t.transfer(latest.id, latest.amount_remaining)
    const active = await t.current(globex)
    const paidAt = app.clock.now()
    expect(active).toMatchObject({
      status: 'active',
      past_due_since: null,
      billing_cycle_anchor: iso(paidAt),
      entitlements: { plan: 'professional' },
    })
    await t.cronAt(paidAt + 60_000)
    const renewed = await t.current(globex)
    expect(renewed).toMatchObject({
      status: 'active',
      current_period_start: iso(paidAt),
      current_period_end: iso(periodEnd(paidAt, 'month', 1)),
    })
    const invoice: Invoice = await t.invoice(globex, renewed.latest_invoice_id!)
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', period_start: iso(paidAt), total: 9900 })
    // Canceled now: unpaid -> canceled is allowed too.
    expect(await t.ok<Subscription>(await t.cancel(globex, { at_period_end: false }))).toMatchObject({ status: 'canceled' })
    await t.setRetriesExhausted(globex, 'canceled')
  })
})

describe('trials', () => {
  test('trialing, no invoice; the trial end invoices the first period (send_invoice: active)', async () => {
    const start = app.clock.now()
    const sub = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd', trial_days: 14 }), 201)
    expect(sub).toMatchObject({
      status: 'trialing',
      trial_start: iso(start),
      trial_end: iso(start + 14 * DAY),
      current_period_end: iso(start + 14 * DAY),
      billing_cycle_anchor: iso(start + 14 * DAY),
      latest_invoice_id: null,
      entitlements: { plan: 'starter' },
    })
    // During the trial the plan swaps without proration.
    const swapped = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'professional' }))
    expect(swapped).toMatchObject({
      status: 'trialing',
      plan: 'professional',
      latest_invoice_id: null,
      entitlements: { plan: 'professional' },
    })
    await t.cronAt(start + 14 * DAY)
    const active = await t.current(acme)
    expect(active).toMatchObject({
      status: 'active',
      current_period_start: iso(start + 14 * DAY),
      current_period_end: iso(periodEnd(start + 14 * DAY, 'month', 1)),
    })
    const invoice = await t.invoice(acme, active.latest_invoice_id!)
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'open',
      total: 9900,
      period_start: iso(start + 14 * DAY),
    })
    expect(await t.ok<Subscription>(await t.cancel(acme, { at_period_end: false }))).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'requested',
    })
  })

  test('a trial canceled at period end ends at the trial end without an invoice', async () => {
    const start = app.clock.now()
    const sub = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd', trial_days: 3 }), 201)
    await t.ok(await t.cancel(acme))
    await t.cronAt(start + 3 * DAY)
    await expectError(await t.getSub(acme), 404, 'NOT_FOUND')
    const last = (await t.subscriptionEvents(acme)).at(-1)!
    expect(last.type).toBe('subscription.canceled')
    expect(last.data.subscription).toMatchObject({
      id: sub.id,
      status: 'canceled',
      ended_at: iso(start + 3 * DAY),
      latest_invoice_id: null,
    })
  })
})

test('another organization never sees it: each organization has its own current subscription', async () => {
  const mine = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', currency: 'usd' }), 201)
  await expectError(await t.getSub(globex), 404, 'NOT_FOUND')
  const response = await t.send(globex, 'GET', `/api/v1/billing/invoices/${mine.latest_invoice_id}`)
  expect(response.status).toBe(404)
  expect((await json<Subscription>(await t.getSub(acme))).id).toBe(mine.id)
})
