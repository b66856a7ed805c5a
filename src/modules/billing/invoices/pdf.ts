// The PDF of a finalized invoice (pdf-lib, the standard Helvetica fonts, A4): the issuer, the customer,
// the number and dates, each line, the totals in the currency's minor units, and the status once paid,
// void or uncollectible. The same invoice gives the same bytes: no clock, its own times as the dates.
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib'
import { formatMoney } from '../money.ts'
import { amountCredited } from './invoice-json.ts'
import { pdfDate, percentOfBps, winAnsiText, wrapText } from './pdf-text.ts'
import type { InvoiceLineRow, InvoiceRow } from './store.ts'

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 50
const RIGHT = A4[0] - MARGIN
const SIZE = 10
const LEADING = 14
// The lines' table: description on the left, then quantity, unit price and amount aligned right.
const COLUMNS = { description: MARGIN, descriptionWidth: 250, quantity: 360, unitPrice: 455, amount: RIGHT }

interface Text {
  size?: number
  bold?: boolean
  align?: 'left' | 'right'
}

/** Pages written top to bottom; a new page when the next row does not fit. */
class Sheet {
  page: PDFPage
  y = A4[1] - MARGIN
  constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.page = doc.addPage(A4)
  }
  room(height: number): void {
    if (this.y - height >= MARGIN + 20) return
    this.page = this.doc.addPage(A4)
    this.y = A4[1] - MARGIN
  }
  draw(x: number, text: string, options: Text = {}): void {
    const font = options.bold ? this.bold : this.font
    const size = options.size ?? SIZE
    const shown = winAnsiText(font, text)
    const left = options.align === 'right' ? x - font.widthOfTextAtSize(shown, size) : x
    this.page.drawText(shown, { x: left, y: this.y, size, font })
  }
  line(x: number, text: string, options: Text = {}): void {
    this.room(LEADING)
    this.draw(x, text, options)
    this.y -= LEADING
  }
  gap(height = LEADING): void {
    this.y -= height
  }
  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y + 10 }, end: { x: RIGHT, y: this.y + 10 }, thickness: 0.5 })
  }
}

const STATUS_LABELS: Partial<Record<InvoiceRow['status'], (invoice: InvoiceRow) => string>> = {
  paid: (i) => `PAID${i.paid_at === null ? '' : ` on ${pdfDate(Number(i.paid_at))}`}`,
  void: (i) => `VOID${i.voided_at === null ? '' : ` since ${pdfDate(Number(i.voided_at))}`}`,
  uncollectible: (i) => `UNCOLLECTIBLE${i.marked_uncollectible_at === null ? '' : ` since ${pdfDate(Number(i.marked_uncollectible_at))}`}`,
}

function period(start: number | null, end: number | null): string | undefined {
  return start === null || end === null ? undefined : `${pdfDate(Number(start))} to ${pdfDate(Number(end))}`
}

/** The totals block: label and amount, right-aligned under the lines. */
function totals(invoice: InvoiceRow): [string, number, boolean?][] {
  const rows: [string, number, boolean?][] = [
    ['Subtotal', Number(invoice.subtotal)],
    [`Tax (${percentOfBps(Number(invoice.tax_rate_bps))})`, Number(invoice.tax)],
    ['Total', Number(invoice.total), true],
  ]
  const applied = Number(invoice.applied_balance)
  if (applied !== 0) rows.push(['Applied balance', -applied])
  const credited = amountCredited(invoice)
  if (credited !== 0) rows.push(['Credited (unused time)', -credited])
  rows.push(['Amount due', Number(invoice.amount_due), true], ['Amount paid', Number(invoice.amount_paid)])
  rows.push(['Amount remaining', Number(invoice.amount_remaining), true])
  return rows
}

