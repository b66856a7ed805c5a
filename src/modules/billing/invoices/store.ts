// The invoices' SQL: an invoice and its lines by id, insert, save, delete (a draft), the keyset list,
// a subscription's invoices still owed, and the invoices due a payment attempt.
import type { Queries, Tx } from '../../../db/database.ts'
import { findInOrg } from '../../../db/get-in-org.ts'
import { defineList } from '../../../db/list.ts'
import type { InvoiceLinesTable, InvoicesTable } from '../table.ts'

export type InvoiceRow = InvoicesTable
export type InvoiceLineRow = InvoiceLinesTable

// Sorted by creation only: its index is invoices_org_created (and invoices_org_status_created for a status).
export const INVOICE_LIST = defineList('invoices', { sorts: ['created_at'] })

/** The organization's invoice, or undefined (another organization's is as missing). */
export function findInvoice(db: Queries, organizationId: string, id: string): Promise<InvoiceRow | undefined> {
  return findInOrg(db, 'invoices', organizationId, id)
}

/** Any organization's invoice (the operator's routes, and the verbs given an id by their caller). */
export function findInvoiceById(db: Queries, id: string): Promise<InvoiceRow | undefined> {
  return db.raw.get<InvoiceRow>('SELECT * FROM invoices WHERE id = ?', [id])
}

/** The invoice under its row lock (PostgreSQL FOR UPDATE) until the transaction ends; lock.ts locks its subscription first. */
export function lockInvoiceRow(tx: Tx, id: string): Promise<InvoiceRow | undefined> {
  return tx.raw.get<InvoiceRow>(`SELECT * FROM invoices WHERE id = ?${tx.forUpdate}`, [id])
}

export function findInvoiceLines(db: Queries, invoiceId: string): Promise<InvoiceLineRow[]> {
  return db.raw.all<InvoiceLineRow>('SELECT * FROM invoice_lines WHERE invoice_id = ? ORDER BY line_number', [invoiceId])
}

/** The lines of several invoices (a page of the list), by invoice id. */
export async function findLinesOf(db: Queries, invoiceIds: readonly string[]): Promise<Map<string, InvoiceLineRow[]>> {
  const byInvoice = new Map<string, InvoiceLineRow[]>(invoiceIds.map((id) => [id, []]))
  if (invoiceIds.length === 0) return byInvoice
  const rows = await db.raw.all<InvoiceLineRow>(
    `SELECT * FROM invoice_lines WHERE invoice_id IN (${invoiceIds.map(() => '?').join(', ')}) ORDER BY invoice_id, line_number`,
    [...invoiceIds],
  )
  for (const row of rows) byInvoice.get(row.invoice_id)?.push(row)
  return byInvoice
}

export async function insertInvoice(tx: Tx, row: InvoiceRow, lines: readonly InvoiceLineRow[]): Promise<void> {
  await tx.kysely.insertInto('invoices').values(row).execute()
  if (lines.length > 0)
    await tx.kysely
      .insertInto('invoice_lines')
      .values([...lines])
      .execute()
}

export async function saveInvoice(tx: Tx, row: InvoiceRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('invoices').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

/** Deletes a draft and its lines. */
export async function deleteInvoiceRow(tx: Tx, id: string): Promise<void> {
  await tx.raw.run('DELETE FROM invoice_lines WHERE invoice_id = ?', [id])
  await tx.raw.run('DELETE FROM invoices WHERE id = ?', [id])
}

/**
 * The subscription's invoices still owed (open or uncollectible, something remaining) for time after
 * `after` (their period ends later), oldest first: what a change's credit for unused time pays first.
 */
export function listOwedInvoicesAfter(db: Queries, subscriptionId: string, after: number): Promise<InvoiceRow[]> {
  return db.raw.all<InvoiceRow>(
    "SELECT * FROM invoices WHERE subscription_id = ? AND status IN ('open', 'uncollectible') AND amount_remaining > 0 AND period_end > ? ORDER BY created_at, id",
    [subscriptionId, after],
  )
}

/** Open invoices whose next payment attempt is due, the longest waiting first. */
export function listDueInvoices(db: Queries, now: number, limit: number): Promise<InvoiceRow[]> {
  return db.raw.all<InvoiceRow>(
    "SELECT * FROM invoices WHERE next_payment_attempt IS NOT NULL AND next_payment_attempt <= ? AND status = 'open' ORDER BY next_payment_attempt, id LIMIT ?",
    [now, limit],
  )
}
