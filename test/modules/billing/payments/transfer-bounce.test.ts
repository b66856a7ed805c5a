// A bank transfer that bounced (issue 27 #9): the operator marks an announced transfer failed, the
// payment is canceled with its error as a failed attempt, payment.failed reaches a real HTTPS receiver
// with the payment and the error, and the invoice stays open and owed; bouncing it again, or bouncing a
// confirmed transfer, is 409 INVALID_STATE_TRANSITION naming both states.
import { afterAll, expect, test } from 'bun:test'
import { WebhookDispatcher } from '../../../../src/modules/webhooks/index.ts'
import { json } from '../../../helpers/app.ts'
import { FakeClock } from '../../../helpers/clock.ts'
import { startReceiver } from '../../../helpers/receiver.ts'
import { allowWebhookCidrs } from '../../webhooks/allow.ts'
import { auditEvents, copy, eventTypes, expectError, type Payment, type PaymentEvent, paymentsApp } from './payments-api.ts'

const receiver = await startReceiver()
const { app, acme, operator, invoices, pay, confirm, cancel, record, payment } = await paymentsApp({ clock: new FakeClock(Date.now()) })
await allowWebhookCidrs(app, acme.org.id, '127.0.0.0/8')
const dispatcher = new WebhookDispatcher(app.context, { extraCa: receiver.ca })
afterAll(async () => {
  await dispatcher.stop(0)
  receiver.stop()
})
const owner = acme.users.super_admin.auth
const bounce = (paymentId: string, body: Record<string, unknown> = {}) =>
  invoices.send('POST', `/api/v1/operator/payments/${paymentId}/bounce`, operator, body)

test('a bounced transfer fails: payment.failed delivered with the payment and its error; the invoice stays open', async () => {
  const hook = await invoices.send('POST', '/api/v1/webhooks', acme.users.admin.auth, {
    url: receiver.url('/billing'),
    events: ['payment.failed'],
    secret: 'a-secret-of-16-chars-or-more',
  })
  expect(hook.status).toBe(201)
  const invoice = await invoices.open(acme, 4200)
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'ACME-BOUNCE' }))
  const before = await eventTypes(app)

  const response = await bounce(announced.id, { reason: 'Returned by the bank: account closed' })
  expect(response.status).toBe(200)
  const error = { code: 'transfer_bounced', message: 'Returned by the bank: account closed' }
  const bounced = await json<Payment>(response)
  expect(copy(bounced)).toMatchObject({
    id: announced.id,
    status: 'canceled',
    canceled_at: expect.any(String),
    succeeded_at: null,
    last_error: error,
    attempts: [{ outcome: 'failed', error }],
  })
  expect(await payment(announced.id, owner)).toEqual(bounced)
  // The invoice is still owed, as before the transfer was announced: no attempt counted, nothing paid.
  expect(await invoices.get(invoice.id)).toMatchObject({ status: 'open', amount_paid: 0, amount_remaining: 4200, attempt_count: 0 })
  expect((await eventTypes(app)).slice(before.length)).toEqual(['payment.failed'])
  expect(await auditEvents(app, announced.id)).toEqual(['payment.created', 'payment.failed'])

  await dispatcher.pump()
  await dispatcher.settled()
  const stored = await app.context.db.raw.get<{ body: string }>("SELECT body FROM events WHERE type = 'payment.failed'")
  const delivered = receiver.received.filter((r) => r.path === '/billing')
  expect(delivered.map((r) => r.body)).toEqual([stored!.body])
  const event = JSON.parse(delivered[0]!.body) as PaymentEvent
  expect(event).toMatchObject({ type: 'payment.failed', organization_id: acme.org.id, data: { payment: bounced, error } })

  // Another transfer may be announced for the invoice now.
  expect((await pay(invoice.id, owner, { reference: 'ACME-AGAIN' })).status).toBe(200)
})

test('without a reason the error says so; a second bounce, and any move of the bounced transfer, are 409', async () => {
  const invoice = await invoices.open(acme, 900)
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'LOST-1' }))
  const bounced = await json<Payment>(await bounce(announced.id))
  expect(bounced.last_error).toEqual({ code: 'transfer_bounced', message: 'The bank transfer LOST-1 was returned or never arrived' })
  const again = await expectError(await bounce(announced.id), 409, 'INVALID_STATE_TRANSITION')
  expect(again.message).toBe(
    'A canceled transfer cannot become canceled by a bounce: only a processing (announced, unconfirmed) transfer can',
  )
  await expectError(await cancel(announced.id), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await confirm(announced.id), 409, 'INVALID_STATE_TRANSITION')
  expect((await invoices.get(invoice.id)).status).toBe('open')
})

test('a confirmed transfer, or one recorded received, cannot bounce: 409 naming succeeded and canceled', async () => {
  const invoice = await invoices.open(acme, 1000)
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'ARRIVED' }))
  expect((await confirm(announced.id)).status).toBe(200)
  const refused = await expectError(await bounce(announced.id), 409, 'INVALID_STATE_TRANSITION')
  expect(refused.message).toContain('A succeeded transfer cannot become canceled')
  expect((await payment(announced.id, owner)).status).toBe('succeeded')
  expect((await invoices.get(invoice.id)).status).toBe('paid')

  const other = await invoices.open(acme, 500)
  const received = await json<Payment>(await record(other.id, { reference: 'WIRE-9' }))
  await expectError(await bounce(received.id), 409, 'INVALID_STATE_TRANSITION')
  await expectError(await bounce('pi_unknown'), 404, 'NOT_FOUND')
  await expectError(await bounce(received.id, { reason: '   ' }), 400, 'VALIDATION_FAILED', 'reason')
  // The operator's route: an organization's token is refused.
  await expectError(await invoices.send('POST', `/api/v1/operator/payments/${received.id}/bounce`, owner, {}), 401, 'TOKEN_INVALID')
})

// Confirm, bounce and cancel each read the transfer's status and move it, under the payment's row lock
// (SQLite's one writer): of many at the same moment exactly one moves it, the others find the
// status it left and answer 409; one event, and the invoice paid exactly when the confirmation won.
test('confirm, bounce and cancel of one transfer at the same moment: exactly one wins, one event', async () => {
  const invoice = await invoices.open(acme, 3100)
  const announced = await json<Payment>(await pay(invoice.id, owner, { reference: 'ACME-RACE' }))
  const before = await eventTypes(app)
  const moves = [confirm, (id: string) => bounce(id), cancel]
  const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => moves[i % 3]!(announced.id)))
  const won = answers.flatMap((r, i) => (r.status === 200 ? [i % 3] : []))
  expect(won).toHaveLength(1)
  expect(answers.filter((r) => r.status === 409)).toHaveLength(8)
  const after = (await eventTypes(app)).slice(before.length)
  const confirmed = won[0] === 0
  expect(after).toEqual(confirmed ? ['payment.succeeded', 'invoice.paid'] : ['payment.failed'])
  expect(copy(await payment(announced.id, owner))).toMatchObject({ status: confirmed ? 'succeeded' : 'canceled' })
  expect((await invoices.get(invoice.id)).status).toBe(confirmed ? 'paid' : 'open')
})
