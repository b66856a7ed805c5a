// updateLead: field and status changes under the lifecycle (converted only through convert; a converted
// lead is read-only), by the lead's owner, anyone when it has none, or a role not limited to its own;
// audited as lead.updated naming the changed fields (and the status moved from and to).
import type { Ctx, UserActor } from '../../../context.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { assertMayWrite } from '../ownership.ts'
import { auditLead } from './audit.ts'
import { assertMayGive, assertOwner, e164, normalizeEmail, trimmedOrNull } from './fields.ts'
import { getLeadForUpdate } from './get-lead.ts'
import { assertNotConverted, assertTransition, type LeadStatus } from './lifecycle.ts'
import { type LeadRow, saveLead } from './store.ts'

export interface LeadChanges {
  name?: string
  email?: string | null
  phone?: string | null
  company_name?: string | null
  source?: string | null
  score?: number
  status?: LeadStatus
  owner_id?: string | null
}

const FIELDS = ['name', 'email', 'phone', 'company_name', 'source', 'score', 'status', 'owner_id'] as const

export async function updateLead(ctx: Ctx<UserActor>, input: { id: string; changes: LeadChanges }): Promise<LeadRow> {
  const { actor } = ctx
  const { changes } = input
  const now = ctx.clock.now()
  if (changes.owner_id !== undefined) assertMayGive(actor, changes.owner_id)
  // Parsed before the transaction: a bad number is refused without taking the writer.
  const phone = changes.phone === undefined ? undefined : changes.phone === null ? null : e164(changes.phone)
  return ctx.db.write('lead.update', async (tx) => {
    // Locked: a PATCH racing another, a conversion or a DELETE decides from the lead as it is now.
    const before = await getLeadForUpdate(tx, actor, input.id)
    assertMayWrite(actor, 'lead', before.owner_id)
    // A status asked for is named in the refusal; a change of other fields is refused all the same.
    assertNotConverted(before.status, changes.status)
    if (changes.status !== undefined && changes.status !== before.status) assertTransition(before.status, changes.status, 'patch')
    if (changes.owner_id && changes.owner_id !== before.owner_id) await assertOwner(tx, actor.organizationId, changes.owner_id)
    const name = changes.name?.trim() ?? before.name
    const after: LeadRow = {
      ...before,
      name,
      name_key: searchKey(name),
      ...(changes.email !== undefined && { email: changes.email === null ? null : normalizeEmail(changes.email) }),
      ...(phone !== undefined && { phone }),
      ...(changes.company_name !== undefined && { company_name: trimmedOrNull(changes.company_name) }),
      ...(changes.source !== undefined && { source: trimmedOrNull(changes.source) }),
      ...(changes.score !== undefined && { score: changes.score }),
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.owner_id !== undefined && { owner_id: changes.owner_id }),
    }
    const changed = FIELDS.filter((field) => after[field] !== before[field])
    if (changed.length === 0) return before
    await saveLead(tx, { ...after, updated_at: now })
    const status = changed.includes('status') ? { status: { from: before.status, to: after.status } } : {}
    await auditLead(tx, ctx, 'lead.updated', after, now, { changed, ...status })
    return { ...after, updated_at: now }
  })
}
