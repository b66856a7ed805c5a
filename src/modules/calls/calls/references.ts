// What a call does when its contact or ticket is deleted or merged away: the call is a record of what
// happened on the line and means as much without them (its numbers stay), so it lets go (contact or
// ticket deleted) or follows (contact merged). Each call so changed is audited `call.updated` naming the
// field, as PATCH /calls/{id} is (the catalog has no call.updated event), with the cause.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import type { Referrer, Repoint } from '../../../references.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { type CallReference, callsNaming, repointCalls } from './store.ts'

function referrer(column: CallReference): Referrer {
  return {
    record: 'call',
    onDelete: 'detach',
    async repoint(tx: Tx, ctx: Ctx, change: Repoint) {
      const ids = await callsNaming(tx, change.organizationId, column, change.from)
      if (ids.length === 0) return
      await repointCalls(tx, change.organizationId, column, change.from, change.to, change.now)
      for (const id of ids)
        await appendAudit(tx, {
          organizationId: change.organizationId,
          actor: auditActorOf(ctx.actor),
          event: 'call.updated',
          target: { type: 'call', id },
          details: { changed: [column], cause: change.cause },
          request: ctx.actor.kind === 'user' ? ctx.actor.request : undefined,
          now: change.now,
        })
    },
  }
}

/** calls.contact_id: let go when the contact is deleted, moved to the survivor of a merge. */
export const callContactReferrer = referrer('contact_id')

/** calls.ticket_id: let go when the ticket is deleted. */
export const callTicketReferrer = referrer('ticket_id')
