// An account as the API and its events show it: one function for responses, events and the contact's
// embedded account.
import { isoTime } from '../../../lib/clock.ts'
import type { AccountsTable } from '../table.ts'
import type { AccountSize } from './fields.ts'

export function accountJson(row: AccountsTable) {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    industry: row.industry,
    // Written only from the API's vocabulary (fields.ts).
    size: row.size as AccountSize | null,
    owner_id: row.owner_id,
    tags: JSON.parse(row.tags) as string[],
    custom_fields: JSON.parse(row.custom_fields) as Record<string, string | number | boolean>,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  }
}

export type AccountJson = ReturnType<typeof accountJson>
