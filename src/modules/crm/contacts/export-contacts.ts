// exportContacts: the organization's live contacts as CSV (csv-columns.ts), filtered as the list is,
// streamed from a keyset walk as the client reads it: memory stays one batch at any size.
import type { Ctx, UserActor } from '../../../context.ts'
import { findUserInOrg } from '../../users/index.ts'
import { accountDomains } from '../accounts/store.ts'
import { csvStream } from '../csv.ts'
import { EXPORT_COLUMNS, exportCells } from './csv-columns.ts'
import { type ContactFilters, contactFilterConditions, contactScope } from './list-contacts.ts'
import { CONTACT_LIST, type ContactRow } from './store.ts'

export const EXPORT_BATCH = 1000

export function exportContacts(ctx: Ctx<UserActor>, input: { filters: ContactFilters; sort: string }): ReadableStream<Uint8Array> {
  const { organizationId } = ctx.actor
  // Checked now, before the 200 goes out: a bad filter is still a 400.
  const where = contactFilterConditions(input.filters)
  // Owners are the organization's users, few beside its contacts: each looked up once per export.
  const ownerEmails = new Map<string, string | null>()
  async function* batches() {
    for await (const rows of CONTACT_LIST.walk(ctx.db, input.sort, await contactScope(ctx, input.filters, where), EXPORT_BATCH)) {
      const domains = await accountDomains(ctx.db, organizationId, [...new Set(rows.flatMap((r) => (r.account_id ? [r.account_id] : [])))])
      for (const ownerId of new Set(rows.flatMap((r) => (r.owner_id ? [r.owner_id] : []))))
        if (!ownerEmails.has(ownerId)) ownerEmails.set(ownerId, (await findUserInOrg(ctx.db, organizationId, ownerId))?.email ?? null)
      yield rows.map((row) => ({ row, domain: row.account_id ? (domains.get(row.account_id) ?? null) : null }))
    }
  }
  return csvStream(EXPORT_COLUMNS, batches(), ({ row, domain }: { row: ContactRow; domain: string | null }) =>
    exportCells(row, domain, row.owner_id ? (ownerEmails.get(row.owner_id) ?? null) : null),
  )
}
