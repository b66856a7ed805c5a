// Payments by bank transfer (the manual provider): the organization announces a transfer (processing,
// the invoice stays open), the operator confirms it (invoice paid, payment.succeeded then invoice.paid)
// or cancels it; the operator records a transfer directly, in part or in full, never more than remains;
// amounts are whole numbers; the list and its filters; who may do what; another organization's 404.
import { expect, test } from 'bun:test'
import { json } from '../../../helpers/app.ts'
import { auditEvents, eventTypes, expectError, type Payment, paymentEvents, paymentsApp, copy } from './payments-api.ts'

const { app, acme, globex, invoices, pay, record, confirm, cancel, payment, payments } = await paymentsApp()
const owner = acme.users.super_admin.auth

test('the organization announces a transfer; the operator confirms it: the invoice is paid', async () => {
  const invoice = await invoices.open(acme, 4200)
  expect(invoice.collection_method).toBe('send_invoice')
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'ACME-0001' }))
  expect(copy(announced)).toMatchObject({
    invoice_id: invoice.id,
    organization_id: acme.org.id,
    amount: 4200,
    currency: 'usd',
    status: 'processing',
    provider: 'manual',
    reference: 'ACME-0001',
    payment_method: null,
    attempts: [],
    amount_refunded: 0,
    refunds: [],
    succeeded_at: null,
  })
  expect((await invoices.get(invoice.id)).status).toBe('open')
  expect(await paymentEvents(app, announced.id)).toEqual([])
  expect(await auditEvents(app, announced.id)).toEqual(['payment.created'])
  // One announced transfer at a time.
  await expectError(await pay(invoice.id, owner, { reference: 'ACME-0002' }), 409, 'CONFLICT')

  const before = await eventTypes(app)
  const confirmed = await json<Payment>(await confirm(announced.id))
  expect(copy(confirmed)).toMatchObject({ id: announced.id, status: 'succeeded', succeeded_at: expect.any(String) })
  const paid = await invoices.get(invoice.id)
  expect(copy(paid)).toMatchObject({ status: 'paid', amount_paid: 4200, amount_remaining: 0 })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.succeeded', 'invoice.paid'])
  const [event] = await paymentEvents(app, announced.id)
  expect(event!.data.payment).toEqual(await payment(announced.id, owner))
  // Confirmed once only; a paid invoice takes no more payments.
  await expectError(await confirm(announced.id), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await pay(invoice.id, owner, { reference: 'again' }), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await record(invoice.id, { reference: 'again' }), 409, 'INVALID_STATE_TRANSITION')
})

// Issue 27 item 9: a reported transfer the operator cancels has failed, as a bounced one has: payment.failed.
test('a transfer that never arrived is canceled: it fails with payment.failed; the invoice stays open', async () => {
  const invoice = await invoices.open(acme, 1000)
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'LOST' }))
  const before = await eventTypes(app)
  const canceled = await json<Payment>(await cancel(announced.id))
  const error = { code: 'transfer_canceled', message: 'The bank transfer LOST was canceled by the operator: the money never arrived' }
  expect(copy(canceled)).toMatchObject({ status: 'canceled', canceled_at: expect.any(String), last_error: error })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.failed'])
  const [event] = await paymentEvents(app, announced.id)
  expect(event!.data).toEqual({ payment: await payment(announced.id, owner), error })
  expect(await auditEvents(app, announced.id)).toEqual(['payment.created', 'payment.failed'])
  await expectError(await confirm(announced.id), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await cancel(announced.id), 409, 'INVALID_STATE_TRANSITION')
  expect((await invoices.get(invoice.id)).status).toBe('open')
  // Another may be announced now.
  expect((await pay(invoice.id, owner, { reference: 'FOUND' })).status).toBe(200)
})

test('the operator records transfers directly: partial, then the rest; more than remains is 400', async () => {
  const invoice = await invoices.open(acme, 10_000)
  await expectError(await record(invoice.id, { amount: 10_001, reference: 'TOO-MUCH' }), 400, 'VALIDATION_FAILED', 'amount')
  const before = await eventTypes(app)
  const first = await json<Payment>(await record(invoice.id, { amount: 2500, reference: 'PART-1' }))
  expect(copy(first)).toMatchObject({ status: 'succeeded', amount: 2500, provider: 'manual', reference: 'PART-1' })
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'open', amount_paid: 2500, amount_remaining: 7500 })
  await expectError(await record(invoice.id, { amount: 7501, reference: 'TOO-MUCH' }), 400, 'VALIDATION_FAILED', 'amount')
  const rest = await record(invoice.id, { reference: 'PART-2' })
  expect(rest.status).toBe(201)
  expect(await json<Payment>(rest)).toMatchObject({ amount: 7500, status: 'succeeded' })
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 10_000, amount_remaining: 0 })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.succeeded', 'payment.succeeded', 'invoice.paid'])
})

test('amounts are whole numbers of minor units: a float, a string, zero or a negative is 400', async () => {
  const invoice = await invoices.open(acme, 1000)
  for (const amount of [10.5, '100', 0, -5, 1e20])
    await expectError(await record(invoice.id, { amount, reference: 'X' }), 400, 'VALIDATION_FAILED')
  await expectError(await record(invoice.id, { amount: 100 }), 400, 'VALIDATION_FAILED')
  await expectError(await record(invoice.id, { amount: 100, reference: '   ' }), 400, 'VALIDATION_FAILED')
  // With the manual provider, the organization pays by reference, not by card.
  await expectError(await pay(invoice.id, owner, {}), 400, 'VALIDATION_FAILED', 'reference')
  await expectError(await pay(invoice.id, owner, { payment_method_id: 'pm_card_visa' }), 400, 'VALIDATION_FAILED', 'payment_method_id')
  expect((await invoices.get(invoice.id)).amount_paid).toBe(0)
})

