// Stripe's webhook endpoint: events signed as Stripe signs them (stripe.webhooks.generateTestHeaderString)
// are applied once — a PaymentIntent's outcome onto our payment exactly as our own collection would,
// a Stripe invoice's onto the invoice its metadata names — and a replay changes nothing; a forged,
// missing or stale signature is 400; other types are ignored; without Stripe the endpoint is 404.
import { expect, test } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { collectInvoice } from '../../../../src/modules/billing/payments/collect.ts'
import { json } from '../../../helpers/app.ts'
import { signedStripeEvent, stripeEvent } from '../../../helpers/stripe-server.ts'
import { accountOf } from '../invoices/invoices-api.ts'
import { eventTypes, expectError, type Payment, paymentsApp } from '../payments/payments-api.ts'

const PATH = '/api/v1/integrations/stripe/webhook'
const { app, acme, globex, invoices, pay, payment, stripe } = await paymentsApp({ stripe: true })
const server = stripe!
const secret = server.settings.STRIPE_WEBHOOK_SECRET
const owner = acme.users.super_admin.auth

type Json = Record<string, unknown>

function deliver(request: { body: string; headers: Record<string, string> }): Promise<Response> {
  return app.request(PATH, { method: 'POST', headers: request.headers, body: request.body })
}

/** An event signed now (the app's clock) with the endpoint's secret. */
function signed(event: Json, options: { secret?: string; at?: number } = {}) {
  return signedStripeEvent(event, options.secret ?? secret, { at: options.at ?? app.clock.now() })
}

async function result(response: Response): Promise<string> {
  expect(response.status).toBe(200)
  return (await json<{ received: boolean; result: string }>(response)).result
}

const stripeEventCount = async () => Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM stripe_events'))!.n)
const auditCount = async () => Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM audit_logs'))!.n)

/** A card payment whose answer was lost: Stripe charged (or declined), we are still processing. */
async function lostCharge(card: string, amount = 3000): Promise<{ payment: Payment; intent: Json }> {
  const invoice = await invoices.open(acme, amount)
  server.loseAnswers(1)
  const response = await pay(invoice.id, owner, { payment_method_id: card })
  expect(response.status).toBe(202)
  const processing = await json<Payment>(response)
  const intent = [...server.paymentIntents.values()].find((pi) => (pi.metadata as Json).switchboard_payment_id === processing.id)!
  return { payment: processing, intent }
}

test('payment_intent.succeeded settles the payment we never heard back about; a replay changes nothing', async () => {
  const { payment: processing, intent } = await lostCharge('pm_card_visa')
  const event = stripeEvent('payment_intent.succeeded', intent)
  const before = await eventTypes(app)
  expect(await result(await deliver(signed(event)))).toBe('applied')
  const settled = await payment(processing.id, owner)
  expect(settled.status).toBe('succeeded')
  expect(settled.provider_payment_id).toBe(intent.id as string)
  expect(settled.attempts.map((a) => a.outcome)).toEqual(['succeeded'])
  expect((await invoices.get(processing.invoice_id!)).status).toBe('paid')
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.succeeded', 'invoice.paid'])
  const actors = await app.context.db.raw.all<{ actor_type: string; actor_id: string }>(
    "SELECT actor_type, actor_id FROM audit_logs WHERE event = 'payment.succeeded' AND target_id = ?",
    [processing.id],
  )
  expect(actors).toEqual([{ actor_type: 'system', actor_id: 'stripe' }])

  // The same event again (Stripe retries until it hears 2xx): no second event, no second audit record.
  const [events, audits, handled] = [await eventTypes(app), await auditCount(), await stripeEventCount()]
  expect(await result(await deliver(signed(event)))).toBe('duplicate')
  expect(await eventTypes(app)).toEqual(events)
  expect(await auditCount()).toBe(audits)
  expect(await stripeEventCount()).toBe(handled)
  // Another event id with the same outcome: recorded, but the payment has moved on.
  expect(await result(await deliver(signed(stripeEvent('payment_intent.succeeded', intent))))).toBe('unchanged')
  expect(await eventTypes(app)).toEqual(events)
  // Our own collection, taking over later, finds nothing to do.
  app.clock.advance(11 * 60_000)
  expect(await collectInvoice(contextFor(app.context, { kind: 'system', id: 'cron' }), { invoiceId: processing.invoice_id! })).toBe(
    'skipped',
  )
})

test('payment_intent.payment_failed fails the attempt in flight as our collection would; an older attempt changes nothing', async () => {
  const { payment: processing, intent } = await lostCharge('pm_card_insufficientFunds')
  const before = await eventTypes(app)
  expect(await result(await deliver(signed(stripeEvent('payment_intent.payment_failed', intent))))).toBe('applied')
  const failed = await payment(processing.id, owner)
  expect(failed).toMatchObject({
    status: 'requires_payment_method',
    provider_payment_id: intent.id as string,
    last_error: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  })
  expect(failed.attempts.map((a) => a.outcome)).toEqual(['failed'])
  expect((await invoices.get(processing.invoice_id!)).attempt_count).toBe(1)
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.failed', 'invoice.failed'])

  // The second attempt is in flight (its answer lost too): the first attempt's event, delivered late, is not its outcome.
  server.loseAnswers(1)
  expect((await pay(processing.invoice_id!, owner, { payment_method_id: 'pm_card_visa' })).status).toBe(202)
  const late = stripeEvent('payment_intent.payment_failed', intent)
  expect(await result(await deliver(signed(late)))).toBe('unchanged')
  expect((await payment(processing.id, owner)).status).toBe('processing')
})

