// Proration credits only what was paid (issue 27 #4): a change's credit for unused time goes first to
// what the subscription still owes for that period (its open invoices, oldest first, as Stripe's
// pre-payment credit note: amount_credited), and only the rest becomes account credit. Unpaid, partly
// paid and two-invoice periods, figures worked out by hand.
import { expect, test } from 'bun:test'
import { tempDirs } from '../../../helpers/app.ts'
import { DAY, type Invoice, type Subscription, subscriptionsApp } from './subscriptions-api.ts'

const MARCH_1 = Date.UTC(2026, 2, 1)
const tempDir = tempDirs('unpaid-credit-')
type Settings = { credit_balance: number }

async function appWithStarter() {
  const t = await subscriptionsApp({ start: MARCH_1 })
  await t.setPrices('starter', [{ currency: 'usd', interval: 'month', unit_amount: 2900 }])
  const credit = async (org: typeof t.acme) => (await t.ok<Settings>(await t.send(org, 'GET', '/api/v1/billing/settings'))).credit_balance
  const latest = async (org: typeof t.acme): Promise<Invoice> => t.invoice(org, (await t.current(org)).latest_invoice_id!)
  return { ...t, credit, latest }
}

test('10,000 seats invoiced and unpaid, then 1 seat: no account credit; the open invoice is credited instead', async () => {
  const t = await appWithStarter()
  const { acme } = t
  const sub = await t.ok<Subscription>(
    await t.subscribe(acme, { plan: 'starter', quantity: 10_000, collection_method: 'send_invoice' }),
    201,
  )
  const first = await t.latest(acme)
  expect(first).toMatchObject({ status: 'open', total: 29_000_000, amount_due: 29_000_000, amount_credited: 0 })

  // 2 s later, of March's 2,678,400,000 ms: credit 29,000,000 × 2,678,398,000 / 2,678,400,000 = 28,999,978.3 -> -28,999,978;
  // charge 2,900 × the same = 2,899.998 -> 2,900; total -28,997,078.
  t.app.clock.advance(2000)
  await t.ok(await t.subscribe(acme, { quantity: 1 }))
  const change = await t.latest(acme)
  expect(change.lines.map((l) => l.amount)).toEqual([-28_999_978, 2900])
  expect(change).toMatchObject({ total: -28_997_078, applied_balance: -28_997_078, amount_due: 0, status: 'paid' })
  // The unused time was never paid: it is taken off the invoice that billed it, not given as credit.
  expect(await t.credit(acme)).toBe(0)
  expect(await t.invoice(acme, first.id)).toMatchObject({
    status: 'open',
    total: 29_000_000,
    amount_credited: 28_997_078,
    amount_due: 2922,
    amount_paid: 0,
    amount_remaining: 2922,
  })
  // Its PDF shows the credit between the total and what is due.
  const pdf = new Uint8Array(await (await t.send(acme, 'GET', `/api/v1/billing/invoices/${first.id}/pdf`)).arrayBuffer())
  const file = `${tempDir()}/first.pdf`
  await Bun.write(file, pdf)
  const text = Bun.spawnSync(['pdftotext', '-layout', file, '-'])
    .stdout.toString()
    .replace(/[ \t]+/g, ' ')
  expect(text).toContain('Credited (unused time) -289,970.78 USD')
  expect(text).toContain('Amount due 29.22 USD')
  const audit = await t.app.context.db.raw.all<{ details: string }>(
    "SELECT details FROM audit_logs WHERE event = 'invoice.credited' AND target_id = ?",
    [first.id],
  )
  expect(audit.map((row) => JSON.parse(row.details))).toMatchObject([{ credited: 28_997_078, credited_by: change.id }])

  // Voided, the invoice gives back no money that was never paid.
  const voided = await t.app.request(`/api/v1/operator/invoices/${first.id}/void`, { method: 'POST', headers: t.operator })
  expect(voided.status).toBe(200)
  expect(await t.credit(acme)).toBe(0)

  // Nothing pays the next subscription's invoice.
  await t.ok(await t.cancel(acme, { at_period_end: false }))
  const next = await t.ok<Subscription>(await t.subscribe(acme, { plan: 'starter', quantity: 1 }), 201)
  expect(next.id).not.toBe(sub.id)
  expect(await t.invoice(acme, next.latest_invoice_id!)).toMatchObject({ applied_balance: 0, amount_due: 2900, status: 'open' })
})

