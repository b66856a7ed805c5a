// deleteLead: removes a lead that is not converted (a converted lead is the record of its conversion),
// by its owner, anyone when it has none, or a role not limited to its own; audited as lead.deleted.
import type { Ctx, UserActor } from '../../../context.ts'
import { assertMayWrite } from '../ownership.ts'
import { auditLead } from './audit.ts'
import { getLeadForUpdate } from './get-lead.ts'
import { assertNotConverted } from './lifecycle.ts'
import { deleteLeadRow } from './store.ts'

export async function deleteLead(ctx: Ctx<UserActor>, input: { id: string }): Promise<void> {
  const { actor } = ctx
  const now = ctx.clock.now()
  await ctx.db.write('lead.delete', async (tx) => {
    // Locked: a conversion racing the delete commits first (then 409: converted) or finds no lead.
    const lead = await getLeadForUpdate(tx, actor, input.id)
    assertMayWrite(actor, 'lead', lead.owner_id)
    assertNotConverted(lead.status, 'deleted')
    await deleteLeadRow(tx, lead)
    await auditLead(tx, ctx, 'lead.deleted', lead, now)
  })
}
