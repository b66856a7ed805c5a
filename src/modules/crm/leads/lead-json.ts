// A lead as the API, its audit records and the conversion event (data.lead) show it.
import { isoTime } from '../../../lib/clock.ts'
import type { LeadRow } from './store.ts'

export function leadJson(row: LeadRow) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company_name: row.company_name,
    source: row.source,
    score: Number(row.score),
    status: row.status,
    owner_id: row.owner_id,
    converted_at: row.converted_at === null ? null : isoTime(row.converted_at),
    converted_contact_id: row.converted_contact_id,
    converted_account_id: row.converted_account_id,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  }
}

export type LeadJson = ReturnType<typeof leadJson>
