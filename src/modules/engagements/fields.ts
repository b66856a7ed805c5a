// A session's field rules: a live contact of the organization, a ticket and a call of it, an assignee
// who is an active user of it (400 naming the field otherwise: another organization's is as unknown),
// labels and skills trimmed and lowercased once each (as the agents' skills), custom fields as a small
// JSON object, and names (team) trimmed, '' being none.
import type { Queries } from '../../db/database.ts'
import { validationError } from '../../errors.ts'
import { findContact } from '../crm/index.ts'
import { findUserInOrg } from '../users/index.ts'
import { existsInOrg } from './store.ts'

export const MAX_CUSTOM_FIELDS_BYTES = 8 * 1024

export async function assertContact(db: Queries, organizationId: string, contactId: string): Promise<void> {
  if (!(await findContact(db, organizationId, contactId)))
    throw validationError([{ field: 'contact_id', message: 'is not a contact of this organization' }])
}

export async function assertTicket(db: Queries, organizationId: string, ticketId: string, field = 'ticket_id'): Promise<void> {
  if (!(await existsInOrg(db, 'tickets', organizationId, ticketId)))
    throw validationError([{ field, message: 'is not a ticket of this organization' }])
}

export async function assertCall(db: Queries, organizationId: string, callId: string): Promise<void> {
  if (!(await existsInOrg(db, 'calls', organizationId, callId)))
    throw validationError([{ field: 'call_id', message: 'is not a call of this organization' }])
}

export async function assertActiveUser(db: Queries, organizationId: string, userId: string, field = 'assignee_id'): Promise<void> {
  if ((await findUserInOrg(db, organizationId, userId))?.status !== 'active')
    throw validationError([{ field, message: 'is not an active user of this organization' }])
}

export function labelsOf(values: readonly string[]): string {
  return JSON.stringify([...new Set(values.map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))])
}

export function skillOf(text: string | null | undefined): string | null {
  const skill = text?.trim().toLowerCase() ?? ''
  return skill === '' ? null : skill
}

export function nameOf(text: string | null | undefined): string | null {
  const name = text?.trim() ?? ''
  return name === '' ? null : name
}

export function customFieldsOf(fields: Record<string, unknown>): string {
  const text = JSON.stringify(fields)
  if (Buffer.byteLength(text) > MAX_CUSTOM_FIELDS_BYTES)
    throw validationError([{ field: 'custom_fields', message: `must be at most ${MAX_CUSTOM_FIELDS_BYTES} bytes as JSON` }])
  return text
}