test('partly paid: the credit pays what remains, only the rest becomes credit, taken off the renewal', async () => {
  const t = await appWithStarter()
  const { globex } = t
  await t.ok(await t.subscribe(globex, { plan: 'starter', quantity: 10 }), 201)
  const first = await t.latest(globex)
  await t.transfer(first.id, 20_000)

  // 11 March: 21 of 31 days left. Credit 29,000 × 21 / 31 = 19,645.2 -> -19,645; charge 2,900 × 21 / 31 = 1,964.5 -> 1,965.
  // Total -17,680: 9,000 still owed on the first invoice is credited (paid), 8,680 becomes account credit —
  // the 20,000 paid less 10 days of 10 seats (9,354.8) and the rest of March on 1 seat (1,964.5).
  await t.cronAt(MARCH_1 + 10 * DAY)
  await t.ok(await t.subscribe(globex, { quantity: 1 }))
  expect((await t.latest(globex)).lines.map((l) => l.amount)).toEqual([-19_645, 1965])
  expect(await t.invoice(globex, first.id)).toMatchObject({
    status: 'paid',
    amount_paid: 20_000,
    amount_credited: 9000,
    amount_due: 20_000,
    amount_remaining: 0,
  })
  expect(await t.credit(globex)).toBe(8680)

  // 1 April: the renewal (1 seat, 2,900) is paid from that credit.
  await t.cronAt(Date.UTC(2026, 3, 1))
  expect(await t.latest(globex)).toMatchObject({ total: 2900, applied_balance: 2900, amount_due: 0, status: 'paid' })
  expect(await t.credit(globex)).toBe(5780)
})

test('an upgrade keeps what is owed; a reduction then credits the oldest open invoice of the period first', async () => {
  const t = await appWithStarter()
  const { acme } = t
  // 1 March: 1 seat, 2,900, unpaid. 16.5 days later, 14.5 of 31 left: 3 seats.
  await t.ok(await t.subscribe(acme, { plan: 'starter' }), 201)
  const first = await t.latest(acme)
  await t.cronAt(MARCH_1 + 16.5 * DAY)
  await t.ok(await t.subscribe(acme, { quantity: 3 }))
  const upgrade = await t.latest(acme)
  // credit 2,900 × 14.5 / 31 = 1,356.5 -> -1,356 (.45 rounds down); charge 8,700 × 14.5 / 31 = 4,069.4 -> 4,069.
  expect(upgrade.lines.map((l) => l.amount)).toEqual([-1356, 4069])
  expect(upgrade).toMatchObject({ total: 2713, status: 'open' })
  expect((await t.invoice(acme, first.id)).amount_credited).toBe(0)

  // Back to 1 seat at once: credit -4,069, charge 1,356 -> -2,713, all of it owed on the period's invoices:
  // the first (2,900) takes it, the upgrade stays owed; no account credit.
  await t.ok(await t.subscribe(acme, { quantity: 1 }))
  expect(await t.latest(acme)).toMatchObject({ total: -2713, status: 'paid' })
  expect(await t.invoice(acme, first.id)).toMatchObject({ status: 'open', amount_credited: 2713, amount_remaining: 187 })
  expect(await t.invoice(acme, upgrade.id)).toMatchObject({ status: 'open', amount_credited: 0, amount_remaining: 2713 })
  expect(await t.credit(acme)).toBe(0)
})

// The credit reads what the open invoice still owes and reduces it; a transfer recorded at the same moment
// reads it too. Both take the subscription's row lock first (SQLite: its one writer), so either the transfer
// pays the invoice first (then the time was paid and the credit is the account's) or the credit comes
// first (then the transfer of the old amount is more than remains: 400; a paid invoice takes none: 409). Never both, never an overpaid
// invoice or a negative remainder, whichever wins.
test('a downgrade and transfers of the whole amount at the same moment: one story or the other, never both', async () => {
  const t = await appWithStarter()
  const { acme } = t
  await t.ok(await t.subscribe(acme, { plan: 'starter', quantity: 10_000, collection_method: 'send_invoice' }), 201)
  const first = await t.latest(acme)
  t.app.clock.advance(2000)
  const transfer = () =>
    t.app.request(`/api/v1/operator/invoices/${first.id}/payments`, {
      method: 'POST',
      headers: { ...t.operator, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: first.amount_remaining, reference: `wire ${crypto.randomUUID()}` }),
    })
  const [downgrade, ...transfers] = await Promise.all([t.subscribe(acme, { quantity: 1 }), ...Array.from({ length: 6 }, transfer)])
  expect(downgrade.status).toBe(200)
  const paidBy = transfers.filter((r) => r.status === 201).length
  // The others: 409 once the invoice is paid, 400 once the credit left less than their amount.
  expect(transfers.every((r) => [201, 400, 409].includes(r.status))).toBe(true)
  expect(paidBy).toBeLessThanOrEqual(1)
  const invoice = await t.invoice(acme, first.id)
  expect(invoice.amount_remaining).toBeGreaterThanOrEqual(0)
  expect(invoice.amount_paid + invoice.amount_credited).toBeLessThanOrEqual(invoice.total)
  if (paidBy === 1) {
    // Paid before the change: the unused time was paid, so it is the account's credit.
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 29_000_000, amount_credited: 0 })
    expect(await t.credit(acme)).toBe(28_997_078)
  } else {
    expect(invoice).toMatchObject({ status: 'open', amount_paid: 0, amount_credited: 28_997_078, amount_remaining: 2922 })
    expect(await t.credit(acme)).toBe(0)
  }
})
