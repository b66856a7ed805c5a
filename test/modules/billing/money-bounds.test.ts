// Every money figure is bounded (issue 27 #5c): a line, an invoice's subtotal and total with tax, a
// credit balance, a payment stay within ±10^13 minor units, and a subscription's price × quantity within
// half of it (so that its invoices stay within the bound at any tax rate, up to 100 %). Past it: 400
// naming the field, and nothing is written — never a total beyond Number.MAX_SAFE_INTEGER.
import { expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { accountOf, expectError, type Invoice, invoicesApp, invoicesClient, setAccount } from './invoices/invoices-api.ts'
import { type Subscription, subscriptionsApp } from './subscriptions/subscriptions-api.ts'

const MAX = 10_000_000_000_000
const { app, acme, operator } = await invoicesApp()
const client = invoicesClient(app, operator)
const line = (quantity: number, unit_amount: number) => ({ description: 'Item', quantity, unit_amount })
const createDraft = (lines: ReturnType<typeof line>[]) =>
  client.send('POST', `/api/v1/operator/organizations/${acme.org.id}/invoices`, operator, { currency: 'usd', lines })
const setTaxRate = async (bps: number) =>
  expect(
    (await client.send('PATCH', `/api/v1/operator/organizations/${acme.org.id}/billing`, operator, { tax_rate_bps: bps })).status,
  ).toBe(200)
const invoiceCount = async () => Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM invoices'))!.n)

test('an operator invoice of 9,000 × 10^12 with 100 % tax (1.8e16) is 400 naming the line; nothing is written', async () => {
  await setTaxRate(10_000)
  const before = await invoiceCount()
  const body = await expectError(await createDraft([line(9000, 1e12)]), 400, 'VALIDATION_FAILED', 'lines[0]')
  expect(body.errors![0]!.message).toContain('10,000,000,000,000')
  // Lines within the bound whose sum is not, or whose total with tax is not.
  await expectError(await createDraft([line(6, 1e12), line(6, 1e12)]), 400, 'VALIDATION_FAILED', 'lines')
  await expectError(await createDraft([line(8, 1e12)]), 400, 'VALIDATION_FAILED', 'lines')
  await expectError(await createDraft([line(11, -1e12)]), 400, 'VALIDATION_FAILED', 'lines[0]')
  expect(await invoiceCount()).toBe(before)
  await setTaxRate(0)
})

test('a draft within the bound whose tax rate rose since: finalizing it is 400 naming total, and takes no number', async () => {
  const draft = await json<Invoice>(await createDraft([line(8, 1e12)]))
  expect(draft.total).toBe(8e12)
  await setTaxRate(10_000)
  await expectError(await client.move(draft.id, 'finalize'), 400, 'VALIDATION_FAILED', 'total')
  expect(await client.get(draft.id)).toMatchObject({ status: 'draft', number: null })
  await setTaxRate(0)
})

test('exactly the bound is taken: an invoice of 10^13, paid by a transfer of 10^13; one more is 400', async () => {
  const full = await json<Invoice>(await createDraft([line(10, 1e12)]))
  expect(full.total).toBe(MAX)
  expect((await client.move(full.id, 'finalize')).status).toBe(200)
  const record = (amount: number) =>
    client.send('POST', `/api/v1/operator/invoices/${full.id}/payments`, operator, { amount, reference: 'WIRE' })
  await expectError(await record(MAX + 1), 400, 'VALIDATION_FAILED', 'amount')
  expect((await record(MAX)).status).toBe(201)
  expect(await client.get(full.id)).toMatchObject({ status: 'paid', amount_paid: MAX })
})

test('a credit balance never passes the bound: a negative total that would is 400 naming credit_balance', async () => {
  await setAccount(app, acme.org.id, { credit_balance: MAX - 10, balance_currency: 'usd' })
  const credit = await json<Invoice>(await createDraft([line(1, -11)]))
  await expectError(await client.move(credit.id, 'finalize'), 400, 'VALIDATION_FAILED', 'credit_balance')
  expect(await accountOf(app, acme.org.id)).toMatchObject({ credit_balance: MAX - 10 })
  await setAccount(app, acme.org.id, { credit_balance: 0, balance_currency: null })
})

test('a subscription: price × quantity above 5 × 10^12 is 400 naming quantity; renewals at the limit stay in bounds at 100 % tax', async () => {
  const t = await subscriptionsApp({ start: Date.UTC(2026, 2, 1) })
  await t.setPrices('starter', [{ currency: 'usd', interval: 'month', unit_amount: 999_999_999_999 }])
  // 6 × 999,999,999,999 (and 10,000 seats: 10^16) is more than a period may bill.
  await expectError(await t.subscribe(t.acme, { plan: 'starter', quantity: 6 }), 400, 'VALIDATION_FAILED', 'quantity')
  await expectError(await t.subscribe(t.acme, { plan: 'starter', quantity: 10_000 }), 400, 'VALIDATION_FAILED', 'quantity')
  expect((await t.getSub(t.acme)).status).toBe(404)

  const sub = await t.ok<Subscription>(await t.subscribe(t.acme, { plan: 'starter', quantity: 5 }), 201)
  expect((await t.invoice(t.acme, sub.latest_invoice_id!)).total).toBe(4_999_999_999_995)
  // A change past the limit is refused too, and changes nothing.
  await expectError(await t.subscribe(t.acme, { quantity: 6 }), 400, 'VALIDATION_FAILED', 'quantity')
  expect((await t.current(t.acme)).quantity).toBe(5)

  const patch = await t.app.request(`/api/v1/operator/organizations/${t.acme.org.id}/billing`, {
    method: 'PATCH',
    headers: { ...t.operator, 'content-type': 'application/json' },
    body: JSON.stringify({ tax_rate_bps: 10_000 }),
  })
  expect(patch.status).toBe(200)
  await t.cronAt(Date.UTC(2026, 3, 1))
  const renewal = await t.invoice(t.acme, (await t.current(t.acme)).latest_invoice_id!)
  expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', subtotal: 4_999_999_999_995, total: 9_999_999_999_990 })
})
