// Card payments through Stripe (the fake Stripe server on loopback, driven by the official package):
// paid at once, declined, insufficient funds, no payment method, a retry with another card on the same
// payment, and a collection whose answer was lost — taken over later with the same idempotency key, so
// Stripe answers as the first time and nothing is charged twice.
import { expect, test } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { collectInvoice } from '../../../../src/modules/billing/payments/collect.ts'
import { json } from '../../../helpers/app.ts'
import { accountOf } from '../invoices/invoices-api.ts'
import { eventTypes, expectError, type Payment, paymentEvents, paymentsApp, copy } from './payments-api.ts'

const { app, acme, globex, invoices, pay, payment, confirm, stripe } = await paymentsApp({ stripe: true })
const server = stripe!
const owner = acme.users.super_admin.auth
const cron = contextFor(app.context, { kind: 'system', id: 'cron' })
const intentsCreated = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && !r.replayed)

test('paid by card at once: the payment mirrors the PaymentIntent, the invoice is paid', async () => {
  const invoice = await invoices.open(acme, 2900)
  expect(invoice.collection_method).toBe('charge_automatically')
  const before = await eventTypes(app)
  const response = await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' })
  expect(response.status).toBe(200)
  const paid = await json<Payment>(response)
  expect(copy(paid)).toMatchObject({
    invoice_id: invoice.id,
    amount: 2900,
    currency: 'usd',
    status: 'succeeded',
    provider: 'stripe',
    provider_payment_id: expect.stringMatching(/^pi_/),
    payment_method: { type: 'card', last4: '4242', brand: 'visa' },
    last_error: null,
    attempts: [{ attempted_at: expect.any(String), outcome: 'succeeded', error: null }],
    succeeded_at: expect.any(String),
  })
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 2900, amount_remaining: 0 })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.succeeded', 'invoice.paid'])
  expect((await paymentEvents(app, paid.id))[0]!.data.payment).toEqual(paid)
  // What Stripe was asked: the customer, the card attached to it, the PaymentIntent confirmed off-session.
  const intent = server.paymentIntents.get(paid.provider_payment_id!)!
  expect(copy(intent)).toMatchObject({ amount: 2900, currency: 'usd', status: 'succeeded', off_session: true })
  const create = server.requests.find((r) => r.path === '/v1/payment_intents')!
  expect(create.idempotencyKey).toBe(`${paid.id}-1`)
  expect(create.body).toMatchObject({
    amount: '2900',
    currency: 'usd',
    confirm: 'true',
    off_session: 'true',
    payment_method: 'pm_card_visa',
    metadata: {
      switchboard_organization_id: acme.org.id,
      switchboard_invoice_id: invoice.id,
      switchboard_payment_id: paid.id,
      switchboard_attempt: '1',
    },
  })
  const customer = (await accountOf(app, acme.org.id))!.provider_customer_id
  expect(customer).toStartWith('cus_')
  expect(create.body.customer).toBe(customer)
  // The customer is made once per organization.
  await pay((await invoices.open(acme, 100)).id, owner, { payment_method_id: 'pm_card_mastercard' })
  expect(server.requests.filter((r) => r.path === '/v1/customers').length).toBe(1)
})

test('a declined card: 402 saying why, the attempt recorded on the payment, the invoice still open', async () => {
  const invoice = await invoices.open(acme, 5000)
  const before = await eventTypes(app)
  const error = await expectError(
    await pay(invoice.id, owner, { payment_method_id: 'pm_card_chargeDeclined' }),
    402,
    'PAYMENT_FAILED',
    'payment_id',
  )
  expect(error.message).toContain('Your card was declined.')
  const id = error.errors!.find((e) => e.field === 'payment_id')!.message
  expect(error.message).toContain(id)
  const failed = await payment(id, owner)
  expect(copy(failed)).toMatchObject({
    status: 'requires_payment_method',
    provider_payment_id: expect.stringMatching(/^pi_/),
    payment_method: { type: 'card', last4: '0002', brand: 'visa' },
    last_error: { code: 'generic_decline', message: 'Your card was declined.' },
    attempts: [{ outcome: 'failed', error: { code: 'generic_decline', message: 'Your card was declined.' } }],
    succeeded_at: null,
  })
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'open', amount_paid: 0, attempt_count: 1 })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.failed', 'invoice.failed'])
  const [event] = await paymentEvents(app, id)
  expect(event!.data).toEqual({ payment: failed, error: { code: 'generic_decline', message: 'Your card was declined.' } })
  // Only Stripe makes a card payment succeed: the operator's confirmation is refused, naming both states.
  const refused = await expectError(await confirm(id), 409, 'INVALID_STATE_TRANSITION')
  expect(refused.message).toBe(
    'A requires_payment_method Stripe payment cannot become succeeded by the operator: Stripe reports its outcome',
  )

  // Retried in place with another card: the same payment, a second attempt, a new idempotency key.
  const retried = await json<Payment>(await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' }))
  expect(copy(retried)).toMatchObject({
    id,
    status: 'succeeded',
    last_error: null,
    payment_method: { last4: '4242', brand: 'visa' },
    attempts: [{ outcome: 'failed' }, { outcome: 'succeeded', error: null }],
  })
  expect(retried.provider_payment_id).not.toBe(failed.provider_payment_id)
  expect(server.requests.filter((r) => r.path === '/v1/payment_intents').map((r) => r.idempotencyKey)).toContain(`${id}-2`)
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 5000 })
  await expectError(await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' }), 409, 'INVALID_STATE_TRANSITION')
})

