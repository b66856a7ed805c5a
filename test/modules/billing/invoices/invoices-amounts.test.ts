// An invoice's figures: tax at the account's rate (basis points) rounded half away from zero, negative
// lines (credits), the credit balance taken off (and given back on void), a negative total added to
// the balance, the customer's details and the due date set on finalization, payments applied in parts,
// failed attempts on the retry schedule, and the events invoice.paid and invoice.failed with the full
// invoice.
import { expect, test } from 'bun:test'
import { json } from '../../../helpers/app.ts'
import {
  accountOf,
  expectError,
  type Invoice,
  invoiceEvents,
  invoiceFunctions,
  invoicesApp,
  invoicesClient,
  setAccount,
} from './invoices-api.ts'

const { app, acme, globex, operator } = await invoicesApp({ settings: { BILLING_RETRY_SCHEDULE: '1d,3d' } })
const client = invoicesClient(app, operator)
const fn = invoiceFunctions(app)
const DAY = 86_400_000
const line = (unit_amount: number, quantity = 1) => ({ description: 'Item', quantity, unit_amount })

async function finalize(draft: Invoice): Promise<Invoice> {
  const response = await client.move(draft.id, 'finalize')
  expect(response.status).toBe(200)
  return json<Invoice>(response)
}

test('tax at the rate in basis points, rounded half away from zero, the rate copied at finalization', async () => {
  await setAccount(app, acme.org.id, { tax_rate_bps: 2000 })
  // 1234 × 20 % = 246.8 -> 247.
  const draft = await client.draft(acme, [line(617, 2)])
  expect(draft).toMatchObject({ subtotal: 1234, tax_rate_bps: 2000, tax: 247, total: 1481, number: null })
  // The rate at finalization counts: 1234 × 12.5 % = 154.25 -> 154.
  await setAccount(app, acme.org.id, { tax_rate_bps: 1250 })
  expect(await finalize(draft)).toMatchObject({
    subtotal: 1234,
    tax_rate_bps: 1250,
    tax: 154,
    total: 1388,
    amount_due: 1388,
    amount_remaining: 1388,
  })
  // Exactly half: 10 × 5 % = 0.5 -> 1; 30 × 5 % = 1.5 -> 2.
  await setAccount(app, acme.org.id, { tax_rate_bps: 500 })
  expect(await finalize(await client.draft(acme, [line(10)]))).toMatchObject({ tax: 1, total: 11 })
  expect(await finalize(await client.draft(acme, [line(30)]))).toMatchObject({ tax: 2, total: 32 })
  // A credit line: 1000 - 970 = 30 at 5 % -> 2 (1.5 rounded up).
  expect(await finalize(await client.draft(acme, [line(1000), line(-970)]))).toMatchObject({ subtotal: 30, tax: 2, total: 32 })
  await setAccount(app, acme.org.id, { tax_rate_bps: 0 })
})

test('a negative total becomes credit, paid at once; half a cent of negative tax rounds away from zero', async () => {
  await setAccount(app, globex.org.id, { tax_rate_bps: 500 })
  // -10 × 5 % = -0.5 -> -1.
  const invoice = await finalize(await client.draft(globex, [line(-10)]))
  expect(invoice).toMatchObject({
    status: 'paid',
    subtotal: -10,
    tax: -1,
    total: -11,
    applied_balance: -11,
    amount_due: 0,
    amount_paid: 0,
    amount_remaining: 0,
    next_payment_attempt: null,
  })
  expect(invoice.status_transitions.paid_at).toBe(invoice.status_transitions.finalized_at)
  expect(await accountOf(app, globex.org.id)).toMatchObject({ credit_balance: 11, balance_currency: 'usd' })
  // The credit is taken off the next invoice in that currency: 100 + 5 tax - 11.
  const next = await finalize(await client.draft(globex, [line(100)]))
  expect(next).toMatchObject({ total: 105, applied_balance: 11, amount_due: 94, amount_remaining: 94, status: 'open' })
  expect(await accountOf(app, globex.org.id)).toMatchObject({ credit_balance: 0 })
  // Voided, it gives the credit back.
  expect(await json<Invoice>(await client.move(next.id, 'void'))).toMatchObject({ status: 'void', applied_balance: 11 })
  expect(await accountOf(app, globex.org.id)).toMatchObject({ credit_balance: 11 })
  await setAccount(app, globex.org.id, { tax_rate_bps: 0, credit_balance: 0 })
})

test('a credit larger than the invoice pays it at once; a credit in another currency is not taken', async () => {
  await setAccount(app, acme.org.id, { credit_balance: 2500, balance_currency: 'usd' })
  const covered = await finalize(await client.draft(acme, [line(1000)]))
  expect(covered).toMatchObject({ status: 'paid', total: 1000, applied_balance: 1000, amount_due: 0, amount_remaining: 0 })
  expect(await accountOf(app, acme.org.id)).toMatchObject({ credit_balance: 1500 })
  const euros = await finalize(await client.draft(acme, [line(700)], { currency: 'EUR' }))
  expect(euros).toMatchObject({ currency: 'eur', applied_balance: 0, amount_due: 700, status: 'open' })
  // A negative euro total cannot join a dollar credit: 409, the invoice stays a draft and takes no number.
  const refused = await client.draft(acme, [line(-300)], { currency: 'eur' })
  await expectError(await client.move(refused.id, 'finalize'), 409, 'CONFLICT')
  expect(await client.get(refused.id)).toMatchObject({ status: 'draft', number: null })
  const after = await finalize(await client.draft(acme, [line(1)]))
  expect(Number(after.number?.slice(4))).toBe(Number(euros.number?.slice(4)) + 1)
  await setAccount(app, acme.org.id, { credit_balance: 0 })
})

