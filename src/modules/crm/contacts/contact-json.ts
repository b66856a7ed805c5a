// A contact as the API and its events show it (one function for responses, events and lists).
import { isoTime } from '../../../lib/clock.ts'
import type { ContactsTable } from '../table.ts'
import { consentJson } from './consent.ts'

export function contactJson(row: ContactsTable) {
  const lastActivity = Number(row.last_activity_at)
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    external_id: row.external_id,
    contact_type: row.contact_type,
    account_id: row.account_id,
    owner_id: row.owner_id,
    blocked: Boolean(row.blocked),
    consent: consentJson(row.consent),
    tags: JSON.parse(row.tags) as string[],
    custom_fields: JSON.parse(row.custom_fields) as Record<string, string | number | boolean>,
    // Stored as 0 until a ticket of theirs is created (a keyset sort needs a value in every row).
    last_activity_at: lastActivity === 0 ? null : isoTime(lastActivity),
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  }
}

export type ContactJson = ReturnType<typeof contactJson>
