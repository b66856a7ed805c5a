// createEngagement: a new session with a contact on a channel, queued until assigned — given an
// assignee (or "auto": the routing's pick, queued still when nobody is available) it starts active —
// with engagement.created in the same transaction. createEngagementInTx is the part an inbound message
// shares when it opens a new session for a contact whose last one closed too long ago.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { assigneeFor } from './assign.ts'
import { recordEngagementEvent, refreshAgentsOf } from './events.ts'
import { assertCall, assertContact, assertTicket, customFieldsOf, labelsOf, nameOf, skillOf } from './fields.ts'
import { type EngagementRow, insertEngagement } from './store.ts'
import type { Channel } from './table.ts'
import type { EngagementChanges } from './update-engagement.ts'
import { assertMayTake } from './visibility.ts'

/** The fields a session is created with: those an update may change, plus its contact, channel and assignee. */
export interface NewEngagement extends EngagementChanges {
  contact_id: string
  channel: Channel
  /** A user id, or "auto". */
  assignee_id?: string | null
  assign?: 'auto'
}

export async function createEngagement(ctx: Ctx<UserActor>, input: NewEngagement): Promise<EngagementRow> {
  const { actor } = ctx
  const assign = input.assign ?? input.assignee_id ?? null
  assertMayTake(actor, assign)
  const customFields = customFieldsOf(input.custom_fields ?? {})
  const now = ctx.clock.now()
  return ctx.db.write('engagement.create', async (tx) => {
    const org = actor.organizationId
    await assertContact(tx, org, input.contact_id)
    if (input.ticket_id) await assertTicket(tx, org, input.ticket_id)
    if (input.call_id) await assertCall(tx, org, input.call_id)
    const row = newRow({ ...input, organizationId: org, createdBy: actor.userId, customFields, now })
    const assigneeId = assign === null ? undefined : await assigneeFor(tx, row, assign)
    return createEngagementInTx(tx, ctx, assigneeId === undefined ? row : { ...row, assignee_id: assigneeId, status: 'active' }, now)
  })
}

export function newRow(
  input: Omit<NewEngagement, 'custom_fields'> & { organizationId: string; createdBy: string; customFields?: string; now: number },
): EngagementRow {
  const { now } = input
  return {
    id: prefixedId('eng'),
    organization_id: input.organizationId,
    contact_id: input.contact_id,
    channel: input.channel,
    status: 'queued',
    assignee_id: null,
    team: nameOf(input.team),
    required_skill: skillOf(input.required_skill),
    priority: input.priority ?? 'normal',
    subject: nameOf(input.subject),
    first_reply_at: null,
    waiting_since: null,
    last_activity_at: now,
    snoozed_until: null,
    closed_at: null,
    close_reason: null,
    labels: labelsOf(input.labels ?? []),
    custom_fields: input.customFields ?? '{}',
    ticket_id: input.ticket_id ?? null,
    call_id: input.call_id ?? null,
    escalated_at: null,
    escalation_level: null,
    escalated_to: null,
    escalation_reason: null,
    created_by: input.createdBy,
    created_at: now,
    updated_at: now,
  }
}

/** Inserts the session with engagement.created; its assignee's load counts it. */
export async function createEngagementInTx(tx: Tx, ctx: Ctx, row: EngagementRow, now: number): Promise<EngagementRow> {
  await insertEngagement(tx, row)
  await refreshAgentsOf(tx, ctx, undefined, row, now)
  await recordEngagementEvent(tx, ctx, 'engagement.created', row, now)
  return row
}
