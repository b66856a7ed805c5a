// An organization's invoices as its users read them: one by id (another organization's is 404 like a
// missing one), the keyset list with its filters, and the PDF of a finalized invoice. Drafts are shown
// as Stripe's API shows them (no number, pdf_url null) and have no PDF (409).
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../../db/list.ts'
import { AppError } from '../../../errors.ts'
import type { InvoiceStatus } from '../table.ts'
import { invoiceJson } from './invoice-json.ts'
import { renderInvoicePdf } from './pdf.ts'
import { findInvoice, findInvoiceLines, findLinesOf, INVOICE_LIST, type InvoiceLineRow, type InvoiceRow } from './store.ts'

export interface InvoiceFilters {
  status?: InvoiceStatus
  subscription_id?: string
  /** RFC 3339 times, all exclusive. */
  created_after?: string
  created_before?: string
  due_date_after?: string
  due_date_before?: string
}

const TIME_FILTERS = {
  created_after: 'invoices.created_at > ?',
  created_before: 'invoices.created_at < ?',
  due_date_after: 'invoices.due_date > ?',
  due_date_before: 'invoices.due_date < ?',
} as const

export function invoiceFilterConditions(filters: InvoiceFilters): Condition[] {
  const where: Condition[] = []
  if (filters.status !== undefined) where.push({ sql: 'invoices.status = ?', params: [filters.status] })
  if (filters.subscription_id !== undefined) where.push({ sql: 'invoices.subscription_id = ?', params: [filters.subscription_id] })
  where.push(...timeWindowConditions(filters, TIME_FILTERS))
  return where
}

export async function listInvoices(ctx: Ctx<UserActor>, input: { filters: InvoiceFilters; request: ListRequest }) {
  const page = await INVOICE_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where: invoiceFilterConditions(input.filters),
  })
  const lines = await findLinesOf(
    ctx.db,
    page.rows.map((row) => row.id),
  )
  return listBody('invoices', page, (row) => invoiceJson(row, lines.get(row.id) ?? []))
}

/** The organization's invoice with its lines, or 404 "No such invoice". */
export async function getInvoice(ctx: Ctx<UserActor>, id: string): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] }> {
  const invoice = await findInvoice(ctx.db, ctx.actor.organizationId, id)
  if (!invoice) throw new AppError('NOT_FOUND', 'No such invoice')
  return { invoice, lines: await findInvoiceLines(ctx.db, invoice.id) }
}

/** The PDF of a finalized invoice and its file name (`INV-000001.pdf`); a draft has none (409). */
export async function getInvoicePdf(ctx: Ctx<UserActor>, id: string): Promise<{ bytes: Uint8Array; filename: string }> {
  const { invoice, lines } = await getInvoice(ctx, id)
  if (invoice.status === 'draft' || invoice.number === null)
    throw new AppError('CONFLICT', 'A draft invoice has no PDF: it is made when the invoice is finalized')
  return { bytes: await renderInvoicePdf(invoice, lines, ctx.config.billing.invoiceIssuer), filename: `${invoice.number}.pdf` }
}
