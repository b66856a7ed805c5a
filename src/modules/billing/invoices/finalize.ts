// Finalization (draft -> open), inside the caller's transaction: the number from the organization's
// gap-free sequence, the tax at the account's rate (copied), the credit balance applied (or a negative
// total given away: to what its subscription still owes for that time, the rest to the balance), the
// customer's details copied, the due date and the first payment attempt. An invoice with nothing left
// to pay is paid at once.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { findOrganization } from '../../organizations/index.ts'
import { ensureBillingAccountInTx, takeCreditInTx, takeInvoiceNumberInTx } from '../accounts/account.ts'
import { taxOf } from '../money.ts'
import { type CreditSplit, creditUnusedTimeInTx } from './credit.ts'
import { checkInvoiceAmounts } from './draft.ts'
import { auditInvoice } from './events.ts'
import { assertInvoiceTransition } from './lifecycle.ts'
import { loadInvoiceInTx } from './lock.ts'
import { markPaidInTx } from './pay.ts'
import { type InvoiceRow, saveInvoice } from './store.ts'

const DAY_MS = 86_400_000

export async function finalizeInvoiceInTx(tx: Tx, ctx: Ctx, invoiceId: string, now: number): Promise<InvoiceRow> {
  // Locked: a draft finalized twice at once is finalized (and numbered) once; the second finds it open (409).
  const draft = await loadInvoiceInTx(tx, invoiceId)
  assertInvoiceTransition(draft.status, 'open')
  const organizationId = draft.organization_id
  const account = await ensureBillingAccountInTx(tx, organizationId, now)
  const subtotal = Number(draft.subtotal)
  const rate = Number(account.tax_rate_bps)
  // The rate may have risen since the draft: its total is bounded again at the rate it takes now.
  checkInvoiceAmounts(subtotal, rate, 'total')
  const tax = taxOf(subtotal, rate)
  const total = subtotal + tax
  // amount_due = total - applied_balance at finalization: a credit taken is positive, a negative total
  // given away is negative (the invoice then has nothing to pay). A later change's credit may lower
  // amount_due (credit.ts): amount_credited in the JSON.
  let applied = 0
  let credit: CreditSplit | undefined
  if (total < 0) {
    // A change's credit for unused time pays what the subscription still owes for it; the rest is account credit.
    credit = await creditUnusedTimeInTx(tx, ctx, draft, -total, now)
    applied = total
  } else applied = await takeCreditInTx(tx, organizationId, { upTo: total, currency: draft.currency, now })
  const amountDue = total - applied
  const number = await takeInvoiceNumberInTx(tx, organizationId, now)
  const dueDate = draft.collection_method === 'send_invoice' ? now + Number(account.days_until_due) * DAY_MS : now
  const open: InvoiceRow = {
    ...draft,
    number,
    status: 'open',
    subtotal,
    tax_rate_bps: rate,
    tax,
    total,
    applied_balance: applied,
    amount_due: amountDue,
    amount_paid: 0,
    amount_remaining: amountDue,
    due_date: dueDate,
    // The cron loop charges it now (charge_automatically) or looks at it on its due date (send_invoice).
    next_payment_attempt: amountDue > 0 ? dueDate : null,
    customer_name: account.billing_name ?? (await findOrganization(tx, organizationId))?.name ?? null,
    customer_email: account.billing_email,
    customer_address: account.billing_address,
    finalized_at: now,
    updated_at: now,
  }
  await saveInvoice(tx, open)
  await auditInvoice(
    tx,
    ctx,
    'invoice.finalized',
    open,
    now,
    credit ? { credited_to_invoices: credit.toInvoices, credited_to_balance: credit.toBalance } : {},
  )
  return amountDue === 0 ? markPaidInTx(tx, ctx, open, now) : open
}
