// The CRM's tables as rows (Kysely): accounts (companies), contacts (people), leads, and the tag index
// tables their `tag` filters use. The columns are declared by src/db/migrations/0014_crm.sql.

/** A row of accounts. */
export interface AccountsTable {
  /** `acc_…` */
  id: string
  organization_id: string
  name: string
  /** searchKey(name): sorts and prefix search without regard to case or accents. */
  name_key: string
  /** Normalized (lowercase, no scheme, no `www.`, no trailing dot); unique in the organization. */
  domain: string | null
  industry: string | null
  size: string | null
  owner_id: string | null
  /** JSON array of strings; account_tags indexes them. */
  tags: string
  /** JSON object of scalar values. */
  custom_fields: string
  created_at: number
  updated_at: number
}

export interface AccountTagsTable {
  account_id: string
  organization_id: string
  tag: string
}

export const CONTACT_TYPES = ['visitor', 'lead', 'customer'] as const
export type ContactType = (typeof CONTACT_TYPES)[number]

/** A row of contacts. */
export interface ContactsTable {
  /** `con_…` */
  id: string
  organization_id: string
  name: string
  name_key: string
  /** Lowercased; unique in the organization among contacts not merged away. */
  email: string | null
  /** E.164; unique likewise. */
  phone: string | null
  external_id: string | null
  contact_type: ContactType
  account_id: string | null
  owner_id: string | null
  /** A JS boolean when written; read back with Boolean() (0/1 on SQLite). */
  blocked: boolean | number
  /** JSON `{email, sms, marketing}`, each `{granted: boolean, at: ms}` or null. */
  consent: string
  tags: string
  custom_fields: string
  /** When a ticket of theirs was last created; 0 until then (the API shows null): NOT NULL, as a keyset sort needs. */
  last_activity_at: number
  /** Set when merged into another contact: the row stays (the merged id is recorded) but leaves every list. */
  merged_into_id: string | null
  created_at: number
  updated_at: number
}

export interface ContactTagsTable {
  contact_id: string
  organization_id: string
  tag: string
}

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'unqualified', 'converted'] as const
export type LeadStatus = (typeof LEAD_STATUSES)[number]

/** A row of leads. */
export interface LeadsTable {
  /** `lea_…` */
  id: string
  organization_id: string
  name: string
  name_key: string
  email: string | null
  phone: string | null
  company_name: string | null
  source: string | null
  /** 0-100; 0 until scored (NOT NULL: it is a keyset sort, and a NULL would fall out of the seek). */
  score: number
  status: LeadStatus
  owner_id: string | null
  converted_at: number | null
  converted_contact_id: string | null
  converted_account_id: string | null
  created_at: number
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    accounts: AccountsTable
    account_tags: AccountTagsTable
    contacts: ContactsTable
    contact_tags: ContactTagsTable
    leads: LeadsTable
  }
}
