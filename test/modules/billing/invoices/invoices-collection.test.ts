// A one-off invoice among the others: with the Stripe provider (a Stripe-speaking server on loopback)
// it is charged automatically by default, so once finalized the cron loop tries to collect it like any
// renewal (no card on file: a failed attempt, invoice.failed, the next try on the retry schedule); the
// organization then pays it by card (invoice.paid); a sent one is only looked at on its due date.
import { afterAll, expect, test } from 'bun:test'
import { startStripeServer } from '../../../helpers/stripe-server.ts'
import { json } from '../../../helpers/app.ts'
import { type Invoice, invoiceEvents, invoicesApp, invoicesClient } from './invoices-api.ts'

const stripe = await startStripeServer()
afterAll(() => stripe.close())
const { app, acme, operator } = await invoicesApp({ settings: { ...stripe.settings, BILLING_RETRY_SCHEDULE: '1d,3d' } })
const client = invoicesClient(app, operator)
const DAY = 86_400_000
const superAdmin = acme.users.super_admin.auth

/** Moves the clock past the billing interval and runs the cron loop's due tasks. */
async function cron(ms = app.config.billing.intervalMs): Promise<void> {
  app.clock.advance(ms)
  await app.context.scheduler.tick()
}

test('a finalized one-off invoice is charged by the cron loop, then paid by card', async () => {
  await cron()
  const invoice = await client.open(acme, 4200)
  expect(invoice).toMatchObject({ collection_method: 'charge_automatically', status: 'open', attempt_count: 0 })
  expect(invoice.next_payment_attempt).toBe(invoice.status_transitions.finalized_at)
  await cron()
  // No card on file for an organization without a subscription: the attempt fails, retried in a day.
  const failed = await client.get(invoice.id)
  expect(failed).toMatchObject({ status: 'open', attempt_count: 1 })
  const events = await invoiceEvents(app, invoice.id)
  expect(events.map((e) => [e.type, e.data.error?.code])).toEqual([['invoice.failed', 'no_payment_method']])
  expect(events[0]!.data.invoice).toEqual(failed)
  expect(Date.parse(failed.next_payment_attempt!) - Date.parse(events[0]!.created_at)).toBe(DAY)

  const response = await client.send('POST', `/api/v1/billing/invoices/${invoice.id}/pay`, superAdmin, {
    payment_method_id: 'pm_card_visa',
  })
  expect(response.status).toBe(200)
  const paid = await client.get(invoice.id)
  expect(paid).toMatchObject({ status: 'paid', amount_paid: 4200, amount_remaining: 0, next_payment_attempt: null })
  expect((await invoiceEvents(app, invoice.id)).map((e) => e.type)).toEqual(['invoice.failed', 'invoice.paid'])
  // Paid: the cron loop leaves it alone.
  await cron(2 * DAY)
  expect(await client.get(invoice.id)).toEqual(paid)
})

test('a sent one-off invoice is not charged; on its due date the cron loop records it overdue', async () => {
  const charges = () => stripe.requests.filter((r) => r.path.startsWith('/v1/payment_intents')).length
  const before = charges()
  const invoice = await client.open(acme, 1000, { collection_method: 'send_invoice' })
  expect(invoice.due_date).toBe(new Date(app.clock.now() + 30 * DAY).toISOString())
  await cron()
  expect(await invoiceEvents(app, invoice.id)).toEqual([])
  await cron(30 * DAY)
  const overdue = await client.get(invoice.id)
  expect(overdue).toMatchObject({ status: 'open', attempt_count: 1 })
  expect((await invoiceEvents(app, invoice.id)).map((e) => e.data.error?.code)).toEqual(['invoice_overdue'])
  expect(charges()).toBe(before)
  expect((await json<Invoice>(await client.move(invoice.id, 'void'))).status).toBe('void')
})