test('insufficient funds and an unknown card are failures too, each saying why', async () => {
  const invoice = await invoices.open(acme, 1200)
  const poor = await expectError(await pay(invoice.id, owner, { payment_method_id: 'pm_card_insufficientFunds' }), 402, 'PAYMENT_FAILED')
  expect(poor.message).toContain('Your card has insufficient funds.')
  const id = poor.errors![0]!.message
  expect((await payment(id, owner)).last_error).toEqual({ code: 'insufficient_funds', message: 'Your card has insufficient funds.' })
  const unknown = await expectError(await pay(invoice.id, owner, { payment_method_id: 'pm_nonexistent' }), 402, 'PAYMENT_FAILED')
  expect(unknown.message).toContain("No such PaymentMethod: 'pm_nonexistent'")
  const after = await payment(id, owner)
  expect(after.attempts.map((a) => a.error?.code)).toEqual(['insufficient_funds', 'resource_missing'])
  expect((await invoices.get(invoice.id)).attempt_count).toBe(2)
  // By card only here: a transfer reference is refused, a payment method is needed.
  await expectError(await pay(invoice.id, owner, { reference: 'BANK' }), 400, 'VALIDATION_FAILED', 'reference')
  await expectError(await pay(invoice.id, owner, {}), 400, 'VALIDATION_FAILED', 'payment_method_id')
  await expectError(await pay(invoice.id, owner, { payment_method_id: 'card_4242' }), 400, 'VALIDATION_FAILED')
  // Another organization's invoice is not found.
  await expectError(await pay(invoice.id, globex.users.super_admin.auth, { payment_method_id: 'pm_card_visa' }), 404, 'NOT_FOUND')
})

test('collectInvoice (the cron loop): no payment method is a failure without calling Stripe; a send_invoice invoice is skipped', async () => {
  const invoice = await invoices.open(acme, 800)
  const requests = server.requests.length
  expect(await collectInvoice(cron, { invoiceId: invoice.id })).toBe('failed')
  expect(server.requests.length).toBe(requests)
  const [event] = (await paymentEvents(app)).filter((e) => e.data.payment.invoice_id === invoice.id)
  expect(event!.type).toBe('payment.failed')
  expect(event!.data.payment).toMatchObject({ status: 'requires_payment_method', last_error: { code: 'no_payment_method' } })
  expect((await invoices.get(invoice.id)).attempt_count).toBe(1)
  // With a card, the same payment succeeds.
  expect(await collectInvoice(cron, { invoiceId: invoice.id, paymentMethodId: 'pm_card_visa' })).toBe('succeeded')
  expect((await payment(event!.data.payment.id, owner)).attempts.map((a) => a.outcome)).toEqual(['failed', 'succeeded'])
  expect(await collectInvoice(cron, { invoiceId: invoice.id, paymentMethodId: 'pm_card_visa' })).toBe('skipped')
  const sent = await invoices.open(acme, 800, { collection_method: 'send_invoice' })
  expect(await collectInvoice(cron, { invoiceId: sent.id, paymentMethodId: 'pm_card_visa' })).toBe('skipped')
  expect(await collectInvoice(cron, { invoiceId: 'in_unknown' })).toBe('skipped')
})

test('a collection whose answer was lost is taken over later with the same key: one charge, the same result', async () => {
  const invoice = await invoices.open(acme, 4400)
  const created = intentsCreated().length
  server.loseAnswers(1)
  const lost = await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' })
  expect(lost.status).toBe(202)
  const processing = await json<Payment>(lost)
  expect(copy(processing)).toMatchObject({ status: 'processing', attempts: [] })
  // Stripe did charge; we do not know it yet. Nobody else may collect meanwhile.
  expect(intentsCreated().length).toBe(created + 1)
  expect((await invoices.get(invoice.id)).status).toBe('open')
  expect(await collectInvoice(cron, { invoiceId: invoice.id })).toBe('in_progress')
  await expectError(await pay(invoice.id, owner, { payment_method_id: 'pm_card_mastercard' }), 409, 'CONFLICT')

  app.clock.advance(11 * 60_000)
  expect(await collectInvoice(cron, { invoiceId: invoice.id })).toBe('succeeded')
  const retried = server.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!
  expect(copy(retried)).toMatchObject({ idempotencyKey: `${processing.id}-1`, replayed: true })
  expect(intentsCreated().length).toBe(created + 1)
  const settled = await payment(processing.id, owner)
  expect(copy(settled)).toMatchObject({ status: 'succeeded', attempts: [{ outcome: 'succeeded' }], payment_method: { last4: '4242' } })
  expect(server.paymentIntents.get(settled.provider_payment_id!)!.status).toBe('succeeded')
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 4400 })
  expect((await paymentEvents(app, processing.id)).map((e) => e.type)).toEqual(['payment.succeeded'])
  // The lost answer was logged as a warning, without the secret key.
  const logs = app.logs.lines.join('\n')
  expect(logs).toContain('stripe: no definite answer to a charge')
  expect(logs).not.toContain(server.settings.STRIPE_SECRET_KEY)
})
