// Closing an invoice without payment, inside the caller's transaction: void (open or uncollectible:
// the credit balance it took goes back to the organization) and mark uncollectible (open: no more
// payment attempts, yet it may still be paid or voided). Neither has an event; both are audited.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { addCreditInTx } from '../accounts/account.ts'
import { auditInvoice } from './events.ts'
import { assertInvoiceTransition } from './lifecycle.ts'
import { loadInvoiceInTx } from './lock.ts'
import { type InvoiceRow, saveInvoice } from './store.ts'

export async function voidInvoiceInTx(tx: Tx, ctx: Ctx, invoiceId: string, now: number): Promise<InvoiceRow> {
  // Locked: a payment at the same moment lands before (409 here) or finds it void; never a voided invoice with a payment.
  const invoice = await loadInvoiceInTx(tx, invoiceId)
  assertInvoiceTransition(invoice.status, 'void')
  // Stripe refuses to void an invoice with payments on it: they would have to be refunded first.
  if (Number(invoice.amount_paid) > 0)
    throw new AppError('CONFLICT', `Invoice ${invoice.number} has payments (${invoice.amount_paid}): it cannot be voided`)
  const applied = Number(invoice.applied_balance)
  if (applied > 0) await addCreditInTx(tx, invoice.organization_id, { amount: applied, currency: invoice.currency, now })
  const voided: InvoiceRow = { ...invoice, status: 'void', voided_at: now, next_payment_attempt: null, updated_at: now }
  await saveInvoice(tx, voided)
  await auditInvoice(tx, ctx, 'invoice.voided', voided, now, applied > 0 ? { credit_returned: applied } : {})
  return voided
}

export async function markInvoiceUncollectibleInTx(tx: Tx, ctx: Ctx, invoiceId: string, now: number): Promise<InvoiceRow> {
  // Locked: the status moves once, from what it is now.
  const invoice = await loadInvoiceInTx(tx, invoiceId)
  assertInvoiceTransition(invoice.status, 'uncollectible')
  const marked: InvoiceRow = {
    ...invoice,
    status: 'uncollectible',
    marked_uncollectible_at: now,
    next_payment_attempt: null,
    updated_at: now,
  }
  await saveInvoice(tx, marked)
  await auditInvoice(tx, ctx, 'invoice.marked_uncollectible', marked, now)
  return marked
}
