// An organization's billing settings: its details printed on invoices (e-mail, name, address) and what
// happens after the last failed retry (canceled or unpaid), which its Super Admin sets; the tax rate and
// the days an invoice sent for payment is due in, which only the operator sets. Audited, never evented.
import type { Ctx } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { isoTime } from '../../../lib/clock.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { findOrganization } from '../../organizations/index.ts'
import type { RetriesExhaustedAction } from '../table.ts'
import { billingAccountOf, lockBillingAccountInTx } from './account.ts'
import { type BillingAccountRow, updateBillingAccountRow } from './store.ts'

export const MAX_TAX_RATE_BPS = 10_000
export const MAX_DAYS_UNTIL_DUE = 365
export const MAX_BILLING_ADDRESS = 500
export const MAX_BILLING_NAME = 200

export interface BillingSettingsChanges {
  billing_email?: string | null
  billing_name?: string | null
  billing_address?: string | null
  on_retries_exhausted?: RetriesExhaustedAction
  /** The operator's only. */
  tax_rate_bps?: number
  /** The operator's only. */
  days_until_due?: number
}

/** Fields whose values the audit record keeps (the others, personal details, only by name). */
const AUDITED_VALUES = ['on_retries_exhausted', 'tax_rate_bps', 'days_until_due'] as const

export function billingSettingsJson(row: BillingAccountRow) {
  return {
    organization_id: row.organization_id,
    billing_email: row.billing_email,
    billing_name: row.billing_name,
    billing_address: row.billing_address,
    on_retries_exhausted: row.on_retries_exhausted,
    tax_rate_bps: Number(row.tax_rate_bps),
    days_until_due: Number(row.days_until_due),
    credit_balance: Number(row.credit_balance),
    balance_currency: row.balance_currency,
    updated_at: Number(row.updated_at) === 0 ? null : isoTime(Number(row.updated_at)),
  }
}

const noSuchOrganization = () => new AppError('NOT_FOUND', 'No such organization')

/** The organization's billing settings (the defaults while it has no billing account); 404 for an unknown organization. */
export async function getBillingSettings(ctx: Ctx, organizationId: string): Promise<BillingAccountRow> {
  if (ctx.actor.kind === 'system' && !(await findOrganization(ctx.db, organizationId))) throw noSuchOrganization()
  return billingAccountOf(ctx.db, organizationId)
}

/** A text setting as stored: trimmed, null when empty. */
const text = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim()

/**
 * Changes the fields given. The organization's routes never pass tax_rate_bps or days_until_due (their
 * schema refuses them); the operator's pass any. The billing account is made on first change.
 */
export async function updateBillingSettings(ctx: Ctx, organizationId: string, changes: BillingSettingsChanges): Promise<BillingAccountRow> {
  const now = ctx.clock.now()
  if (ctx.actor.kind === 'user' && (changes.tax_rate_bps !== undefined || changes.days_until_due !== undefined))
    throw new AppError('INSUFFICIENT_PERMISSIONS', 'The tax rate and the days until due are set by the operator')
  const patch: Partial<BillingAccountRow> = {}
  const email = text(changes.billing_email)
  if (email !== undefined) patch.billing_email = email
  const name = text(changes.billing_name)
  if (name !== undefined) patch.billing_name = name
  const address = text(changes.billing_address)
  if (address !== undefined) patch.billing_address = address
  if (changes.on_retries_exhausted !== undefined) patch.on_retries_exhausted = changes.on_retries_exhausted
  if (changes.tax_rate_bps !== undefined) patch.tax_rate_bps = changes.tax_rate_bps
  if (changes.days_until_due !== undefined) patch.days_until_due = changes.days_until_due
  return ctx.db.write('billing_settings.update', async (tx) => {
    if (!(await findOrganization(tx, organizationId))) throw noSuchOrganization()
    // Under the account's row lock: the audit's before is the previous change's after (no change lost between).
    const before = await lockBillingAccountInTx(tx, organizationId, now)
    const after = (await updateBillingAccountRow(tx, organizationId, { ...patch, updated_at: now }))!
    // String(): PostgreSQL hands BIGINT columns back as text.
    const changed = Object.keys(patch).filter(
      (key) => String(before[key as keyof BillingAccountRow]) !== String(after[key as keyof BillingAccountRow]),
    )
    const values = (row: BillingAccountRow) =>
      Object.fromEntries(
        AUDITED_VALUES.filter((key) => changed.includes(key)).map((key) => [
          key,
          key === 'on_retries_exhausted' ? row[key] : Number(row[key]),
        ]),
      )
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'organization.billing_settings_updated',
      target: { type: 'organization', id: organizationId },
      details: { changed, before: values(before), after: values(after) },
      request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
      now,
    })
    return after
  })
}