test('only an open or uncollectible invoice takes a payment', async () => {
  const draft = await invoices.draft(acme, [{ description: 'Draft', quantity: 1, unit_amount: 500 }])
  await expectError(await pay(draft.id, owner, { reference: 'X' }), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await record(draft.id, { reference: 'X' }), 409, 'INVALID_STATE_TRANSITION')
  const voided = await invoices.open(acme, 500)
  expect((await invoices.move(voided.id, 'void')).status).toBe(200)
  await expectError(await pay(voided.id, owner, { reference: 'X' }), 409, 'INVALID_STATE_TRANSITION')
  const uncollectible = await invoices.open(acme, 500)
  expect((await invoices.move(uncollectible.id, 'mark-uncollectible')).status).toBe(200)
  expect((await record(uncollectible.id, { reference: 'LATE' })).status).toBe(201)
  expect((await invoices.get(uncollectible.id)).status).toBe('paid')
})

test('the list: newest first, filtered by status, invoice and creation time, paginated', async () => {
  const { app: own, acme: org, invoices: inv, pay: payOwn, record: recordOwn, payments: list } = await paymentsApp()
  const auth = org.users.super_admin.auth
  const a = await inv.open(org, 1000)
  const b = await inv.open(org, 2000)
  const first = await json<Payment>(await recordOwn(a.id, { amount: 400, reference: 'A1' }))
  own.clock.advance(60_000)
  const middle = own.clock.now()
  const second = await json<Payment>(await payOwn(b.id, auth, { reference: 'B1' }))
  own.clock.advance(60_000)
  const third = await json<Payment>(await recordOwn(a.id, { reference: 'A2' }))
  expect((await list(auth)).payments.map((p) => p.id)).toEqual([third.id, second.id, first.id])
  expect((await list(auth, '?status=processing')).payments.map((p) => p.id)).toEqual([second.id])
  expect((await list(auth, `?invoice_id=${a.id}`)).payments.map((p) => p.id)).toEqual([third.id, first.id])
  const after = new Date(middle - 1).toISOString()
  expect((await list(auth, `?created_after=${after}`)).payments.map((p) => p.id)).toEqual([third.id, second.id])
  expect((await list(auth, `?created_before=${after}`)).payments.map((p) => p.id)).toEqual([first.id])
  const page1 = await list(auth, '?page_size=2&include_total=true')
  expect(page1.payments.length).toBe(2)
  expect(page1.total_count).toBe(3)
  const page2 = await list(auth, `?page_size=2&include_total=true&page_token=${page1.next_page_token}`)
  expect(page2.payments.map((p) => p.id)).toEqual([first.id])
  expect(page2.next_page_token).toBe('')
  await expectError(
    await own.request('/api/v1/billing/payments?created_after=yesterday', { headers: auth }),
    400,
    'VALIDATION_FAILED',
    'created_after',
  )
  await expectError(await own.request('/api/v1/billing/payments?status=paid', { headers: auth }), 400, 'VALIDATION_FAILED')
})

test('who may: the owner pays, an admin reads but cannot pay, a viewer or an agent neither; organizations see only their own', async () => {
  const invoice = await invoices.open(acme, 700)
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'WHO' }))
  const admin = acme.users.admin.auth
  await expectError(await pay(invoice.id, admin, { reference: 'X' }), 403, 'INSUFFICIENT_PERMISSIONS')
  expect((await payment(announced.id, admin)).id).toBe(announced.id)
  expect((await payments(admin)).payments.map((p) => p.id)).toContain(announced.id)
  for (const role of ['viewer', 'agent', 'supervisor'] as const) {
    const auth = acme.users[role].auth
    await expectError(await pay(invoice.id, auth, { reference: 'X' }), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await app.request(`/api/v1/billing/payments/${announced.id}`, { headers: auth }), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await app.request('/api/v1/billing/payments', { headers: auth }), 403, 'INSUFFICIENT_PERMISSIONS')
  }
  await expectError(await app.request('/api/v1/billing/payments'), 401, 'UNAUTHENTICATED')
  // Another organization: its payment and its invoice are exactly as missing as unknown ones.
  const other = globex.users.super_admin.auth
  await expectError(await app.request(`/api/v1/billing/payments/${announced.id}`, { headers: other }), 404, 'NOT_FOUND')
  await expectError(await app.request('/api/v1/billing/payments/pi_unknown', { headers: other }), 404, 'NOT_FOUND')
  await expectError(await pay(invoice.id, other, { reference: 'X' }), 404, 'NOT_FOUND')
  expect((await payments(other)).payments).toEqual([])
  expect((await payments(other, `?invoice_id=${invoice.id}`)).payments).toEqual([])
  // The operator's routes want an operator token: an organization's token is refused.
  for (const path of [`/api/v1/operator/invoices/${invoice.id}/payments`, `/api/v1/operator/payments/${announced.id}/confirm`]) {
    const response = await app.request(path, {
      method: 'POST',
      headers: { ...owner, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'X' }),
    })
    expect(response.status).toBe(401)
  }
  await expectError(await confirm('pi_unknown'), 404, 'NOT_FOUND')
  await expectError(await cancel('pi_unknown'), 404, 'NOT_FOUND')
  await expectError(await record('in_unknown', { reference: 'X' }), 404, 'NOT_FOUND')
})