test('the customer details, the due date and the first payment attempt are set on finalization', async () => {
  const t = app.clock.now()
  // No billing name: the organization's name.
  const plain = await finalize(await client.get((await fn.charged(globex.org.id, 500)).id))
  expect(plain).toMatchObject({ customer: { name: 'GLOBEX', email: null, address: null }, collection_method: 'charge_automatically' })
  expect(plain.due_date).toBe(new Date(t).toISOString())
  expect(plain.next_payment_attempt).toBe(new Date(t).toISOString())
  await setAccount(app, globex.org.id, {
    billing_name: 'Globex Corporation',
    billing_email: 'ap@globex.test',
    billing_address: '1 Globex Way\nCypress Creek',
    days_until_due: 14,
  })
  // With the manual provider a one-off invoice is sent (send_invoice) unless told otherwise.
  const sent = await finalize(await client.draft(globex, [line(500)]))
  expect(sent).toMatchObject({
    collection_method: 'send_invoice',
    customer: { name: 'Globex Corporation', email: 'ap@globex.test', address: '1 Globex Way\nCypress Creek' },
  })
  expect(sent.due_date).toBe(new Date(t + 14 * DAY).toISOString())
  expect(sent.next_payment_attempt).toBe(sent.due_date)
  // Details changed later leave a finalized invoice as issued.
  await setAccount(app, globex.org.id, { billing_name: 'Someone else' })
  expect((await client.get(sent.id)).customer.name).toBe('Globex Corporation')
  // The cron loop's list: open invoices whose attempt is due.
  const due = (await fn.due()).map((row) => row.id)
  expect(due).toContain(plain.id)
  expect(due).not.toContain(sent.id)
})

test('payments in parts, more than remains refused, and invoice.paid with the full invoice', async () => {
  const open = await finalize(await client.draft(acme, [line(2000), { description: 'Credit', quantity: 1, unit_amount: -500 }]))
  expect(open.amount_due).toBe(1500)
  expect((await fn.pay(open.id, 600)).status).toBe('open')
  expect(await client.get(open.id)).toMatchObject({ status: 'open', amount_paid: 600, amount_remaining: 900 })
  expect(await fn.pay(open.id, 901).catch((e: { code: string }) => e.code)).toBe('CONFLICT')
  expect(await fn.pay(open.id, 0).catch((e: { code: string }) => e.code)).toBe('VALIDATION_FAILED')
  expect(await invoiceEvents(app, open.id)).toEqual([])
  await fn.pay(open.id, 900)
  const paid = await client.get(open.id)
  expect(paid).toMatchObject({ status: 'paid', amount_paid: 1500, amount_remaining: 0 })
  const events = await invoiceEvents(app, open.id)
  expect(events.map((e) => e.type)).toEqual(['invoice.paid'])
  expect(events[0]!.data.invoice).toEqual(paid)
  expect(events[0]!.data.invoice.lines.map((l) => l.amount)).toEqual([2000, -500])
  // Payments on it: it cannot be voided any more (nor could it, being paid); a part-paid open one neither.
  const part = await finalize(await client.draft(acme, [line(1000)]))
  await fn.pay(part.id, 1)
  await expectError(await client.move(part.id, 'void'), 409, 'CONFLICT')
})

test('failed attempts follow the retry schedule from the first failure, each with invoice.failed', async () => {
  const open = await finalize(await client.get((await fn.charged(acme.org.id, 800)).id))
  const first = app.clock.now()
  const one = await fn.fail(open.id)
  expect(one).toMatchObject({
    retriesExhausted: false,
    invoice: { attempt_count: 1, first_failed_at: first, next_payment_attempt: first + DAY },
  })
  app.clock.advance(DAY)
  const two = await fn.fail(open.id, 'insufficient_funds')
  expect(two).toMatchObject({ retriesExhausted: false, invoice: { attempt_count: 2, next_payment_attempt: first + 3 * DAY } })
  app.clock.advance(2 * DAY)
  const three = await fn.fail(open.id)
  expect(three).toMatchObject({ retriesExhausted: true, invoice: { attempt_count: 3, next_payment_attempt: null } })
  const events = await invoiceEvents(app, open.id)
  expect(events.map((e) => [e.type, e.data.invoice.attempt_count, e.data.error?.code])).toEqual([
    ['invoice.failed', 1, 'card_declined'],
    ['invoice.failed', 2, 'insufficient_funds'],
    ['invoice.failed', 3, 'card_declined'],
  ])
  expect(events[2]!.data.invoice).toEqual(await client.get(open.id))
  expect(events[2]!.data.invoice.status).toBe('open')
})
