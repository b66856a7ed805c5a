// Subscriptions under concurrent requests over two instances (manual provider, send_invoice): one
// current subscription per organization (its partial unique index), changes, cancels and resumes one
// after the other (the current row's lock), a change's credit racing transfers of the invoice it credits
// (the subscription's lock, then the invoices'), and the cron tasks run by both instances at once.
import { describe, expect, test } from 'bun:test'
import { billingCluster, count, type Invoice, SLOW_MS, statusesIn, type Subscription, TEST_ENGINE, WRITERS } from './billing-cluster.ts'

const c = await billingCluster()
const PRICE = 2900
await c.ok(
  await c.operator('PUT', '/api/v1/operator/plans/starter', { prices: [{ currency: 'usd', interval: 'month', unit_amount: PRICE }] }),
)
const subscribe = (body: Record<string, unknown>) => c.owner('POST', '/api/v1/billing/subscription', body)
const current = async () => c.ok<Subscription>(await c.owner('GET', '/api/v1/billing/subscription'))
const invoicesOf = async (subscriptionId: string) =>
  (await c.ok<{ invoices: Invoice[] }>(await c.owner('GET', `/api/v1/billing/invoices?subscription_id=${subscriptionId}&page_size=100`)))
    .invoices
const byNumber = (a: Invoice, b: Invoice) => (a.number ?? '').localeCompare(b.number ?? '')

describe(`subscriptions at once (${TEST_ENGINE}, ${c.instances.length} instance(s))`, () => {
  test(
    'subscribed by 16 requests at once: one subscription (201), the others find it (200), one first invoice',
    async () => {
      const statuses = statusesIn(await c.many(WRITERS, () => subscribe({ plan: 'starter' })), [200, 201])
      expect([count(statuses, 201), count(statuses, 200)]).toEqual([1, WRITERS - 1])
      const invoices = await invoicesOf((await current()).id)
      expect(invoices.map((i) => i.billing_reason)).toEqual(['subscription_create'])
      expect(await c.eventTypes('subscription.')).toEqual(['subscription.created'])
    },
    SLOW_MS,
  )

  test(
    '16 changes of seats at once: each credits what the one before it billed, nothing credited twice',
    async () => {
      const quantities = Array.from({ length: WRITERS }, (_, i) => i + 2)
      statusesIn(await c.many(WRITERS, (i) => subscribe({ quantity: quantities[i] })), [200])
      const sub = await current()
      const changes = (await invoicesOf(sub.id)).filter((i) => i.billing_reason === 'subscription_update').toSorted(byNumber)
      expect(changes).toHaveLength(WRITERS)
      // No time has passed: each change credits the whole period of the seats before and charges the new ones.
      let seats = 1
      for (const change of changes) {
        expect(change.lines.map((l) => [l.quantity, l.amount])).toEqual([
          [seats, -seats * PRICE],
          [change.lines[1]!.quantity, change.lines[1]!.quantity * PRICE],
        ])
        seats = change.lines[1]!.quantity
      }
      expect(sub.quantity).toBe(seats)
      expect(await c.creditBalance()).toBe(0)
      const owed = (await invoicesOf(sub.id)).reduce((sum, i) => sum + i.amount_remaining, 0)
      expect(owed).toBe(seats * PRICE)
    },
    SLOW_MS,
  )

  test(
    'canceled at period end by 16 requests at once, then resumed by 16: one event each',
    async () => {
      const before = (await c.eventTypes('subscription.')).length
      statusesIn(await c.many(WRITERS, () => c.owner('POST', '/api/v1/billing/subscription/cancel', { at_period_end: true })), [200])
      expect((await current()).cancel_at_period_end).toBe(true)
      const resumes = statusesIn(await c.many(WRITERS, () => c.owner('POST', '/api/v1/billing/subscription/resume', {})), [200, 409])
      expect(count(resumes, 200)).toBe(1)
      expect((await current()).cancel_at_period_end).toBe(false)
      expect((await c.eventTypes('subscription.')).slice(before)).toEqual(['subscription.updated', 'subscription.updated'])
    },
    SLOW_MS,
  )

  test(
    'a downgrade among 15 transfers of the whole invoice it credits: paid then credited, or credited then refused',
    async () => {
      for (const at of [0, 5, 15]) {
        await c.ok(await c.owner('POST', '/api/v1/billing/subscription/cancel', { at_period_end: false }))
        const balance = await c.creditBalance()
        const sub = await c.ok<Subscription>(await subscribe({ plan: 'starter', quantity: 10_000 }), 201)
        const first = await c.invoice(sub.latest_invoice_id!)
        const responses = await c.many(WRITERS, (i) =>
          i === at
            ? subscribe({ quantity: 1 })
            : c.operator('POST', `/api/v1/operator/invoices/${first.id}/payments`, { amount: first.amount_remaining, reference: `W${i}` }),
        )
        expect(statusesIn([responses[at]!], [200])).toEqual([200])
        const paid = count(statusesIn(responses.toSpliced(at, 1), [201, 400, 409]), 201)
        expect(paid).toBeLessThanOrEqual(1)
        const after = await c.invoice(first.id)
        expect(after).toMatchObject(paid === 1 ? { status: 'paid', amount_paid: first.amount_due, amount_credited: 0 } : { amount_paid: 0 })
        expect(after.amount_remaining).toBeGreaterThanOrEqual(0)
        // The change's credit (the whole period of 9,999 seats) went to the invoice or, for time paid, to the balance: once.
        expect(after.amount_credited + (await c.creditBalance()) - (balance - first.applied_balance)).toBe(9_999 * PRICE)
      }
    },
    SLOW_MS,
  )

  test(
    'the renewal task run 16 times at once over both instances: the period renewed and invoiced once',
    async () => {
      const sub = await current()
      const end = Date.parse(sub.current_period_end)
      await c.cron('billing_renewals', end + 1)
      const renewed = await current()
      expect(Date.parse(renewed.current_period_start)).toBe(end)
      const cycles = (await invoicesOf(sub.id)).filter((i) => i.billing_reason === 'subscription_cycle')
      expect(cycles.map((i) => i.period_start)).toEqual([sub.current_period_end])
    },
    SLOW_MS,
  )

  test(
    'the dunning task run 16 times at once over both instances: each overdue invoice counts one failed attempt',
    async () => {
      const all = await c.ok<{ invoices: Invoice[] }>(await c.owner('GET', '/api/v1/billing/invoices?status=open&page_size=100'))
      const due = all.invoices.filter((i) => i.next_payment_attempt !== null)
      const latest = Math.max(...due.map((i) => Date.parse(i.next_payment_attempt!)))
      await c.cron('billing_dunning', latest + 1)
      for (const invoice of due) expect((await c.invoice(invoice.id)).attempt_count).toBe(1)
      expect((await c.eventTypes('invoice.failed')).length).toBe(due.length)
    },
    SLOW_MS,
  )
})
