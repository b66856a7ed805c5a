// Signed Stripe events of the wrong shape (issue 27 #5b): a good signature over a body that is not an
// event we can read — null where an id belongs, an object where a PaymentIntent id belongs, metadata
// that is not Stripe's strings — is 400 VALIDATION_FAILED naming the field, never a 500, and changes
// nothing (no stripe_events row, no event).
import { expect, test } from 'bun:test'
import { signedStripeEvent, stripeEvent } from '../../../helpers/stripe-server.ts'
import { json } from '../../../helpers/app.ts'
import { expectError, type Payment, paymentsApp } from '../payments/payments-api.ts'

const PATH = '/api/v1/integrations/stripe/webhook'
const { app, acme, invoices, pay, payment, stripe } = await paymentsApp({ stripe: true })
const secret = stripe!.settings.STRIPE_WEBHOOK_SECRET
const owner = acme.users.super_admin.auth

type Json = Record<string, unknown>
const intent = (extra: Json = {}) => ({ id: 'pi_3PqR8s', object: 'payment_intent', metadata: {}, ...extra })
const invoice = (extra: Json = {}) => ({ id: 'in_1PqR8s', object: 'invoice', customer: 'cus_x', metadata: {}, ...extra })
const event = (type: string, object: unknown, extra: Json = {}) => ({ ...stripeEvent(type, {}), data: { object }, ...extra })

const count = async (sql: string) => Number((await app.context.db.raw.get<{ n: number }>(sql))!.n)

const MALFORMED: [string, unknown, string][] = [
  ['the body is JSON null', null, 'body'],
  ['the body is an array', [], 'body'],
  ['the body is a string', 'evt_1', 'body'],
  ['id is null', event('payment_intent.succeeded', intent(), { id: null }), 'id'],
  ['id is empty', event('customer.created', {}, { id: '' }), 'id'],
  ['id is a number', event('payment_intent.succeeded', intent(), { id: 42 }), 'id'],
  ['type is null', event('payment_intent.succeeded', intent(), { type: null }), 'type'],
  ['data is null', { ...stripeEvent('payment_intent.succeeded', {}), data: null }, 'data'],
  ['data has no object', { ...stripeEvent('invoice.paid', {}), data: {} }, 'data.object'],
  ['data.object is null', event('payment_intent.succeeded', null), 'data.object'],
  ['data.object is a string', event('payment_intent.succeeded', 'pi_3PqR8s'), 'data.object'],
  ['an unmapped type with data.object an array', event('customer.created', []), 'data.object'],
  ['an object where a PaymentIntent id belongs', event('payment_intent.succeeded', intent({ id: { id: 'pi_x' } })), 'data.object.id'],
  ['a PaymentIntent id null', event('payment_intent.payment_failed', intent({ id: null })), 'data.object.id'],
  ['a PaymentIntent without an id', event('payment_intent.succeeded', { object: 'payment_intent' }), 'data.object.id'],
  ['metadata a string', event('payment_intent.succeeded', intent({ metadata: 'x' })), 'data.object.metadata'],
  [
    'metadata.switchboard_payment_id a number',
    event('payment_intent.succeeded', intent({ metadata: { switchboard_payment_id: 42 } })),
    'data.object.metadata.switchboard_payment_id',
  ],
  [
    'metadata.switchboard_organization_id an object',
    event('payment_intent.succeeded', intent({ metadata: { switchboard_payment_id: 'pi_1', switchboard_organization_id: {} } })),
    'data.object.metadata.switchboard_organization_id',
  ],
  [
    'metadata.switchboard_attempt a number',
    event('payment_intent.succeeded', intent({ metadata: { switchboard_attempt: 1 } })),
    'data.object.metadata.switchboard_attempt',
  ],
  [
    'last_payment_error a string',
    event('payment_intent.payment_failed', intent({ last_payment_error: 'declined' })),
    'data.object.last_payment_error',
  ],
  [
    'last_payment_error.code a number',
    event('payment_intent.payment_failed', intent({ last_payment_error: { code: 402 } })),
    'data.object.last_payment_error.code',
  ],
  [
    'last_payment_error.message an object',
    event('payment_intent.payment_failed', intent({ last_payment_error: { message: {} } })),
    'data.object.last_payment_error.message',
  ],
  ['an invoice id null', event('invoice.paid', invoice({ id: null })), 'data.object.id'],
  ['an invoice customer a number', event('invoice.voided', invoice({ customer: 42 })), 'data.object.customer'],
  ['an invoice customer an array', event('invoice.payment_failed', invoice({ customer: ['cus_x'] })), 'data.object.customer'],
  ['an invoice metadata an array', event('invoice.marked_uncollectible', invoice({ metadata: ['in_x'] })), 'data.object.metadata'],
  [
    'metadata.switchboard_invoice_id an array',
    event('invoice.paid', invoice({ metadata: { switchboard_invoice_id: ['in_x'] } })),
    'data.object.metadata.switchboard_invoice_id',
  ],
]

test.each(MALFORMED)('%s: 400 naming it, nothing recorded', async (_name, body, field) => {
  const before = [await count('SELECT count(*) AS n FROM stripe_events'), await count('SELECT count(*) AS n FROM events')]
  const signed = signedStripeEvent(typeof body === 'string' ? JSON.stringify(body) : (body as Json), secret, { at: app.clock.now() })
  const response = await app.request(PATH, { method: 'POST', headers: signed.headers, body: signed.body })
  const error = await expectError(response, 400, 'VALIDATION_FAILED', field)
  expect(error).toMatchObject({ message: expect.any(String), request_id: expect.any(String) })
  expect([await count('SELECT count(*) AS n FROM stripe_events'), await count('SELECT count(*) AS n FROM events')]).toEqual(before)
})

test("our own payment's PaymentIntent in an event with id null or data null: 400, the payment still processing", async () => {
  const invoice = await invoices.open(acme, 3000)
  stripe!.loseAnswers(1)
  const processing = await json<Payment>(await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' }))
  expect(processing.status).toBe('processing')
  const ours = [...stripe!.paymentIntents.values()].find((pi) => (pi.metadata as Json).switchboard_payment_id === processing.id)!
  for (const [body, field] of [
    [{ ...stripeEvent('payment_intent.succeeded', ours), id: null }, 'id'],
    [{ ...stripeEvent('payment_intent.succeeded', ours), data: null }, 'data'],
    [stripeEvent('payment_intent.succeeded', { ...ours, id: { id: ours.id } }), 'data.object.id'],
  ] as const) {
    const signed = signedStripeEvent(body, secret, { at: app.clock.now() })
    await expectError(
      await app.request(PATH, { method: 'POST', headers: signed.headers, body: signed.body }),
      400,
      'VALIDATION_FAILED',
      field,
    )
  }
  expect((await payment(processing.id, owner)).status).toBe('processing')
  expect((await invoices.get(invoice.id)).status).toBe('open')
})

test('null where Stripe may send null is read: no metadata, no customer, no last_payment_error', async () => {
  for (const body of [
    event('payment_intent.succeeded', intent({ metadata: null, last_payment_error: null })),
    event('payment_intent.payment_failed', intent({ last_payment_error: { code: null, decline_code: null, message: null } })),
    event('invoice.paid', invoice({ customer: null, metadata: null })),
    event('invoice.paid', invoice({ customer: { id: 'cus_unknown', object: 'customer' } })),
  ]) {
    const signed = signedStripeEvent(body, secret, { at: app.clock.now() })
    const response = await app.request(PATH, { method: 'POST', headers: signed.headers, body: signed.body })
    expect(await response.json()).toEqual({ received: true, result: 'ignored' })
  }
})
