// deleteContact: removes a live contact (agents: one they own or nobody owns). What names it elsewhere
// decides first (src/references.ts): its engagement sessions refuse (409: a session is a conversation
// with its contact); its tickets, calls and survey responses stay without it, each change recorded by
// its module. crm.contact.deleted carries its last state; all of it in one transaction.
import type { Ctx, UserActor } from '../../../context.ts'
import { deleteUnlessReferenced } from '../../../db/foreign-keys.ts'
import { releaseReferences } from '../../../references.ts'
import { assertMayWrite } from '../ownership.ts'
import { recordContactEvent } from './events.ts'
import { getContactForUpdate } from './get-contact.ts'
import { deleteContactRow } from './store.ts'

export async function deleteContact(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('contact.delete', async (tx) => {
    // Locked first: a record naming it commits before the count (and is counted) or finds it gone (store.ts keyShare).
    const contact = await getContactForUpdate(tx, actor.organizationId, input.id)
    assertMayWrite(actor, 'contact', contact.owner_id)
    const change = { organizationId: contact.organization_id, from: contact.id, now, cause: 'contact.deleted' } as const
    await releaseReferences(tx, ctx, ctx.referrers.contact, 'contact', change)
    await deleteUnlessReferenced('contact', () => deleteContactRow(tx, contact))
    await recordContactEvent(tx, ctx, 'crm.contact.deleted', contact, now)
  })
}
