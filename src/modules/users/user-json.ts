// A user as the API and its events show it, and the one e-mail normalization every lookup uses.
import { isoTime } from '../../lib/clock.ts'
import type { UsersTable } from './table.ts'

/** E-mails are unique without regard to case: compared and stored trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function userJson(row: UsersTable) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  }
}

export type UserJson = ReturnType<typeof userJson>
