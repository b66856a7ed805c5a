// updateContact: field changes of a live contact (agents: only one they own or nobody owns, given only
// to themselves or nobody); crm.contact.updated names the changed fields. A PATCH that changes nothing
// writes nothing.
import type { Ctx, UserActor } from '../../../context.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { assertOwner, changedFields, checkCustomFields, normalizeTags, trimmedOrNull } from '../fields.ts'
import { assertMayWrite } from '../ownership.ts'
import { applyConsent } from './consent.ts'
import type { NewContact } from './create-contact.ts'
import { recordContactEvent } from './events.ts'
import { assertAccount, assertMayGive, assertUnique, e164, normalizeEmail } from './fields.ts'
import { getContactForUpdate } from './get-contact.ts'
import { type ContactRow, saveContact } from './store.ts'

export type ContactChanges = Partial<NewContact>

const FIELDS = [
  'name',
  'email',
  'phone',
  'external_id',
  'contact_type',
  'account_id',
  'owner_id',
  'blocked',
  'consent',
  'tags',
  'custom_fields',
] as const

/** The columns `changes` set, normalized (400 naming a field that cannot be); consent needs the stored one. */
function columnsOf(changes: ContactChanges): Partial<ContactRow> {
  const normalized = (value: string | null | undefined, normalize: (s: string) => string) => {
    const trimmed = trimmedOrNull(value)
    return trimmed === null ? null : normalize(trimmed)
  }
  const name = changes.name?.trim()
  return {
    ...(name !== undefined && { name, name_key: searchKey(name) }),
    ...(changes.email !== undefined && { email: normalized(changes.email, normalizeEmail) }),
    ...(changes.phone !== undefined && { phone: normalized(changes.phone, e164) }),
    ...(changes.external_id !== undefined && { external_id: trimmedOrNull(changes.external_id) }),
    ...(changes.contact_type !== undefined && { contact_type: changes.contact_type }),
    ...(changes.account_id !== undefined && { account_id: changes.account_id }),
    ...(changes.owner_id !== undefined && { owner_id: changes.owner_id }),
    ...(changes.blocked !== undefined && { blocked: changes.blocked }),
    ...(changes.tags !== undefined && { tags: JSON.stringify(normalizeTags(changes.tags)) }),
    ...(changes.custom_fields !== undefined && { custom_fields: checkCustomFields(changes.custom_fields) }),
  }
}

export async function updateContact(ctx: Ctx<UserActor>, input: { id: string; changes: ContactChanges }): Promise<ContactRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  // Normalized before the writer is taken: a bad phone costs no lock.
  const columns = columnsOf(input.changes)
  return ctx.db.write('contact.update', async (tx) => {
    // Locked: two PATCHes (or a PATCH and a merge) each change the other's result, never overwrite it.
    const before = await getContactForUpdate(tx, actor.organizationId, input.id)
    assertMayWrite(actor, 'contact', before.owner_id)
    const consent = input.changes.consent
    const after: ContactRow = { ...before, ...columns, ...(consent && { consent: applyConsent(before.consent, consent, now) }) }
    // Booleans compare as booleans: SQLite hands back 0 and 1.
    const changed = changedFields({ ...before, blocked: Boolean(before.blocked) }, { ...after, blocked: Boolean(after.blocked) }, FIELDS)
    if (changed.length === 0) return before
    if (changed.includes('owner_id')) assertMayGive(actor, after.owner_id)
    const identifiers = (['email', 'phone', 'external_id'] as const).filter((field) => changed.includes(field))
    await assertUnique(tx, actor.organizationId, Object.fromEntries(identifiers.map((field) => [field, after[field]])), before.id)
    if (changed.includes('account_id') && after.account_id !== null) await assertAccount(tx, actor.organizationId, after.account_id)
    if (changed.includes('owner_id') && after.owner_id !== null) await assertOwner(tx, actor.organizationId, after.owner_id)
    const saved = { ...after, updated_at: now }
    await saveContact(tx, saved, changed.includes('tags'))
    await recordContactEvent(tx, ctx, 'crm.contact.updated', saved, now, { changed })
    return saved
  })
}
