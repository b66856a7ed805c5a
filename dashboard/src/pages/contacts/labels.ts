// The words for a contact's values (the API's enumerations) and the list's sorts.
import type { Schemas } from '../../../../clients/typescript/src/index.ts'

export type Contact = Schemas['Contact']

export const TYPE_LABELS: Record<Contact['contact_type'], string> = {
  customer: 'Customer',
  lead: 'Lead',
  visitor: 'Visitor',
}

export const CONSENT_LABELS: Record<keyof Contact['consent'], string> = {
  email: 'E-mail',
  sms: 'Text messages',
  marketing: 'Marketing',
}

export const CONTACT_SORTS = {
  'created_at:desc': 'Newest first',
  'created_at:asc': 'Oldest first',
  'name:asc': 'Name, A to Z',
  'name:desc': 'Name, Z to A',
  'last_activity_at:desc': 'Recently active',
  'last_activity_at:asc': 'Least recently active',
  'updated_at:desc': 'Recently updated',
} as const
