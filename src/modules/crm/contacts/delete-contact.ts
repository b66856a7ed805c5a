// deleteContact: removes a live contact (agents: one they own or nobody owns); its tickets stay without
// it. crm.contact.deleted carries its last state.
import type { Ctx, UserActor } from '../../../context.ts'
import { assertMayWrite } from '../ownership.ts'
import { recordContactEvent } from './events.ts'
import { getContact } from './get-contact.ts'
import { deleteContactRow } from './store.ts'

export async function deleteContact(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('contact.delete', async (tx) => {
    const contact = await getContact(tx, actor.organizationId, input.id)
    assertMayWrite(actor, 'contact', contact.owner_id)
    await deleteContactRow(tx, contact)
    await recordContactEvent(tx, ctx, 'crm.contact.deleted', contact, now)
  })
}
