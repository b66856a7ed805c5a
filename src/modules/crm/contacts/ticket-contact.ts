// The contact of a ticket, resolved in the ticket's transaction: the one named by contact_id (a live
// contact of the organization, else 400), none when contact_id is null, or else the one whose e-mail is
// the requester's, created (crm.contact.created) when there is none yet.
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { AppError, validationError } from '../../../errors.ts'
import { createContactInTx } from './create-contact.ts'
import { normalizeEmail } from './fields.ts'
import { type ContactRow, findContact, findContactBy } from './store.ts'

export interface TicketContactInput {
  organizationId: string
  /** Wins over the requester when both are given; null: the ticket has no contact, whoever its requester. */
  contactId?: string | null
  requester?: { name: string; email: string } | null
  now: number
}

/** The ticket's contact, or null when the ticket names neither a contact nor a requester. */
export async function resolveTicketContact(tx: Tx, ctx: Ctx, input: TicketContactInput): Promise<ContactRow | null> {
  const { organizationId } = input
  if (input.contactId === null) return null
  if (input.contactId !== undefined) {
    const contact = await findContact(tx, organizationId, input.contactId)
    if (!contact) throw validationError([{ field: 'contact_id', message: 'is not a contact of this organization' }])
    return contact
  }
  if (!input.requester) return null
  const email = normalizeEmail(input.requester.email)
  const known = await findContactBy(tx, organizationId, 'email', email)
  if (known) return known
  try {
    return await createContactInTx(tx, ctx, { organizationId, name: input.requester.name, email, now: input.now })
  } catch (error) {
    // On PostgreSQL (READ COMMITTED) another ticket's transaction may commit this e-mail's contact between
    // the read above and the creation's own check (409): that contact is the requester's, as if found.
    const created =
      error instanceof AppError && error.code === 'CONFLICT' ? await findContactBy(tx, organizationId, 'email', email) : undefined
    if (created) return created
    throw error
  }
}
