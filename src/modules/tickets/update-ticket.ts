// updateTicket: field and status changes under the lifecycle; ticket.updated names the changed fields,
// and entering `solved` also writes ticket.resolved. A new requester e-mail links the ticket to that
// e-mail's contact (found or created) unless contact_id is given too. Also closeSolvedTickets for the cron loop.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { resolveTicketContact } from '../crm/index.ts'
import { assertNotClosed, assertTransition, priorityRank, type TicketPriority, type TicketStatus } from './lifecycle.ts'
import { checkCustomFields, normalizeTags, recordTicketEvent } from './shared.ts'
import { replaceTags, saveTicket, solvedTicketsDue, type TicketRow } from './store.ts'
import { getVisibleTicket } from './visibility.ts'

export interface TicketChanges {
  subject?: string
  description?: string
  status?: TicketStatus
  priority?: TicketPriority
  type?: TicketRow['type']
  channel?: TicketRow['channel']
  requester?: { name: string; email: string } | null
  contact_id?: string | null
  tags?: string[]
  custom_fields?: Record<string, string | number | boolean>
}

type Field = 'subject' | 'description' | 'status' | 'priority' | 'type' | 'channel' | 'requester' | 'contact_id' | 'tags' | 'custom_fields'

/** The contact after `changes`: the one named, none (null), the new requester's, or the one it had. */
async function contactAfter(tx: Tx, ctx: Ctx, before: TicketRow, changes: TicketChanges, now: number): Promise<string | null> {
  const organizationId = before.organization_id
  if (changes.contact_id === null) return null
  if (changes.contact_id !== undefined)
    return (await resolveTicketContact(tx, ctx, { organizationId, contactId: changes.contact_id, now }))!.id
  const requester = changes.requester
  if (!requester || requester.email.trim().toLowerCase() === before.requester_email) return before.contact_id
  return (await resolveTicketContact(tx, ctx, { organizationId, requester, now }))!.id
}

/** Applies a status change's side columns (solved_at, closed_at). */
function statusColumns(from: TicketRow, to: TicketStatus, now: number): Pick<TicketRow, 'status' | 'solved_at' | 'closed_at'> {
  if (to === from.status) return { status: from.status, solved_at: from.solved_at, closed_at: from.closed_at }
  return { status: to, solved_at: to === 'solved' ? now : to === 'closed' ? from.solved_at : null, closed_at: to === 'closed' ? now : null }
}

async function save(tx: Tx, ctx: Ctx, after: TicketRow, changed: Field[], now: number): Promise<TicketRow> {
  await saveTicket(tx, after)
  if (changed.includes('tags')) await replaceTags(tx, after, JSON.parse(after.tags) as string[])
  await recordTicketEvent(tx, ctx, 'ticket.updated', after, now, { changed })
  if (changed.includes('status') && after.status === 'solved') await recordTicketEvent(tx, ctx, 'ticket.resolved', after, now)
  return after
}

export async function updateTicket(ctx: Ctx<UserActor>, input: { id: string; changes: TicketChanges }): Promise<TicketRow> {
  const { actor } = ctx
  const { changes } = input
  const now = ctx.clock.now()
  const customFields = changes.custom_fields === undefined ? undefined : checkCustomFields(changes.custom_fields)
  return ctx.db.write('ticket.update', async (tx) => {
    const before = await getVisibleTicket(tx, actor, input.id)
    assertNotClosed(before.status, changes.status === undefined ? 'change' : { to: changes.status })
    if (changes.status !== undefined && changes.status !== before.status) assertTransition(before.status, changes.status)
    const contactId = await contactAfter(tx, ctx, before, changes, now)
    const requester =
      changes.requester === undefined
        ? undefined
        : changes.requester === null
          ? { requester_name: null, requester_email: null }
          : { requester_name: changes.requester.name.trim(), requester_email: changes.requester.email.trim().toLowerCase() }
    const after: TicketRow = {
      ...before,
      ...(changes.subject !== undefined && { subject: changes.subject.trim() }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.priority !== undefined && { priority: priorityRank(changes.priority) }),
      ...(changes.type !== undefined && { type: changes.type }),
      ...(changes.channel !== undefined && { channel: changes.channel }),
      ...requester,
      contact_id: contactId,
      ...(changes.tags !== undefined && { tags: JSON.stringify(normalizeTags(changes.tags)) }),
      ...(customFields !== undefined && { custom_fields: customFields }),
      ...statusColumns(before, changes.status ?? before.status, now),
    }
    const differs: Record<Field, boolean> = {
      subject: after.subject !== before.subject,
      description: after.description !== before.description,
      status: after.status !== before.status,
      priority: after.priority !== before.priority,
      type: after.type !== before.type,
      channel: after.channel !== before.channel,
      requester: after.requester_name !== before.requester_name || after.requester_email !== before.requester_email,
      contact_id: after.contact_id !== before.contact_id,
      tags: after.tags !== before.tags,
      custom_fields: after.custom_fields !== before.custom_fields,
    }
    const changed = (Object.keys(differs) as Field[]).filter((field) => differs[field])
    if (changed.length === 0) return before
    return save(tx, ctx, { ...after, updated_at: now }, changed, now)
  })
}

/** For the cron loop: closes tickets solved at or before `solvedBefore`, at most `limit` of them in one transaction. */
export async function closeSolvedTickets(ctx: Ctx, input: { solvedBefore: number; limit: number }): Promise<number> {
  const now = ctx.clock.now()
  return ctx.db.write('ticket.auto_close', async (tx) => {
    const due = await solvedTicketsDue(tx, input.solvedBefore, input.limit)
    for (const before of due) await save(tx, ctx, { ...before, ...statusColumns(before, 'closed', now), updated_at: now }, ['status'], now)
    return due.length
  })
}
