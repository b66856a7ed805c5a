// importContacts: the rows of a read CSV (read-contact-csv.ts) created as contacts in ONE write
// transaction — each with crm.contact.created — so a crash or a failure of ours leaves nothing
// half-imported. A row refused by a rule (a taken e-mail, an unknown account) is reported and skipped;
// a dry run checks every row the same way and writes nothing.
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { BULK_PREFIX } from '../../../db/writer-lock.ts'
import { AppError, type FieldError } from '../../../errors.ts'
import { findUserByEmail } from '../../users/index.ts'
import { normalizeDomain } from '../accounts/fields.ts'
import { findAccountByDomain } from '../accounts/store.ts'
import { createContactInTx } from './create-contact.ts'
import type { ImportedContact } from './csv-columns.ts'
import type { ReadRow, RowPlace } from './read-contact-csv.ts'

export interface ImportReport {
  dry_run: boolean
  total_rows: number
  accepted_count: number
  refused_count: number
  /** `id` is null in a dry run: nothing was created. */
  accepted: (RowPlace & { id: string | null })[]
  refused: (RowPlace & { errors: FieldError[] })[]
}

/** Thrown to roll a dry run back once every row has been tried. */
class DryRunDone extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run')
  }
}

export async function importContacts(ctx: Ctx<UserActor>, input: { rows: readonly ReadRow[]; dryRun: boolean }): Promise<ImportReport> {
  const { organizationId } = ctx.actor
  const report: ImportReport = {
    dry_run: input.dryRun,
    total_rows: input.rows.length,
    accepted_count: 0,
    refused_count: 0,
    accepted: [],
    refused: [],
  }
  try {
    // One transaction (nothing half-imported), long by design: writes behind it wait it out (BULK_PREFIX).
    await ctx.db.write(`${BULK_PREFIX}contact.import`, async (tx) => {
      const now = ctx.clock.now()
      // Contacts made by earlier rows, to say "row 5 of this file" rather than an id the client never saw.
      const rowOfId = new Map<string, number>()
      for (const read of input.rows) {
        const place = { row: read.row, line: read.line }
        if ('errors' in read) {
          report.refused.push({ ...place, errors: read.errors })
          continue
        }
        try {
          const created = await createContactInTx(tx, ctx, {
            ...(await resolvedInput(tx, organizationId, read.contact)),
            organizationId,
            now,
          })
          rowOfId.set(created.id, read.row)
          report.accepted.push({ ...place, id: input.dryRun ? null : created.id })
        } catch (error) {
          if (!(error instanceof AppError)) throw error
          report.refused.push({ ...place, errors: reasonsOf(error, rowOfId) })
        }
      }
      report.accepted_count = report.accepted.length
      report.refused_count = report.refused.length
      if (input.dryRun) throw new DryRunDone(report)
    })
  } catch (error) {
    if (error instanceof DryRunDone) return error.report
    throw error
  }
  return report
}

/** createContact's input with account_domain and owner_email turned into ids (400 naming the column when they name nobody). */
async function resolvedInput(tx: Tx, organizationId: string, contact: ImportedContact) {
  const input = { ...contact.input }
  if (contact.accountDomain !== null) {
    const domain = normalizeDomain(contact.accountDomain)
    const account = domain === undefined ? undefined : await findAccountByDomain(tx, organizationId, domain)
    if (!account) throw refusal('account_domain', 'is not the domain of an account of this organization')
    input.account_id = account.id
  }
  if (contact.ownerEmail !== null) {
    const owner = await findUserByEmail(tx, contact.ownerEmail)
    if (owner?.organization_id !== organizationId || owner.status !== 'active')
      throw refusal('owner_email', 'is not the e-mail of an active user of this organization')
    input.owner_id = owner.id
  }
  return input
}

function refusal(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { errors: [{ field, message }] })
}

function reasonsOf(error: AppError, rowOfId: ReadonlyMap<string, number>): FieldError[] {
  // 403: an agent naming another user as the owner.
  const errors = error.errors ?? [{ field: error.code === 'INSUFFICIENT_PERMISSIONS' ? 'owner_id' : 'row', message: error.message }]
  return errors.map(({ field, message }) => ({
    field,
    message: message.replace(/contact (con_\w+)/, (found, id: string) => (rowOfId.has(id) ? `row ${rowOfId.get(id)} of this file` : found)),
  }))
}
