// An organization's billing account: made with the defaults on first use, inside the caller's
// transaction; the gap-free invoice numbers and the credit balance (what a downgrade left the
// organization owed, taken off its next invoices in the same currency).
import type { Queries, Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { isWithinMaxAmount, MAX_AMOUNT_TEXT } from '../money.ts'
import {
  type BillingAccountRow,
  findBillingAccount,
  insertBillingAccountIfMissing,
  lockBillingAccount,
  takeNextInvoiceNumber,
  updateBillingAccountRow,
} from './store.ts'

export const ACCOUNT_DEFAULTS = { tax_rate_bps: 0, on_retries_exhausted: 'canceled', days_until_due: 30 } as const

/** The account an organization gets on first use, made at `now`. */
function defaultAccount(organizationId: string, now: number): BillingAccountRow {
  return {
    organization_id: organizationId,
    ...ACCOUNT_DEFAULTS,
    next_invoice_number: 1,
    credit_balance: 0,
    balance_currency: null,
    billing_email: null,
    billing_name: null,
    billing_address: null,
    provider_customer_id: null,
    created_at: now,
    updated_at: now,
  }
}

/** The organization's billing account, or the one it would get (not saved; updated_at 0) when it has none. */
export async function billingAccountOf(db: Queries, organizationId: string): Promise<BillingAccountRow> {
  return (await findBillingAccount(db, organizationId)) ?? defaultAccount(organizationId, 0)
}

/** The organization's billing account, made with the defaults when it has none. */
export async function ensureBillingAccountInTx(tx: Tx, organizationId: string, now: number): Promise<BillingAccountRow> {
  const found = await findBillingAccount(tx, organizationId)
  if (found) return found
  await insertBillingAccountIfMissing(tx, defaultAccount(organizationId, now))
  return (await findBillingAccount(tx, organizationId))!
}

/**
 * The organization's billing account (made when missing) read under its row lock: what the caller writes
 * next depends on it (the credit balance, the settings' before and after), so a concurrent writer waits.
 */
export async function lockBillingAccountInTx(tx: Tx, organizationId: string, now: number): Promise<BillingAccountRow> {
  const found = await lockBillingAccount(tx, organizationId)
  if (found) return found
  await insertBillingAccountIfMissing(tx, defaultAccount(organizationId, now))
  return (await lockBillingAccount(tx, organizationId))!
}

/** The number the organization's next finalized invoice takes: `INV-000001`, then `INV-000002`, without gaps. */
export async function takeInvoiceNumberInTx(tx: Tx, organizationId: string, now: number): Promise<string> {
  await ensureBillingAccountInTx(tx, organizationId, now)
  // One UPDATE … RETURNING (row-locked until commit): each number taken once, none lost (gap-free, unique).
  return `INV-${String(await takeNextInvoiceNumber(tx, organizationId, now)).padStart(6, '0')}`
}

/** Adds `amount` (> 0) to what the organization is owed in `currency`. A balance in another currency is 409; beyond MAX_AMOUNT, 400. */
export async function addCreditInTx(
  tx: Tx,
  organizationId: string,
  input: { amount: number; currency: string; now: number },
): Promise<BillingAccountRow> {
  // The balance under the account's row lock: two credits at once never lose one (no lost update).
  const account = await lockBillingAccountInTx(tx, organizationId, input.now)
  const balance = Number(account.credit_balance)
  if (balance > 0 && account.balance_currency !== input.currency)
    throw new AppError(
      'CONFLICT',
      `The organization holds a credit in ${account.balance_currency?.toUpperCase()}: a credit in ${input.currency.toUpperCase()} cannot be added to it`,
    )
  if (!isWithinMaxAmount(balance + input.amount))
    throw validationError([
      {
        field: 'credit_balance',
        message: `the organization's credit (${balance}) plus ${input.amount} would be beyond ${MAX_AMOUNT_TEXT} minor units`,
      },
    ])
  return (await updateBillingAccountRow(tx, organizationId, {
    credit_balance: balance + input.amount,
    balance_currency: input.currency,
    updated_at: input.now,
  }))!
}

/** Takes up to `upTo` of the organization's credit in `currency`; returns what was taken (0 when none, or in another currency). */
export async function takeCreditInTx(
  tx: Tx,
  organizationId: string,
  input: { upTo: number; currency: string; now: number },
): Promise<number> {
  // The balance under the account's row lock: two invoices finalized at once never take the same credit.
  const account = await lockBillingAccountInTx(tx, organizationId, input.now)
  const balance = Number(account.credit_balance)
  if (balance <= 0 || input.upTo <= 0 || account.balance_currency !== input.currency) return 0
  const taken = Math.min(balance, input.upTo)
  await updateBillingAccountRow(tx, organizationId, { credit_balance: balance - taken, updated_at: input.now })
  return taken
}
