// createTicket: a new ticket with the organization's next number; ticket.created (and ticket.assigned
// when it starts with an assignee) in the same transaction. Its contact is the one named by contact_id,
// else the requester's (found by e-mail, or created with crm.contact.created); that contact's
// last_activity_at moves to now, and a ticket without a requester shows the contact's. The uploads it
// names (upload_ids: pending attachment uploads of the organization) are attached to it in the same
// transaction, and ticket.created carries them whole (data.uploads).
import { randomInt } from 'node:crypto'
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { resolveTicketContact, touchContactActivity } from '../crm/index.ts'
import { attachUploadsInTx, uploadJson } from '../uploads/index.ts'
import { priorityRank, type TicketPriority } from './lifecycle.ts'
import { assertAssignable, checkCustomFields, normalizeTags, recordTicketEvent } from './shared.ts'
import { assignTicketNumber, insertTags, insertTicket, type TicketRow } from './store.ts'

export interface NewTicket {
  subject: string
  description?: string
  status?: 'new' | 'open' | 'pending' | 'on_hold'
  priority?: TicketPriority
  type?: TicketRow['type']
  channel?: TicketRow['channel']
  requester?: { name: string; email: string } | null
  contact_id?: string | null
  assignee_id?: string | null
  tags?: string[]
  custom_fields?: Record<string, string | number | boolean>
  upload_ids?: string[]
}

/** The purposes of the uploads a ticket or a comment takes. */
export const TICKET_UPLOAD_PURPOSES = ['attachment'] as const

export async function createTicket(ctx: Ctx<UserActor>, input: NewTicket): Promise<TicketRow> {
  const now = ctx.clock.now()
  return ctx.db.write('ticket.create', (tx) => createTicketInTx(tx, ctx, input, now))
}

/** createTicket in the caller's transaction (an engagement escalated with create_ticket commits with its ticket). */
export async function createTicketInTx(tx: Tx, ctx: Ctx<UserActor>, input: NewTicket, now: number): Promise<TicketRow> {
  const { actor } = ctx
  const customFields = checkCustomFields(input.custom_fields ?? {})
  const tags = normalizeTags(input.tags ?? [])
  const id = prefixedId('tkt')
  const uploadIds = input.upload_ids ?? []
  {
    // Any string is checked, '' too: only null and absent mean no assignee (an unchecked '' reached the foreign key: 500).
    if (typeof input.assignee_id === 'string') await assertAssignable(tx, actor.organizationId, input.assignee_id)
    const uploads = await attachUploadsInTx(tx, ctx, {
      organizationId: actor.organizationId,
      uploadIds,
      target: { type: 'ticket', id },
      purposes: TICKET_UPLOAD_PURPOSES,
      now,
    })
    // After the checks above, before the ticket's own event: a contact it creates is announced first.
    const contact = await resolveTicketContact(tx, ctx, {
      organizationId: actor.organizationId,
      contactId: input.contact_id,
      requester: input.requester,
      now,
    })
    const requester = input.requester ?? (contact?.email ? { name: contact.name, email: contact.email } : null)
    const row: TicketRow = {
      id,
      organization_id: actor.organizationId,
      // A placeholder, unique among the transactions in flight, until the commit pipeline gives the next
      // number (assignTicketNumber): the organization's counter is not held while the rest is written.
      number: -randomInt(1, 2 ** 47),
      subject: input.subject.trim(),
      description: input.description ?? '',
      status: input.status ?? 'new',
      priority: priorityRank(input.priority ?? 'normal'),
      type: input.type ?? null,
      channel: input.channel ?? 'api',
      requester_name: requester?.name.trim() ?? null,
      requester_email: requester?.email.trim().toLowerCase() ?? null,
      contact_id: contact?.id ?? null,
      assignee_id: input.assignee_id ?? null,
      tags: JSON.stringify(tags),
      custom_fields: customFields,
      upload_ids: JSON.stringify(uploadIds),
      created_at: now,
      updated_at: now,
      solved_at: null,
      closed_at: null,
    }
    // Registered before the ticket's events, so it runs before them in the commit pipeline.
    void tx.atCommit(async () => {
      row.number = await assignTicketNumber(tx, row)
    })
    // Statements started together go down one pipeline on PostgreSQL (the ticket before its tags, which reference it).
    await Promise.all([
      insertTicket(tx, row),
      insertTags(tx, row, tags),
      contact ? touchContactActivity(tx, contact, now) : undefined,
      recordTicketEvent(tx, ctx, 'ticket.created', row, now, { uploads: uploads.map(uploadJson) }),
    ])
    // After the first: each appends to the audit chain, which reads its last record.
    if (row.assignee_id) await recordTicketEvent(tx, ctx, 'ticket.assigned', row, now, { previous_assignee_id: null })
    return row
  }
}
