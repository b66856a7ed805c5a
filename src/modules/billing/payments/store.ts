// The payments' and refunds' SQL: a payment by id (in an organization or any), by Stripe's id, an
// invoice's Stripe payment still being collected, insert and save, the keyset list; the refunds of a
// payment or of a page of payments; and the organization whose billing account is a Stripe customer.
import type { Queries, Tx } from '../../../db/database.ts'
import { findInOrg } from '../../../db/get-in-org.ts'
import { defineList } from '../../../db/list.ts'
import type { PaymentsTable, RefundsTable } from '../table.ts'

export type PaymentRow = PaymentsTable
export type RefundRow = RefundsTable

// Sorted by creation only: its index is payments_org_created.
export const PAYMENT_LIST = defineList('payments', { sorts: ['created_at'] })

/** Still being collected (a PaymentIntent not yet succeeded or canceled). */
export const UNSETTLED_STATUSES = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing'] as const

export function findPayment(db: Queries, organizationId: string, id: string): Promise<PaymentRow | undefined> {
  return findInOrg(db, 'payments', organizationId, id)
}

/** Any organization's payment (the operator's routes, Stripe's events). */
export function findPaymentById(db: Queries, id: string): Promise<PaymentRow | undefined> {
  return db.raw.get<PaymentRow>('SELECT * FROM payments WHERE id = ?', [id])
}

/**
 * Any organization's payment under its row lock (PostgreSQL FOR UPDATE) until the transaction ends: its
 * status is read to move it, so two moves at once (confirm and bounce, an answer and a webhook) move it
 * once. lock.ts locks its invoice first.
 */
export function lockPaymentById(tx: Tx, id: string): Promise<PaymentRow | undefined> {
  return tx.raw.get<PaymentRow>(`SELECT * FROM payments WHERE id = ?${tx.forUpdate}`, [id])
}

export function findPaymentByProviderId(db: Queries, providerPaymentId: string): Promise<PaymentRow | undefined> {
  return db.raw.get<PaymentRow>("SELECT * FROM payments WHERE provider = 'stripe' AND provider_payment_id = ?", [providerPaymentId])
}

/** The invoice's Stripe payment not yet succeeded or canceled, the one every collection retries in place, under its row lock. */
export function lockUnsettledStripePayment(tx: Tx, invoiceId: string): Promise<PaymentRow | undefined> {
  return tx.raw.get<PaymentRow>(
    `SELECT * FROM payments WHERE invoice_id = ? AND provider = 'stripe' AND status IN (${UNSETTLED_STATUSES.map(() => '?').join(', ')}) ORDER BY created_at DESC, id DESC LIMIT 1${tx.forUpdate}`,
    [invoiceId, ...UNSETTLED_STATUSES],
  )
}

/** The invoice's bank transfer awaiting the operator's confirmation, if any. */
export function findProcessingTransfer(db: Queries, invoiceId: string): Promise<PaymentRow | undefined> {
  return db.raw.get<PaymentRow>("SELECT * FROM payments WHERE invoice_id = ? AND provider = 'manual' AND status = 'processing' LIMIT 1", [
    invoiceId,
  ])
}

export async function insertPayment(tx: Tx, row: PaymentRow): Promise<void> {
  await tx.kysely.insertInto('payments').values(row).execute()
}

export async function savePayment(tx: Tx, row: PaymentRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('payments').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

export function findRefundsOf(db: Queries, paymentId: string): Promise<RefundRow[]> {
  return db.raw.all<RefundRow>('SELECT * FROM refunds WHERE payment_id = ? ORDER BY created_at, id', [paymentId])
}

/** The refunds of several payments (a page of the list), by payment id. */
export async function findRefundsOfMany(db: Queries, paymentIds: readonly string[]): Promise<Map<string, RefundRow[]>> {
  const byPayment = new Map<string, RefundRow[]>(paymentIds.map((id) => [id, []]))
  if (paymentIds.length === 0) return byPayment
  const rows = await db.raw.all<RefundRow>(
    `SELECT * FROM refunds WHERE payment_id IN (${paymentIds.map(() => '?').join(', ')}) ORDER BY payment_id, created_at, id`,
    [...paymentIds],
  )
  for (const row of rows) byPayment.get(row.payment_id)?.push(row)
  return byPayment
}

export function findRefund(db: Queries, id: string): Promise<RefundRow | undefined> {
  return db.raw.get<RefundRow>('SELECT * FROM refunds WHERE id = ?', [id])
}

export async function insertRefund(tx: Tx, row: RefundRow): Promise<void> {
  await tx.kysely.insertInto('refunds').values(row).execute()
}

export async function saveRefund(tx: Tx, row: RefundRow): Promise<void> {
  const { id, ...columns } = row
  await tx.kysely.updateTable('refunds').set(columns).where('id', '=', id).execute()
}

/** The organization whose billing account is this Stripe customer (`cus_…`). */
export async function organizationOfCustomer(db: Queries, customerId: string): Promise<string | undefined> {
  const row = await db.raw.get<{ organization_id: string }>('SELECT organization_id FROM billing_accounts WHERE provider_customer_id = ?', [
    customerId,
  ])
  return row?.organization_id
}
