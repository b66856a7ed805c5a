// A subscription change's negative total — unused time it credits — inside the finalizing transaction:
// it pays first what the subscription still owes for that time (its open or uncollectible invoices whose
// period runs past the change, oldest first), each reduced as by Stripe's pre-payment credit note
// (amount_due and amount_remaining; paid when nothing remains). Only the rest, unused time that was
// paid, becomes credit on the account: time never paid is never credit.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { addCreditInTx } from '../accounts/account.ts'
import { auditInvoice } from './events.ts'
import { markPaidInTx } from './pay.ts'
import { type InvoiceRow, listOwedInvoicesAfter, saveInvoice } from './store.ts'

export interface CreditSplit {
  /** Taken off the subscription's invoices still owed. */
  toInvoices: number
  /** Added to the organization's credit balance. */
  toBalance: number
}

/** Gives `amount` (> 0), the negative total of `creditor`, to what is still owed for its period, then to the balance. */
export async function creditUnusedTimeInTx(tx: Tx, ctx: Ctx, creditor: InvoiceRow, amount: number, now: number): Promise<CreditSplit> {
  let left = amount
  // The change holds its subscription's row lock, which every writer of its invoices takes first
  // (lockInvoiceInTx): no payment lands on these between the read and the save (never credited and paid both).
  const owed =
    creditor.subscription_id === null || creditor.period_start === null
      ? []
      : await listOwedInvoicesAfter(tx, creditor.subscription_id, Number(creditor.period_start))
  for (const invoice of owed) {
    if (left === 0) break
    const credited = Math.min(left, Number(invoice.amount_remaining))
    left -= credited
    const after: InvoiceRow = {
      ...invoice,
      amount_due: Number(invoice.amount_due) - credited,
      amount_remaining: Number(invoice.amount_remaining) - credited,
      updated_at: now,
    }
    await auditInvoice(tx, ctx, 'invoice.credited', after, now, { credited, credited_by: creditor.id })
    if (after.amount_remaining === 0) await markPaidInTx(tx, ctx, after, now)
    else await saveInvoice(tx, after)
  }
  if (left > 0) await addCreditInTx(tx, creditor.organization_id, { amount: left, currency: creditor.currency, now })
  return { toInvoices: amount - left, toBalance: left }
}
