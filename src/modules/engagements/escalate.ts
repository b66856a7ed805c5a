// escalateEngagement: escalation is an event and fields, not a state (research §2.7): escalated_at,
// escalation_level, escalated_to ({agent_id} or {team}) and escalation_reason are set, with
// engagement.escalated (+ escalation). To an agent, the session is handed to it (a queued one becomes
// active); to a team, its team becomes that team. ticket_id links a ticket of the organization;
// create_ticket makes one for the session's contact (subject and priority from the session) and links it,
// in the same transaction (ticket.created comes before engagement.escalated).
import type { Ctx, UserActor } from '../../context.ts'
import { AppError, validationError } from '../../errors.ts'
import { createTicketInTx } from '../tickets/index.ts'
import { recordEngagementEvent, refreshAgentsOf } from './events.ts'
import { assertActiveUser, assertTicket, nameOf } from './fields.ts'
import { type EngagementRow, saveEngagement } from './store.ts'
import { lockVisibleEngagement } from './visibility.ts'

export interface Escalation {
  level: number
  to: { agent_id?: string; team?: string }
  reason: string
  ticket_id?: string
  create_ticket?: boolean
}

/** A session's channel as a ticket's (tickets know no sms or social channel: `phone` and `web`). */
const TICKET_CHANNEL = { chat: 'chat', email: 'email', sms: 'phone', voice: 'phone', social: 'web', api: 'api' } as const

function targetOf(to: Escalation['to']): { agent_id: string } | { team: string } {
  const team = nameOf(to.team)
  if ((to.agent_id === undefined) === (team === null))
    throw validationError([{ field: 'to', message: 'must name exactly one of agent_id and team' }])
  return to.agent_id !== undefined ? { agent_id: to.agent_id } : { team: team! }
}

export async function escalateEngagement(ctx: Ctx<UserActor>, input: { id: string; escalation: Escalation }): Promise<EngagementRow> {
  const { actor } = ctx
  const { escalation } = input
  const to = targetOf(escalation.to)
  const reason = escalation.reason.trim()
  if (reason === '') throw validationError([{ field: 'reason', message: 'must not be empty' }])
  const now = ctx.clock.now()
  return ctx.db.write('engagement.escalate', async (tx) => {
    // Locked: the escalation's fields and assignee are written over the status read, not a stale one.
    const before = await lockVisibleEngagement(tx, actor, input.id)
    if (before.status === 'closed') throw new AppError('INVALID_STATE_TRANSITION', 'A closed session cannot be escalated; reopen it first')
    if ('agent_id' in to) await assertActiveUser(tx, actor.organizationId, to.agent_id, 'to.agent_id')
    if (escalation.ticket_id && escalation.create_ticket)
      throw validationError([{ field: 'create_ticket', message: 'either link ticket_id or create a ticket, not both' }])
    if (escalation.ticket_id) await assertTicket(tx, actor.organizationId, escalation.ticket_id)
    const ticketId = escalation.create_ticket
      ? (
          await createTicketInTx(
            tx,
            ctx,
            {
              subject: before.subject ?? `Escalated ${before.channel} session ${before.id}`,
              description: reason,
              priority: before.priority,
              channel: TICKET_CHANNEL[before.channel],
              contact_id: before.contact_id,
              assignee_id: 'agent_id' in to ? to.agent_id : null,
            },
            now,
          )
        ).id
      : escalation.ticket_id
    const after: EngagementRow = {
      ...before,
      escalated_at: now,
      escalation_level: escalation.level,
      escalated_to: JSON.stringify(to),
      escalation_reason: reason,
      ...('agent_id' in to
        ? before.status === 'queued'
          ? { assignee_id: to.agent_id, status: 'active' as const, last_activity_at: now }
          : { assignee_id: to.agent_id }
        : { team: to.team }),
      ...(ticketId !== undefined && { ticket_id: ticketId }),
      updated_at: now,
    }
    await saveEngagement(tx, after)
    await refreshAgentsOf(tx, ctx, before, after, now)
    await recordEngagementEvent(tx, ctx, 'engagement.escalated', after, now, { escalation: { level: escalation.level, to, reason } })
    return after
  })
}
