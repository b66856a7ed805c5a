// updateAccount: field changes of an account; crm.account.updated names the changed fields. A PATCH
// that changes nothing writes nothing.
import type { Ctx, UserActor } from '../../../context.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { assertOwner, changedFields, checkCustomFields, normalizeTags, trimmedOrNull } from '../fields.ts'
import { assertDomainFree, type NewAccount } from './create-account.ts'
import { recordAccountEvent } from './events.ts'
import { domainOf } from './fields.ts'
import { getAccountForUpdate } from './get-account.ts'
import { type AccountRow, saveAccount } from './store.ts'

export type AccountChanges = Partial<NewAccount>

const FIELDS = ['name', 'domain', 'industry', 'size', 'owner_id', 'tags', 'custom_fields'] as const

/** The columns `changes` set, normalized (400 naming a field that cannot be). */
function columnsOf(changes: AccountChanges): Partial<AccountRow> {
  const name = changes.name?.trim()
  return {
    ...(name !== undefined && { name, name_key: searchKey(name) }),
    ...(changes.domain !== undefined && { domain: domainOf(changes.domain) }),
    ...(changes.industry !== undefined && { industry: trimmedOrNull(changes.industry) }),
    ...(changes.size !== undefined && { size: changes.size }),
    ...(changes.owner_id !== undefined && { owner_id: changes.owner_id }),
    ...(changes.tags !== undefined && { tags: JSON.stringify(normalizeTags(changes.tags)) }),
    ...(changes.custom_fields !== undefined && { custom_fields: checkCustomFields(changes.custom_fields) }),
  }
}

export async function updateAccount(ctx: Ctx<UserActor>, input: { id: string; changes: AccountChanges }): Promise<AccountRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const columns = columnsOf(input.changes)
  return ctx.db.write('account.update', async (tx) => {
    // Locked: two PATCHes each change the other's result, never overwrite it.
    const before = await getAccountForUpdate(tx, actor.organizationId, input.id)
    const after: AccountRow = { ...before, ...columns }
    const changed = changedFields(before, after, FIELDS)
    if (changed.length === 0) return before
    if (changed.includes('domain') && after.domain !== null) await assertDomainFree(tx, actor.organizationId, after.domain, before.id)
    if (changed.includes('owner_id') && after.owner_id !== null) await assertOwner(tx, actor.organizationId, after.owner_id)
    const saved = { ...after, updated_at: now }
    await saveAccount(tx, saved, changed.includes('tags'))
    await recordAccountEvent(tx, ctx, 'crm.account.updated', saved, now, { changed })
    return saved
  })
}
