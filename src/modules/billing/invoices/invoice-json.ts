// An invoice as the API and its events (data.invoice) show it: Stripe's fields, money in integer minor
// units, times RFC 3339, the customer's details as they were at finalization.
import { isoTime } from '../../../lib/clock.ts'
import type { InvoiceLineRow, InvoiceRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

/** Where an invoice's PDF is read (a finalized invoice's; a draft has none). */
export function invoicePdfPath(id: string): string {
  return `/api/v1/billing/invoices/${id}/pdf`
}

/**
 * Unused time of a later subscription change taken off the invoice while it was owed (credit.ts): what
 * lowered amount_due below total - applied_balance, where finalization set it. A draft has none.
 */
export function amountCredited(row: InvoiceRow): number {
  return row.status === 'draft' ? 0 : Number(row.total) - Number(row.applied_balance) - Number(row.amount_due)
}

export function invoiceLineJson(line: InvoiceLineRow) {
  return {
    id: line.id,
    kind: line.kind,
    description: line.description,
    plan: line.plan_id,
    price_id: line.price_id,
    quantity: Number(line.quantity),
    unit_amount: Number(line.unit_amount),
    amount: Number(line.amount),
    period_start: time(line.period_start),
    period_end: time(line.period_end),
  }
}

export function invoiceJson(row: InvoiceRow, lines: readonly InvoiceLineRow[]) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    subscription_id: row.subscription_id,
    number: row.number,
    status: row.status,
    billing_reason: row.billing_reason,
    collection_method: row.collection_method,
    currency: row.currency,
    lines: lines.map(invoiceLineJson),
    subtotal: Number(row.subtotal),
    tax_rate_bps: Number(row.tax_rate_bps),
    tax: Number(row.tax),
    total: Number(row.total),
    applied_balance: Number(row.applied_balance),
    amount_credited: amountCredited(row),
    amount_due: Number(row.amount_due),
    amount_paid: Number(row.amount_paid),
    amount_remaining: Number(row.amount_remaining),
    period_start: time(row.period_start),
    period_end: time(row.period_end),
    due_date: time(row.due_date),
    attempt_count: Number(row.attempt_count),
    next_payment_attempt: time(row.next_payment_attempt),
    customer: { name: row.customer_name, email: row.customer_email, address: row.customer_address },
    description: row.description,
    pdf_url: row.status === 'draft' ? null : invoicePdfPath(row.id),
    status_transitions: {
      finalized_at: time(row.finalized_at),
      paid_at: time(row.paid_at),
      voided_at: time(row.voided_at),
      marked_uncollectible_at: time(row.marked_uncollectible_at),
    },
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type InvoiceJson = ReturnType<typeof invoiceJson>
