// A payment read to be moved, inside the caller's transaction: under its row lock, its invoice's (and
// that one's subscription's) locked first — parent before child, the order every billing writer keeps
// (subscription, invoice, payment, billing account) — so a collection's claim, Stripe's answer, its
// webhook and the operator's moves of one payment wait for each other instead of deadlocking.
import type { Tx } from '../../../db/database.ts'
import { lockInvoiceInTx } from '../invoices/collect.ts'
import { findPaymentById, lockPaymentById, type PaymentRow } from './store.ts'

/** The payment under its row lock (its invoice's locked first), or undefined. */
export async function lockPaymentInTx(tx: Tx, id: string): Promise<PaymentRow | undefined> {
  // invoice_id never changes: read without a lock only to know which invoice comes first.
  const found = await findPaymentById(tx, id)
  if (!found) return undefined
  if (found.invoice_id !== null) await lockInvoiceInTx(tx, found.invoice_id)
  return lockPaymentById(tx, id)
}