export async function renderInvoicePdf(
  invoice: InvoiceRow,
  lines: readonly InvoiceLineRow[],
  issuer: readonly string[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const finalized = new Date(Number(invoice.finalized_at ?? invoice.created_at))
  doc.setTitle(`Invoice ${invoice.number ?? invoice.id}`)
  doc.setAuthor(issuer[0] ?? 'Switchboard')
  doc.setCreator('Switchboard')
  doc.setProducer('Switchboard (pdf-lib)')
  doc.setCreationDate(finalized)
  doc.setModificationDate(new Date(Number(invoice.updated_at)))
  const sheet = new Sheet(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold))
  const money = (amount: number) => formatMoney(amount, invoice.currency)

  sheet.draw(MARGIN, 'Invoice', { size: 20, bold: true })
  const label = STATUS_LABELS[invoice.status]?.(invoice)
  if (label) sheet.draw(RIGHT, label, { size: 14, bold: true, align: 'right' })
  sheet.gap(30)
  const facts: [string, string | undefined][] = [
    ['Invoice number', invoice.number ?? undefined],
    ['Date of issue', pdfDate(finalized.getTime())],
    ['Date due', invoice.due_date === null ? undefined : pdfDate(Number(invoice.due_date))],
    ['Period', period(invoice.period_start, invoice.period_end)],
  ]
  for (const [name, value] of facts)
    if (value !== undefined) {
      sheet.draw(MARGIN, name, { bold: true })
      sheet.line(MARGIN + 110, value)
    }
  sheet.gap()
  const customer = [invoice.customer_name, invoice.customer_email, ...(invoice.customer_address ?? '').split('\n')]
  const from = issuer.length > 0 ? issuer : ['Switchboard']
  const to = customer.map((l) => l?.trim() ?? '').filter((l) => l !== '')
  sheet.draw(MARGIN, 'From', { bold: true })
  sheet.line(300, 'Bill to', { bold: true })
  for (let i = 0; i < Math.max(from.length, to.length); i++) {
    sheet.draw(MARGIN, from[i] ?? '')
    sheet.line(300, to[i] ?? '')
  }
  if (invoice.description) {
    sheet.gap()
    for (const text of wrapText(sheet.font, winAnsiText(sheet.font, invoice.description), SIZE, RIGHT - MARGIN)) sheet.line(MARGIN, text)
  }
  sheet.gap(LEADING * 1.5)
  const header = () => {
    sheet.room(LEADING * 3)
    sheet.draw(COLUMNS.description, 'Description', { bold: true })
    sheet.draw(COLUMNS.quantity, 'Qty', { bold: true, align: 'right' })
    sheet.draw(COLUMNS.unitPrice, 'Unit price', { bold: true, align: 'right' })
    sheet.line(COLUMNS.amount, 'Amount', { bold: true, align: 'right' })
    sheet.rule()
  }
  header()
  for (const line of lines) {
    const text = wrapText(sheet.font, winAnsiText(sheet.font, line.description), SIZE, COLUMNS.descriptionWidth)
    const when = period(line.period_start, line.period_end)
    const page = sheet.page
    sheet.room(LEADING * (text.length + (when ? 1 : 0)))
    if (sheet.page !== page) header()
    sheet.draw(COLUMNS.quantity, String(line.quantity), { align: 'right' })
    sheet.draw(COLUMNS.unitPrice, money(Number(line.unit_amount)), { align: 'right' })
    sheet.draw(COLUMNS.amount, money(Number(line.amount)), { align: 'right' })
    for (const part of text) sheet.line(COLUMNS.description, part)
    if (when) sheet.line(COLUMNS.description, when, { size: 8 })
  }
  sheet.gap(LEADING / 2)
  sheet.room(LEADING * 8)
  sheet.rule()
  for (const [name, amount, strong] of totals(invoice)) {
    sheet.draw(COLUMNS.unitPrice, name, { bold: strong, align: 'right' })
    sheet.line(COLUMNS.amount, money(amount), { bold: strong, align: 'right' })
  }
  const pages = doc.getPages()
  pages.forEach((page, i) => {
    const footer = winAnsiText(sheet.font, `${invoice.number ?? ''}  -  Page ${i + 1} of ${pages.length}`)
    page.drawText(footer, { x: MARGIN, y: MARGIN - 20, size: 8, font: sheet.font })
  })
  return doc.save({ useObjectStreams: false })
}
