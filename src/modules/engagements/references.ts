// What a session does when its contact or ticket is deleted or merged away. A session is a conversation
// WITH its contact (contact_id is required, its inbound messages are the contact's): deleting a contact
// that has sessions is refused (409), and merging moves them, with their inbound messages' author, to
// the survivor. A ticket is only linked: the session lets go of a deleted one. Each session so changed
// is audited `engagement.updated` naming the field, as a PATCH is (no catalog event), with the cause.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import type { Referrer, Repoint } from '../../references.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { type EngagementReference, engagementsNaming, moveContactMessages, repointEngagements } from './store.ts'

async function repoint(tx: Tx, ctx: Ctx, column: EngagementReference, change: Repoint): Promise<void> {
  const ids = await engagementsNaming(tx, change.organizationId, column, change.from)
  if (ids.length === 0) return
  await repointEngagements(tx, change.organizationId, column, change.from, change.to, change.now)
  if (column === 'contact_id' && change.to !== null) await moveContactMessages(tx, change.organizationId, change.from, change.to)
  for (const id of ids)
    await appendAudit(tx, {
      organizationId: change.organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'engagement.updated',
      target: { type: 'engagement', id },
      details: { changed: [column], cause: change.cause },
      request: ctx.actor.kind === 'user' ? ctx.actor.request : undefined,
      now: change.now,
    })
}

/** engagements.contact_id: a contact with sessions is not deleted; a merge moves them to the survivor. */
export const engagementContactReferrer: Referrer = {
  record: 'engagement session',
  onDelete: 'refuse',
  instead: 'merge it into another contact to keep them there (POST /api/v1/contacts/{that contact}/merge with this one as other_id)',
  async count(tx, organizationId, id) {
    return (await engagementsNaming(tx, organizationId, 'contact_id', id)).length
  },
  repoint: (tx, ctx, change) => repoint(tx, ctx, 'contact_id', change),
}

/** engagements.ticket_id: let go when the ticket is deleted. */
export const engagementTicketReferrer: Referrer = {
  record: 'engagement session',
  onDelete: 'detach',
  repoint: (tx, ctx, change) => repoint(tx, ctx, 'ticket_id', change),
}
