// exportAccounts: the organization's accounts as CSV, filtered as the list is, streamed from a keyset
// walk as the client reads it (memory stays one batch). Columns as the JSON's, plus the owner's e-mail.
import type { Ctx, UserActor } from '../../../context.ts'
import { isoTime } from '../../../lib/clock.ts'
import { findUserInOrg } from '../../users/index.ts'
import { type Cell, csvStream, customFieldsCell, tagsCell } from '../csv.ts'
import { type AccountFilters, accountFilterConditions } from './list-accounts.ts'
import { ACCOUNT_LIST, type AccountRow } from './store.ts'

export const ACCOUNT_EXPORT_COLUMNS = [
  'id',
  'name',
  'domain',
  'industry',
  'size',
  'owner_id',
  'owner_email',
  'tags',
  'custom_fields',
  'created_at',
  'updated_at',
] as const

const BATCH = 1000

export function exportAccounts(ctx: Ctx<UserActor>, input: { filters: AccountFilters; sort: string }): ReadableStream<Uint8Array> {
  const { organizationId } = ctx.actor
  // Checked now, before the 200 goes out: a bad filter is still a 400.
  const where = accountFilterConditions(input.filters)
  const ownerEmails = new Map<string, string | null>()
  async function* batches() {
    for await (const rows of ACCOUNT_LIST.walk(ctx.db, input.sort, { organizationId, where }, BATCH)) {
      for (const ownerId of new Set(rows.flatMap((r) => (r.owner_id ? [r.owner_id] : []))))
        if (!ownerEmails.has(ownerId)) ownerEmails.set(ownerId, (await findUserInOrg(ctx.db, organizationId, ownerId))?.email ?? null)
      yield rows
    }
  }
  return csvStream(ACCOUNT_EXPORT_COLUMNS, batches(), (row: AccountRow): Cell[] => [
    row.id,
    row.name,
    row.domain,
    row.industry,
    row.size,
    row.owner_id,
    row.owner_id ? (ownerEmails.get(row.owner_id) ?? null) : null,
    tagsCell(row.tags),
    customFieldsCell(row.custom_fields),
    isoTime(row.created_at),
    isoTime(row.updated_at),
  ])
}
