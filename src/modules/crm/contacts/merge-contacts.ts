// mergeContacts: folds another contact into this one (the survivor) in one transaction. The other's
// converted leads and every other module's record naming it (tickets, calls, engagement sessions,
// survey responses: src/references.ts, each change recorded by its module) move to the survivor; tags
// and custom fields are united (the survivor's value wins a shared key); each empty field of the
// survivor (e-mail, phone, external id, account, owner, a consent never asked) takes the other's; the
// type is the further along of the two (visitor < lead < customer); the last activity the later. The
// other is marked merged: it answers 404 and leaves every list, its row kept so the merged id stays on
// record. crm.contact.updated (survivor, with merged_ids) and crm.contact.deleted (the other's last
// state, with merged_into_id) follow.
import type { Ctx, UserActor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { moveReferences } from '../../../references.ts'
import { changedFields, normalizeTags } from '../fields.ts'
import { assertMayWrite } from '../ownership.ts'
import { CONTACT_TYPES } from '../table.ts'
import { CONSENT_CHANNELS } from './consent.ts'
import { recordContactEvent } from './events.ts'
import { type ContactRow, lockContacts, moveContactLinks, saveContact } from './store.ts'

const FILLED = ['email', 'phone', 'external_id', 'account_id', 'owner_id'] as const
const FIELDS = [...FILLED, 'contact_type', 'consent', 'tags', 'custom_fields', 'last_activity_at'] as const

/** The survivor after taking what it lacks from `other`. */
function united(survivor: ContactRow, other: ContactRow): ContactRow {
  const filled = Object.fromEntries(FILLED.map((field) => [field, survivor[field] ?? other[field]]))
  const consent = JSON.parse(survivor.consent) as Record<string, unknown>
  const otherConsent = JSON.parse(other.consent) as Record<string, unknown>
  for (const channel of CONSENT_CHANNELS) consent[channel] ??= otherConsent[channel] ?? null
  const tags = normalizeTags([...(JSON.parse(survivor.tags) as string[]), ...(JSON.parse(other.tags) as string[])])
  const rank = (row: ContactRow) => CONTACT_TYPES.indexOf(row.contact_type)
  return {
    ...survivor,
    ...filled,
    contact_type: rank(other) > rank(survivor) ? other.contact_type : survivor.contact_type,
    consent: JSON.stringify(consent),
    tags: JSON.stringify(tags),
    custom_fields: JSON.stringify({ ...JSON.parse(other.custom_fields), ...JSON.parse(survivor.custom_fields) }),
    last_activity_at: Math.max(Number(survivor.last_activity_at), Number(other.last_activity_at)),
  }
}

export async function mergeContacts(ctx: Ctx<UserActor>, input: { id: string; otherId: string }): Promise<ContactRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  if (input.otherId === input.id)
    throw validationError([{ field: 'other_id', message: 'is this contact: a contact cannot merge into itself' }])
  return ctx.db.write('contact.merge', async (tx) => {
    // Both locked (id order): a merge racing a PATCH, a delete, another merge or a record naming either
    // works on their latest state, and a record naming the other commits first (and moves) or finds it gone.
    const locked = await lockContacts(tx, actor.organizationId, [input.id, input.otherId])
    const survivor = locked.get(input.id)
    if (!survivor) throw new AppError('NOT_FOUND', 'No such contact')
    const other = locked.get(input.otherId)
    if (!other) throw validationError([{ field: 'other_id', message: 'is not a contact of this organization' }])
    // Merging changes both: an agent needs to be allowed to write each.
    assertMayWrite(actor, 'contact', survivor.owner_id)
    assertMayWrite(actor, 'contact', other.owner_id)
    const merged: ContactRow = { ...other, merged_into_id: survivor.id, updated_at: now }
    // First, so that its e-mail, phone and external id leave the unique indexes before the survivor takes them.
    await saveContact(tx, merged, false)
    await moveContactLinks(tx, actor.organizationId, other.id, survivor.id)
    const change = { organizationId: actor.organizationId, from: other.id, to: survivor.id, now, cause: 'contact.merged' } as const
    await moveReferences(tx, ctx, ctx.referrers.contact, change)
    const after = united(survivor, other)
    const changed = changedFields(survivor, after, FIELDS)
    const saved = { ...after, updated_at: now }
    await saveContact(tx, saved, changed.includes('tags'))
    await recordContactEvent(tx, ctx, 'crm.contact.updated', saved, now, { changed, merged_ids: [other.id] })
    await recordContactEvent(tx, ctx, 'crm.contact.deleted', other, now, { merged_into_id: survivor.id })
    return saved
  })
}
