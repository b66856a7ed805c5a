// Drafts: made by the subscriptions (a period, a plan change) or by the operator (a one-off invoice),
// inside the caller's transaction. A draft's subtotal is the sum of its lines (a credit line is
// negative); its tax and totals are an estimate at the account's rate until finalization sets them.
// A draft has no number; it may be deleted (its row and lines go).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { validationError } from '../../../errors.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { ensureBillingAccountInTx } from '../accounts/account.ts'
import { isWithinMaxAmount, MAX_AMOUNT_TEXT, taxOf } from '../money.ts'
import type { BillingReason, CollectionMethod, LineKind, PlanId } from '../table.ts'
import { auditInvoice } from './events.ts'
import { assertInvoiceTransition } from './lifecycle.ts'
import { loadInvoiceInTx } from './lock.ts'
import { deleteInvoiceRow, type InvoiceLineRow, type InvoiceRow, insertInvoice } from './store.ts'

export interface NewInvoiceLine {
  kind: LineKind
  description: string
  plan_id?: PlanId | null
  price_id?: string | null
  quantity: number
  unit_amount: number
  /** Usually quantity × unit_amount; a proration's is its prorated part. Negative: a credit. */
  amount: number
  period_start?: number | null
  period_end?: number | null
}

export interface NewDraftInvoice {
  organizationId: string
  subscriptionId: string | null
  billingReason: BillingReason
  collectionMethod: CollectionMethod
  /** Lowercase ISO 4217. */
  currency: string
  lines: NewInvoiceLine[]
  periodStart: number | null
  periodEnd: number | null
  description?: string | null
  metadata?: Record<string, string>
  now: number
}

function checkLine(line: NewInvoiceLine, index: number): void {
  const whole = (n: number) => Number.isSafeInteger(n)
  if (!whole(line.quantity) || line.quantity < 0 || !whole(line.unit_amount) || !whole(line.amount))
    throw validationError([{ field: `lines[${index}]`, message: 'quantity, unit_amount and amount must be whole numbers (minor units)' }])
  if (!isWithinMaxAmount(line.amount))
    throw validationError([
      { field: `lines[${index}]`, message: `the line's amount (${line.amount}) is beyond ±${MAX_AMOUNT_TEXT} minor units` },
    ])
}

/** Subtotal and total (tax at `rateBps`) within ±MAX_AMOUNT, else 400 naming `field`. */
export function checkInvoiceAmounts(subtotal: number, rateBps: number, field: string): void {
  if (!isWithinMaxAmount(subtotal))
    throw validationError([{ field, message: `the sum of the lines (${subtotal}) is beyond ±${MAX_AMOUNT_TEXT} minor units` }])
  const total = subtotal + taxOf(subtotal, rateBps)
  if (!isWithinMaxAmount(total))
    throw validationError([{ field, message: `the total with tax at ${rateBps} bps (${total}) is beyond ±${MAX_AMOUNT_TEXT} minor units` }])
}

/** An invoice's amounts before finalization: tax estimated at `rateBps`, no balance applied yet. */
export function draftAmounts(subtotal: number, rateBps: number) {
  const tax = taxOf(subtotal, rateBps)
  const total = subtotal + tax
  const due = Math.max(total, 0)
  return { subtotal, tax_rate_bps: rateBps, tax, total, applied_balance: 0, amount_due: due, amount_paid: 0, amount_remaining: due }
}

export async function createDraftInvoiceInTx(tx: Tx, ctx: Ctx, input: NewDraftInvoice): Promise<InvoiceRow> {
  input.lines.forEach(checkLine)
  const account = await ensureBillingAccountInTx(tx, input.organizationId, input.now)
  // Lines of ±MAX_AMOUNT each, 100 at most (the API's limit; a subscription's invoice has two): their sum
  // is exact, then bounded together with the tax it would take now.
  const subtotal = input.lines.reduce((sum, line) => sum + line.amount, 0)
  checkInvoiceAmounts(subtotal, Number(account.tax_rate_bps), 'lines')
  const id = prefixedId('in')
  const row: InvoiceRow = {
    id,
    organization_id: input.organizationId,
    subscription_id: input.subscriptionId,
    number: null,
    status: 'draft',
    billing_reason: input.billingReason,
    collection_method: input.collectionMethod,
    currency: input.currency,
    ...draftAmounts(subtotal, Number(account.tax_rate_bps)),
    period_start: input.periodStart,
    period_end: input.periodEnd,
    due_date: null,
    attempt_count: 0,
    next_payment_attempt: null,
    first_failed_at: null,
    customer_name: null,
    customer_email: null,
    customer_address: null,
    description: input.description ?? null,
    finalized_at: null,
    paid_at: null,
    voided_at: null,
    marked_uncollectible_at: null,
    metadata: JSON.stringify(input.metadata ?? {}),
    created_at: input.now,
    updated_at: input.now,
  }
  const lines: InvoiceLineRow[] = input.lines.map((line, i) => ({
    id: prefixedId('il'),
    invoice_id: id,
    organization_id: input.organizationId,
    line_number: i + 1,
    kind: line.kind,
    description: line.description,
    plan_id: line.plan_id ?? null,
    price_id: line.price_id ?? null,
    quantity: line.quantity,
    unit_amount: line.unit_amount,
    amount: line.amount,
    period_start: line.period_start ?? null,
    period_end: line.period_end ?? null,
  }))
  await insertInvoice(tx, row, lines)
  await auditInvoice(tx, ctx, 'invoice.created', row, input.now, {
    billing_reason: row.billing_reason,
    subscription_id: row.subscription_id,
  })
  return row
}

/** Deletes a draft (409 for any other status). */
export async function deleteDraftInvoiceInTx(tx: Tx, ctx: Ctx, invoiceId: string, now: number): Promise<InvoiceRow> {
  // Locked: a delete racing a finalization of the same draft finds it open (409), never deletes it numbered.
  const row = await loadInvoiceInTx(tx, invoiceId)
  assertInvoiceTransition(row.status, 'deleted')
  await deleteInvoiceRow(tx, row.id)
  await auditInvoice(tx, ctx, 'invoice.deleted', row, now)
  return row
}