test('a forged, missing, stale or tampered signature is 400 and changes nothing', async () => {
  const { payment: processing, intent } = await lostCharge('pm_card_visa')
  const event = stripeEvent('payment_intent.succeeded', intent)
  const forged = signed(event, { secret: 'whsec_not_the_endpoints_secret' })
  const body = await expectError(await deliver(forged), 400, 'VALIDATION_FAILED', 'Stripe-Signature')
  expect(body.message).toBe('The Stripe signature does not verify')
  const unsigned = signed(event)
  await expectError(
    await deliver({ body: unsigned.body, headers: { 'content-type': 'application/json' } }),
    400,
    'VALIDATION_FAILED',
    'Stripe-Signature',
  )
  await expectError(await deliver(signed(event, { at: app.clock.now() - 301_000 })), 400, 'VALIDATION_FAILED', 'Stripe-Signature')
  const tampered = signed(event)
  await expectError(await deliver({ ...tampered, body: tampered.body.replace('"succeeded"', '"canceled"') }), 400, 'VALIDATION_FAILED')
  await expectError(
    await deliver({ ...signed(event), headers: { 'stripe-signature': 'garbage', 'content-type': 'application/json' } }),
    400,
    'VALIDATION_FAILED',
  )
  expect((await payment(processing.id, owner)).status).toBe('processing')
  // Within the tolerance, the same event is accepted.
  expect(await result(await deliver(signed(event, { at: app.clock.now() - 299_000 })))).toBe('applied')
})

test('types we do not map, and objects that are not ours, are 200 and ignored', async () => {
  const handled = await stripeEventCount()
  expect(await result(await deliver(signed(stripeEvent('customer.created', { id: 'cus_x', object: 'customer' }))))).toBe('ignored')
  const stranger = { id: 'pi_stranger', object: 'payment_intent', status: 'succeeded', metadata: {} }
  expect(await result(await deliver(signed(stripeEvent('payment_intent.succeeded', stranger))))).toBe('ignored')
  const foreign = { id: 'in_stripe', object: 'invoice', customer: 'cus_unknown', metadata: { switchboard_invoice_id: 'in_x' } }
  expect(await result(await deliver(signed(stripeEvent('invoice.paid', foreign))))).toBe('ignored')
  expect(await stripeEventCount()).toBe(handled)
})

test("Stripe invoices naming ours: paid, payment failed, voided, marked uncollectible — only in the customer's organization", async () => {
  const customer = (await accountOf(app, acme.org.id))!.provider_customer_id!
  const stripeInvoice = (ours: string, extra: Json = {}) => ({
    id: `in_${crypto.randomUUID().slice(0, 8)}`,
    object: 'invoice',
    customer,
    metadata: { switchboard_invoice_id: ours },
    ...extra,
  })
  const unpaid = await invoices.open(acme, 1500)
  const before = await eventTypes(app)
  const failedOne = stripeEvent('invoice.payment_failed', stripeInvoice(unpaid.id))
  expect(await result(await deliver(signed(failedOne)))).toBe('applied')
  expect((await invoices.get(unpaid.id)).attempt_count).toBe(1)
  expect(await result(await deliver(signed(failedOne)))).toBe('duplicate')
  const paidOne = stripeInvoice(unpaid.id)
  expect(await result(await deliver(signed(stripeEvent('invoice.paid', paidOne))))).toBe('applied')
  expect(await invoices.get(unpaid.id)).toMatchObject({ status: 'paid', amount_paid: 1500, attempt_count: 1 })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['invoice.failed', 'payment.succeeded', 'invoice.paid'])
  const recorded = (await pay(unpaid.id, owner, { payment_method_id: 'pm_card_visa' })).status
  expect(recorded).toBe(409)
  const list = await json<{ payments: Payment[] }>(
    await app.request(`/api/v1/billing/payments?invoice_id=${unpaid.id}`, { headers: owner }),
  )
  expect(list.payments.map((p) => [p.status, p.amount, p.reference])).toEqual([['succeeded', 1500, `Stripe invoice ${paidOne.id}`]])
  expect(await result(await deliver(signed(stripeEvent('invoice.voided', stripeInvoice(unpaid.id)))))).toBe('unchanged')

  const toVoid = await invoices.open(acme, 700)
  expect(await result(await deliver(signed(stripeEvent('invoice.voided', stripeInvoice(toVoid.id)))))).toBe('applied')
  expect((await invoices.get(toVoid.id)).status).toBe('void')
  const toMark = await invoices.open(acme, 700)
  expect(await result(await deliver(signed(stripeEvent('invoice.marked_uncollectible', stripeInvoice(toMark.id)))))).toBe('applied')
  expect((await invoices.get(toMark.id)).status).toBe('uncollectible')

  // Another organization's invoice, named under acme's customer: not found there, ignored.
  const theirs = await invoices.open(globex, 700)
  expect(await result(await deliver(signed(stripeEvent('invoice.voided', stripeInvoice(theirs.id)))))).toBe('ignored')
  expect((await invoices.get(theirs.id)).status).toBe('open')
})

test('the body is read raw, JSON only, at most 1 MiB', async () => {
  const big = signed({ ...stripeEvent('customer.created', {}), padding: 'x'.repeat(1024 * 1024) })
  await expectError(await deliver(big), 413, 'PAYLOAD_TOO_LARGE')
  const event = signed(stripeEvent('customer.created', {}))
  await expectError(await deliver({ ...event, headers: { ...event.headers, 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE')
})

test('without Stripe as the payment provider the endpoint does not exist', async () => {
  const manual = await paymentsApp()
  const event = signedStripeEvent(stripeEvent('payment_intent.succeeded', {}), secret, { at: manual.app.clock.now() })
  await expectError(await manual.app.request(PATH, { method: 'POST', headers: event.headers, body: event.body }), 404, 'NOT_FOUND')
})
