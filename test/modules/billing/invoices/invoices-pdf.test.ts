// The invoice PDF as a reader sees it: downloaded as an attachment named after its number, opened with
// pdftotext (Debian's poppler-utils), showing the issuer, the customer, the number and dates, each line,
// the totals in the currency's minor units, and the status once paid, void or uncollectible; the same
// invoice gives the same bytes; a draft has none (409); characters Helvetica cannot show are replaced.
import { expect, test } from 'bun:test'
import { tempDirs } from '../../../helpers/app.ts'
import { expectError, invoiceFunctions, invoicesApp, invoicesClient, setAccount } from './invoices-api.ts'

const { app, acme, operator } = await invoicesApp({ settings: { INVOICE_ISSUER: 'Hosting Ltd\\n10 Main Street\\nLondon EC1A 1BB' } })
const client = invoicesClient(app, operator)
const fn = invoiceFunctions(app)
const admin = acme.users.admin.auth
const dir = tempDirs('invoice-pdf-')()

async function download(id: string): Promise<{ response: Response; bytes: Uint8Array }> {
  const response = await client.send('GET', `/api/v1/billing/invoices/${id}/pdf`, admin)
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}

/** The text pdftotext reads from the PDF (layout kept), with runs of spaces made one. */
async function textOf(bytes: Uint8Array, name: string): Promise<string> {
  const file = `${dir}/${name}.pdf`
  await Bun.write(file, bytes)
  const run = Bun.spawnSync(['pdftotext', '-layout', file, '-'])
  expect(run.exitCode).toBe(0)
  return run.stdout.toString().replace(/[ \t]+/g, ' ')
}

test('a paid invoice: issuer, customer, number, dates, lines, totals, balance, status', async () => {
  await setAccount(app, acme.org.id, {
    tax_rate_bps: 1950,
    billing_name: 'Zoë Őrs – 東京 Trading',
    billing_email: 'ap@acme.test',
    billing_address: '1 Rue de la Paix\n75002 Paris\nFrance',
    credit_balance: 1000,
    balance_currency: 'usd',
  })
  const draft = await client.draft(
    acme,
    [
      { description: 'Consulting hours', quantity: 3, unit_amount: 1000 },
      { description: 'Goodwill credit', quantity: 1, unit_amount: -500 },
    ],
    { description: 'Work of January' },
  )
  expect((await client.move(draft.id, 'finalize')).status).toBe(200)
  const invoice = await client.get(draft.id, admin)
  // 2500 + 19.5 % (487.5 -> 488) = 2988, less the 1000 credit: 1988 due.
  expect(invoice).toMatchObject({ subtotal: 2500, tax: 488, total: 2988, applied_balance: 1000, amount_due: 1988 })
  await fn.pay(invoice.id, 1988)

  const { response, bytes } = await download(invoice.id)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/pdf')
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`)
  const text = await textOf(bytes, 'paid')
  const day = new Date(app.clock.now()).toISOString().slice(0, 10)
  for (const expected of [
    'Invoice',
    `PAID on ${day}`,
    `Invoice number ${invoice.number}`,
    `Date of issue ${day}`,
    `Date due ${new Date(app.clock.now() + 30 * 86_400_000).toISOString().slice(0, 10)}`,
    'Hosting Ltd',
    '10 Main Street',
    'London EC1A 1BB',
    // ë is in WinAnsi; Ő loses its accent; the en dash is WinAnsi; 東京 cannot be shown.
    'Zoë Ors – ?? Trading',
    'ap@acme.test',
    '1 Rue de la Paix',
    '75002 Paris',
    'France',
    'Work of January',
    'Description Qty Unit price Amount',
    'Consulting hours 3 10.00 USD 30.00 USD',
    'Goodwill credit 1 -5.00 USD -5.00 USD',
    'Subtotal 25.00 USD',
    'Tax (19.5%) 4.88 USD',
    'Total 29.88 USD',
    'Applied balance -10.00 USD',
    'Amount due 19.88 USD',
    'Amount paid 19.88 USD',
    'Amount remaining 0.00 USD',
    `${invoice.number} - Page 1 of 1`,
  ])
    expect(text).toContain(expected)
  // The same invoice, the same bytes.
  expect(Buffer.from((await download(invoice.id)).bytes).equals(Buffer.from(bytes))).toBe(true)
  await setAccount(app, acme.org.id, { tax_rate_bps: 0, billing_name: null, credit_balance: 0 })
})

test('an open invoice shows no status; void and uncollectible ones say so; zero-decimal currencies', async () => {
  const open = await client.open(acme, 123_456, { currency: 'jpy' })
  const openText = await textOf((await download(open.id)).bytes, 'open')
  expect(openText).toContain('Amount remaining 123,456 JPY')
  expect(openText).toContain('Tax (0%) 0 JPY')
  expect(openText).toContain('Bill to')
  expect(openText).toContain('ACME')
  for (const word of ['PAID', 'VOID', 'UNCOLLECTIBLE']) expect(openText).not.toContain(word)
  await client.move(open.id, 'mark-uncollectible')
  expect(await textOf((await download(open.id)).bytes, 'uncollectible')).toContain('UNCOLLECTIBLE since')
  await client.move(open.id, 'void')
  expect(await textOf((await download(open.id)).bytes, 'void')).toContain('VOID since')
})

test('a long invoice runs onto more pages, each line shown once', async () => {
  const lines = Array.from({ length: 70 }, (_, i) => ({
    description: `Line number ${i + 1} of the long invoice`,
    quantity: i + 1,
    unit_amount: 100,
  }))
  const draft = await client.draft(acme, lines)
  await client.move(draft.id, 'finalize')
  const text = await textOf((await download(draft.id)).bytes, 'long')
  expect(text).toMatch(/Page 1 of [2-9]/)
  for (let i = 1; i <= 70; i++) expect(text.split(`Line number ${i} of the long invoice`).length).toBe(2)
  // 100 × (1 + 2 + … + 70) = 248,500 cents.
  expect(text).toContain('Total 2,485.00 USD')
})

test('a draft has no PDF (409); a missing invoice is 404', async () => {
  const draft = await client.draft(acme, [{ description: 'Item', quantity: 1, unit_amount: 100 }])
  await expectError(await client.send('GET', `/api/v1/billing/invoices/${draft.id}/pdf`, admin), 409, 'CONFLICT')
  await expectError(await client.send('GET', '/api/v1/billing/invoices/in_missing/pdf', admin), 404, 'NOT_FOUND')
})
