// createContact: a new contact (crm.contact.created in the same transaction); createContactInTx does
// the same inside another verb's transaction (a ticket's requester, a lead's conversion).
import type { Ctx, UserActor } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { prefixedId } from '../../../lib/ids.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { assertOwner, checkCustomFields, normalizeTags, trimmedOrNull } from '../fields.ts'
import type { ContactType } from '../table.ts'
import { applyConsent, type ConsentChanges, type ConsentTimes, NO_CONSENT } from './consent.ts'
import { recordContactEvent } from './events.ts'
import { assertAccount, assertMayGive, assertUnique, e164, normalizeEmail } from './fields.ts'
import { type ContactRow, insertContact } from './store.ts'

export interface NewContact {
  name: string
  email?: string | null
  phone?: string | null
  external_id?: string | null
  contact_type?: ContactType
  account_id?: string | null
  owner_id?: string | null
  blocked?: boolean
  consent?: ConsentChanges
  tags?: string[]
  custom_fields?: Record<string, string | number | boolean>
  /** Not in the API: an import's times of the consent it gives (default now). */
  consentTimes?: ConsentTimes
}

/** The row of a new contact, its fields normalized (400 naming a field that cannot be). */
export function newContactRow(organizationId: string, input: NewContact, now: number): ContactRow {
  const name = input.name.trim()
  const email = trimmedOrNull(input.email)
  const phone = trimmedOrNull(input.phone)
  return {
    id: prefixedId('con'),
    organization_id: organizationId,
    name,
    name_key: searchKey(name),
    email: email === null ? null : normalizeEmail(email),
    phone: phone === null ? null : e164(phone),
    external_id: trimmedOrNull(input.external_id),
    contact_type: input.contact_type ?? 'visitor',
    account_id: input.account_id ?? null,
    owner_id: input.owner_id ?? null,
    blocked: input.blocked ?? false,
    consent: applyConsent(NO_CONSENT, input.consent ?? {}, now, input.consentTimes),
    tags: JSON.stringify(normalizeTags(input.tags ?? [])),
    custom_fields: checkCustomFields(input.custom_fields ?? {}),
    last_activity_at: 0,
    merged_into_id: null,
    created_at: now,
    updated_at: now,
  }
}

/** Inside the caller's transaction: checked (identifiers free, account and owner of the organization), inserted, announced. */
export async function createContactInTx(
  tx: Tx,
  ctx: Ctx,
  input: NewContact & { organizationId: string; now: number },
): Promise<ContactRow> {
  const row = newContactRow(input.organizationId, input, input.now)
  if (ctx.actor.kind === 'user') assertMayGive(ctx.actor, row.owner_id)
  await assertUnique(tx, row.organization_id, row)
  if (row.account_id !== null) await assertAccount(tx, row.organization_id, row.account_id)
  if (row.owner_id !== null) await assertOwner(tx, row.organization_id, row.owner_id)
  await insertContact(tx, row)
  await recordContactEvent(tx, ctx, 'crm.contact.created', row, input.now)
  return row
}

export async function createContact(ctx: Ctx<UserActor>, input: NewContact): Promise<ContactRow> {
  const now = ctx.clock.now()
  // The fields' own checks before the writer is taken: a bad phone costs no lock.
  newContactRow(ctx.actor.organizationId, input, now)
  return ctx.db.write('contact.create', (tx) => createContactInTx(tx, ctx, { ...input, organizationId: ctx.actor.organizationId, now }))
}
