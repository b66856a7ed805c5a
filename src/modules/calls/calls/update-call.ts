// updateCall: what a call is about, set during or after it — its ticket and its contact (status, agent
// and queue change only through the lifecycle operations and transfer). The catalog has no call.updated
// event, so the change is audited only (`call.updated`, naming the fields, in the same transaction).
import type { Ctx, UserActor } from '../../../context.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { assertTicket, contactOf } from './fields.ts'
import { type CallRow, saveCall } from './store.ts'
import { lockVisibleCall } from './visibility.ts'

export interface CallChanges {
  ticket_id?: string | null
  contact_id?: string | null
}

export async function updateCall(ctx: Ctx<UserActor>, input: { id: string; changes: CallChanges }): Promise<CallRow> {
  const { actor } = ctx
  const { changes } = input
  const now = ctx.clock.now()
  return ctx.db.write('call.update', async (tx) => {
    // Locked: the whole row is written back, so no concurrent step (an end) may land between read and write.
    const before = await lockVisibleCall(tx, actor, input.id)
    if (changes.ticket_id && changes.ticket_id !== before.ticket_id) await assertTicket(tx, actor.organizationId, changes.ticket_id)
    const after: CallRow = { ...before }
    if (changes.ticket_id !== undefined) after.ticket_id = changes.ticket_id
    // Given as null: none; given: checked. (Not found by number here: that happens once, at creation.)
    if (changes.contact_id !== undefined)
      after.contact_id =
        changes.contact_id === before.contact_id ? before.contact_id : await contactOf(tx, actor.organizationId, changes.contact_id, before)
    const changed = (['ticket_id', 'contact_id'] as const).filter((field) => after[field] !== before[field])
    if (changed.length === 0) return before
    after.updated_at = now
    await saveCall(tx, after)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'call.updated',
      target: { type: 'call', id: after.id },
      details: { changed },
      request: actor.request,
      now,
    })
    return after
  })
}
