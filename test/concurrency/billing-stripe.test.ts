// Card payments through Stripe (the fake Stripe server) under concurrent requests over two instances:
// one invoice paid by many requests at once (its row lock: one claim, one charge), Stripe's events of one
// PaymentIntent delivered at once (the payment's row lock; stripe_events for a replayed event id), and
// the incomplete-expiry task run by both instances at once (the subscription's row lock).
import { afterAll, describe, expect, test } from 'bun:test'
import { signedStripeEvent, startStripeServer, stripeEvent } from '../helpers/stripe-server.ts'
import { billingCluster, count, type Payment, SLOW_MS, statusesIn, type Subscription, TEST_ENGINE, WRITERS } from './billing-cluster.ts'

const stripe = await startStripeServer()
afterAll(() => stripe.close())
const c = await billingCluster(stripe.settings)
const pay = (invoiceId: string, card = 'pm_card_visa') =>
  c.owner('POST', `/api/v1/billing/invoices/${invoiceId}/pay`, { payment_method_id: card })
const chargesOf = (invoiceId: string) =>
  stripe.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/payment_intents' &&
      !r.replayed &&
      (r.body.metadata as Record<string, string>)?.switchboard_invoice_id === invoiceId,
  )
const paymentsOf = async (invoiceId: string) =>
  (await c.ok<{ payments: Payment[] }>(await c.owner('GET', `/api/v1/billing/payments?invoice_id=${invoiceId}`))).payments

/** An invoice whose charge reached Stripe but whose answer was lost: its payment stays processing; Stripe's PaymentIntent. */
async function chargedWithoutAnswer(amount: number) {
  const invoice = await c.open(amount)
  stripe.loseAnswers(1)
  expect((await pay(invoice.id)).status).toBe(202)
  const [intent] = [...stripe.paymentIntents.values()].filter(
    (pi) => (pi.metadata as Record<string, string>).switchboard_invoice_id === invoice.id,
  )
  return { invoice, intent: intent! }
}

/** The same signed event (or one per request, `sameId` false) delivered by `WRITERS` requests at once; their results. */
async function deliver(type: string, object: Record<string, unknown>, sameId: boolean): Promise<string[]> {
  const shared = stripeEvent(type, object)
  const responses = await c.many(WRITERS, (i) => {
    const instance = c.instances[i % c.instances.length]!
    const { body, headers } = signedStripeEvent(sameId ? shared : stripeEvent(type, object), stripe.settings.STRIPE_WEBHOOK_SECRET, {
      at: instance.clock.now(),
    })
    return instance.request('/api/v1/integrations/stripe/webhook', { method: 'POST', headers, body })
  })
  statusesIn(responses, [200])
  return Promise.all(responses.map(async (r) => ((await r.json()) as { result: string }).result))
}

describe(`Stripe at once (${TEST_ENGINE}, ${c.instances.length} instance(s))`, () => {
  test(
    'one invoice paid by card from 16 requests at once: one charge at Stripe, one payment, the others 409',
    async () => {
      for (let round = 0; round < 3; round++) {
        const invoice = await c.open(4200)
        const statuses = statusesIn(await c.many(WRITERS, () => pay(invoice.id)), [200, 409])
        expect(count(statuses, 200)).toBe(1)
        expect(chargesOf(invoice.id)).toHaveLength(1)
        expect((await paymentsOf(invoice.id)).map((p) => [p.status, p.amount])).toEqual([['succeeded', 4200]])
        expect(await c.invoice(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 4200 })
        expect(await c.creditBalance()).toBe(0)
      }
    },
    SLOW_MS,
  )

  test(
    "16 of Stripe's events for one PaymentIntent at once: applied once, the invoice paid once, nothing credited",
    async () => {
      const { invoice, intent } = await chargedWithoutAnswer(3000)
      const results = await deliver('payment_intent.succeeded', { ...intent, status: 'succeeded' }, false)
      expect([count(results, 'applied'), count(results, 'unchanged')]).toEqual([1, WRITERS - 1])
      expect((await paymentsOf(invoice.id)).map((p) => p.status)).toEqual(['succeeded'])
      expect(await c.invoice(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 3000 })
      expect(await c.creditBalance()).toBe(0)
    },
    SLOW_MS,
  )

  test(
    'one event delivered by 16 requests at once: applied once, the others duplicate',
    async () => {
      const { invoice, intent } = await chargedWithoutAnswer(2000)
      const results = await deliver('payment_intent.succeeded', { ...intent, status: 'succeeded' }, true)
      expect(results.toSorted()).toEqual(['applied', ...Array(WRITERS - 1).fill('duplicate')])
      expect(await c.invoice(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 2000 })
    },
    SLOW_MS,
  )

  test(
    'the incomplete-expiry task run 16 times at once over both instances: the subscription expires once',
    async () => {
      await c.ok(
        await c.operator('PUT', '/api/v1/operator/plans/starter', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] }),
      )
      const body = { plan: 'starter', default_payment_method_id: 'pm_card_chargeDeclined' }
      const sub = await c.ok<Subscription>(await c.owner('POST', '/api/v1/billing/subscription', body), 201)
      expect(sub.status).toBe('incomplete')
      const before = (await c.eventTypes('subscription.')).length
      const runs = await c.cron(
        'billing_incomplete_expiry',
        Date.parse(sub.created_at) + c.instances[0]!.config.billing.incompleteExpiryMs + 1,
      )
      expect(runs.reduce((sum, run) => sum + Number((run as { expired?: number }).expired ?? 0), 0)).toBe(1)
      expect((await c.eventTypes('subscription.')).slice(before)).toEqual(['subscription.updated'])
      expect(await c.invoice(sub.latest_invoice_id!)).toMatchObject({ status: 'void' })
      expect((await c.owner('GET', '/api/v1/billing/subscription')).status).toBe(404)
    },
    SLOW_MS,
  )
})
