// What an invoice's payment or failed payment does to its subscription, called by the invoices part
// in the transaction that records it: paid → active (the latest invoice of an incomplete, past_due,
// unpaid or paused one); failed → past_due (the grace period keeps the plan), and once the retries are
// exhausted → canceled or unpaid as the billing account says, the organization back on Free.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { ensureBillingAccountInTx } from '../accounts/account.ts'
import type { InvoicesTable, SubscriptionStatus } from '../table.ts'
import { recordSubscriptionEvent } from './events.ts'
import { withStatus } from './moves.ts'
import { lockSubscription, saveSubscription } from './store.ts'

export { findSubscriptionById, lockSubscription } from './store.ts'

const REACTIVATED: readonly SubscriptionStatus[] = ['incomplete', 'past_due', 'unpaid', 'paused']

/** The invoice was paid in full: its subscription becomes active when this was its latest invoice. */
export async function onInvoicePaidInTx(tx: Tx, ctx: Ctx, invoice: InvoicesTable, now: number): Promise<void> {
  if (invoice.subscription_id === null) return
  // Locked (already, by lockInvoiceInTx: parent before child): a change at the same moment waits.
  const row = await lockSubscription(tx, invoice.subscription_id)
  if (!row || !REACTIVATED.includes(row.status)) return
  // An older invoice paid while a newer one is still open leaves the status to the newer one (Stripe's rule).
  if (row.latest_invoice_id !== invoice.id) return
  const next = withStatus(row, 'active', now)
  // An unpaid subscription was not renewed: paid after its period ended, it starts a new cycle now,
  // which the renewal task invoices at its next run (the months on Free are not billed).
  if (row.status === 'unpaid' && Number(row.current_period_end) <= now)
    Object.assign(next, { billing_cycle_anchor: now, current_period_start: now, current_period_end: now })
  await saveSubscription(tx, next)
  await recordSubscriptionEvent(tx, ctx, 'subscription.updated', next, now)
}

/**
 * A payment attempt on the invoice failed. An active or trialing subscription becomes past_due; with
 * the retries exhausted, a trialing, active or past_due one becomes canceled or unpaid (the account's
 * on_retries_exhausted). An incomplete one stays so: the expiry task ends it.
 */
export async function onInvoicePaymentFailedInTx(
  tx: Tx,
  ctx: Ctx,
  invoice: InvoicesTable,
  input: { retriesExhausted: boolean; now: number },
): Promise<void> {
  const { now } = input
  if (invoice.subscription_id === null) return
  let row = await lockSubscription(tx, invoice.subscription_id)
  if (!row || row.ended_at !== null || row.status === 'incomplete') return
  if (row.status === 'active' || row.status === 'trialing') {
    row = withStatus(row, 'past_due', now)
    if (!input.retriesExhausted) {
      await saveSubscription(tx, row)
      await recordSubscriptionEvent(tx, ctx, 'subscription.updated', row, now)
      return
    }
  }
  if (!input.retriesExhausted || row.status !== 'past_due') return
  const account = await ensureBillingAccountInTx(tx, row.organization_id, now)
  const ended =
    account.on_retries_exhausted === 'unpaid' ? withStatus(row, 'unpaid', now) : withStatus(row, 'canceled', now, 'payment_failed')
  await saveSubscription(tx, ended)
  await recordSubscriptionEvent(tx, ctx, ended.status === 'canceled' ? 'subscription.canceled' : 'subscription.updated', ended, now)
}
