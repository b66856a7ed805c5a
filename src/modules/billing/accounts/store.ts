// The billing accounts' SQL: one row per organization, made on first use; the invoice number sequence
// and the credit balance change only inside the caller's transaction.
import type { Queries, Tx } from '../../../db/database.ts'
import type { BillingAccountsTable } from '../table.ts'

export type BillingAccountRow = BillingAccountsTable

export async function findBillingAccount(db: Queries, organizationId: string): Promise<BillingAccountRow | undefined> {
  return db.kysely.selectFrom('billing_accounts').selectAll().where('organization_id', '=', organizationId).executeTakeFirst()
}

/** The row under its lock (PostgreSQL FOR UPDATE) until the transaction ends: read before a change that depends on it. */
export async function lockBillingAccount(tx: Tx, organizationId: string): Promise<BillingAccountRow | undefined> {
  return tx.raw.get<BillingAccountRow>(`SELECT * FROM billing_accounts WHERE organization_id = ?${tx.forUpdate}`, [organizationId])
}

/** Inserts the row unless it exists (two first uses at once keep one). */
export async function insertBillingAccountIfMissing(tx: Tx, row: BillingAccountRow): Promise<void> {
  await tx.kysely
    .insertInto('billing_accounts')
    .values(row)
    .onConflict((c) => c.column('organization_id').doNothing())
    .execute()
}

export async function updateBillingAccountRow(
  tx: Tx,
  organizationId: string,
  patch: Partial<Omit<BillingAccountRow, 'organization_id' | 'created_at'>>,
): Promise<BillingAccountRow | undefined> {
  return tx.kysely
    .updateTable('billing_accounts')
    .set(patch)
    .where('organization_id', '=', organizationId)
    .returningAll()
    .executeTakeFirst()
}

/** Takes the organization's next invoice number (the row must exist): the sequence moves only with its transaction. */
export async function takeNextInvoiceNumber(tx: Tx, organizationId: string, now: number): Promise<number> {
  const row = await tx.raw.get<{ n: number }>(
    'UPDATE billing_accounts SET next_invoice_number = next_invoice_number + 1, updated_at = ? WHERE organization_id = ? RETURNING next_invoice_number - 1 AS n',
    [now, organizationId],
  )
  if (!row) throw new Error(`takeNextInvoiceNumber: no billing account for ${organizationId}`)
  return Number(row.n)
}
