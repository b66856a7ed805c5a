// An invoice read to be changed, inside the caller's transaction: under its row lock, its subscription's
// row locked first (parent before child, the order every billing writer keeps: subscription, invoice,
// billing account), so a payment and a subscription change at the same moment wait for each other
// instead of deadlocking, and each reads what the other saved.
import type { Tx } from '../../../db/database.ts'
import { AppError } from '../../../errors.ts'
import { lockSubscription } from '../subscriptions/hooks.ts'
import { findInvoiceById, type InvoiceRow, lockInvoiceRow } from './store.ts'

/** The invoice under its row lock (its subscription's locked first), or undefined. */
export async function lockInvoiceInTx(tx: Tx, invoiceId: string): Promise<InvoiceRow | undefined> {
  // subscription_id never changes: read without a lock only to know which subscription comes first.
  const found = await findInvoiceById(tx, invoiceId)
  if (!found) return undefined
  if (found.subscription_id !== null) await lockSubscription(tx, found.subscription_id)
  return lockInvoiceRow(tx, invoiceId)
}

/** The invoice under its row lock, or 404 (the callers give ids of their own rows, or the operator's). */
export async function loadInvoiceInTx(tx: Tx, invoiceId: string): Promise<InvoiceRow> {
  const row = await lockInvoiceInTx(tx, invoiceId)
  if (!row) throw new AppError('NOT_FOUND', 'No such invoice')
  return row
}
