// What a ticket does when its contact is deleted or merged away: it stays (its requester too) without a
// contact, or follows the merge to the survivor. Each ticket so changed gets ticket.updated (changed:
// contact_id), exactly as a PATCH of its contact_id would, closed tickets included: the change is the
// contact's, not a move of the ticket's lifecycle.
import type { Referrer } from '../../references.ts'
import { recordTicketEvent } from './shared.ts'
import { saveTicket, ticketsOfContact } from './store.ts'

export const ticketContactReferrer: Referrer = {
  record: 'ticket',
  onDelete: 'detach',
  async repoint(tx, ctx, change) {
    for (const ticket of await ticketsOfContact(tx, change.organizationId, change.from)) {
      const after = { ...ticket, contact_id: change.to, updated_at: change.now }
      await saveTicket(tx, after)
      await recordTicketEvent(tx, ctx, 'ticket.updated', after, change.now, { changed: ['contact_id'] })
    }
  },
}
