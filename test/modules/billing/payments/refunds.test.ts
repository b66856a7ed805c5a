// Refunds by the operator: in full or in part, never more than is left, only of a succeeded payment —
// a transfer's recorded at once, a card payment's through Stripe's refunds (and one Stripe refuses
// becomes failed, its amount given back); the payment shows amount_refunded and its refunds.
import { expect, test } from 'bun:test'
import { json } from '../../../helpers/app.ts'
import { auditEvents, expectError, type Payment, paymentsApp, type Refund } from './payments-api.ts'

const manual = await paymentsApp()
const card = await paymentsApp({ stripe: true })

test("a transfer's refunds: partial, then the rest; nothing more; the invoice stays paid", async () => {
  const { acme, invoices, record, refund, payment } = manual
  const invoice = await invoices.open(acme, 5000)
  const paid = await json<Payment>(await record(invoice.id, { reference: 'IN' }))
  await expectError(await refund(paid.id, { amount: 5001 }), 400, 'VALIDATION_FAILED', 'amount')
  for (const amount of [0, 1.5, '10']) await expectError(await refund(paid.id, { amount }), 400, 'VALIDATION_FAILED')
  const part = await refund(paid.id, { amount: 1200, reason: 'requested_by_customer' })
  expect(part.status).toBe(201)
  const first = await json<Refund>(part)
  expect(first).toEqual({
    id: expect.stringMatching(/^re_/),
    payment_id: paid.id,
    amount: 1200,
    currency: 'usd',
    status: 'succeeded',
    reason: 'requested_by_customer',
    created_at: expect.any(String),
  })
  await expectError(await refund(paid.id, { amount: 3801 }), 400, 'VALIDATION_FAILED', 'amount')
  const rest = await json<Refund>(await refund(paid.id))
  expect(rest).toMatchObject({ amount: 3800, status: 'succeeded', reason: null })
  await expectError(await refund(paid.id, { amount: 1 }), 409, 'CONFLICT')
  const after = await payment(paid.id, acme.users.admin.auth)
  expect(after.status).toBe('succeeded')
  expect(after.amount_refunded).toBe(5000)
  expect(after.refunds.map((r) => [r.amount, r.status])).toEqual([
    [1200, 'succeeded'],
    [3800, 'succeeded'],
  ])
  expect((await invoices.get(invoice.id)).status).toBe('paid')
  expect(await auditEvents(manual.app, paid.id)).toEqual(['payment.succeeded', 'refund.created', 'refund.created'])
})

test('only a succeeded payment is refunded; an unknown one is 404', async () => {
  const { acme, invoices, pay, refund } = manual
  const invoice = await invoices.open(acme, 900)
  const announced = await json<Payment>(await pay(invoice.id, acme.users.super_admin.auth, { reference: 'SOON' }))
  await expectError(await refund(announced.id), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await refund('pi_unknown'), 404, 'NOT_FOUND')
})

test("a card payment's refunds go through Stripe: partial, full, too much, and one of a failed payment", async () => {
  const { acme, invoices, pay, refund, payment, stripe } = card
  const owner = acme.users.super_admin.auth
  const invoice = await invoices.open(acme, 8000)
  const paid = await json<Payment>(await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' }))
  const part = await json<Refund>(await refund(paid.id, { amount: 3000, reason: 'duplicate' }))
  expect(part).toMatchObject({ amount: 3000, status: 'succeeded', reason: 'duplicate' })
  const sent = stripe!.requests.filter((r) => r.path === '/v1/refunds')
  expect(sent.length).toBe(1)
  expect(sent[0]!.body).toMatchObject({ payment_intent: paid.provider_payment_id, amount: '3000', reason: 'duplicate' })
  expect(sent[0]!.idempotencyKey).toBe(`refund-${part.id}`)
  await expectError(await refund(paid.id, { amount: 5001 }), 400, 'VALIDATION_FAILED', 'amount')
  // A reason of our own is kept here and not sent to Stripe, which knows only its three.
  const rest = await json<Refund>(await refund(paid.id, { reason: 'goodwill' }))
  expect(rest).toMatchObject({ amount: 5000, status: 'succeeded', reason: 'goodwill' })
  expect(stripe!.requests.filter((r) => r.path === '/v1/refunds').at(-1)!.body.reason).toBeUndefined()
  expect([...stripe!.refunds.values()].map((r) => r.amount)).toEqual([3000, 5000])
  const after = await payment(paid.id, owner)
  expect(after.amount_refunded).toBe(8000)
  expect(after.refunds.map((r) => r.id)).toEqual([part.id, rest.id])
  await expectError(await refund(paid.id), 409, 'CONFLICT')

  // A declined payment has nothing to refund.
  const other = await invoices.open(acme, 100)
  const declined = await expectError(await pay(other.id, owner, { payment_method_id: 'pm_card_chargeDeclined' }), 402, 'PAYMENT_FAILED')
  await expectError(await refund(declined.errors![0]!.message), 409, 'INVALID_STATE_TRANSITION')
})

test('a refund Stripe refuses becomes failed and its amount is left to refund again', async () => {
  const { acme, invoices, pay, refund, payment, stripe } = card
  const owner = acme.users.super_admin.auth
  const invoice = await invoices.open(acme, 2000)
  const paid = await json<Payment>(await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' }))
  // Refunded in Stripe's dashboard already: Stripe refuses ours.
  stripe!.refunds.set('re_dashboard', { id: 're_dashboard', payment_intent: paid.provider_payment_id, amount: 2000, status: 'succeeded' })
  const refused = await expectError(await refund(paid.id, { amount: 500 }), 409, 'CONFLICT')
  expect(refused.message).toContain('Stripe refused the refund')
  const after = await payment(paid.id, owner)
  expect(after.amount_refunded).toBe(0)
  expect(after.refunds.map((r) => [r.amount, r.status])).toEqual([[500, 'failed']])
})
