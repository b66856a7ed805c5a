// Messages of a session. addMessage: an outbound message (the caller, an agent, is its author) or an
// inbound one (the session's contact is its author; an agent or an integration records it). An inbound
// message wakes a snoozed session, brings one in wrap-up back to active, reopens a closed one within
// ENGAGEMENT_REOPEN_HOURS — later, it opens a NEW session for the same contact and channel, and the
// message goes there (its engagement_id says which) — and sets waiting_since (the first unanswered
// inbound); an outbound one sets first_reply_at the first time and clears waiting_since; every message
// sets last_activity_at. upload_ids attaches pending attachment uploads to the message (uploads module).
// Each message emits engagement.message.added (the session and the message) in its transaction.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { type ListRequest, listBody } from '../../db/list.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { attachUploadsInTx } from '../uploads/index.ts'
import { createEngagementInTx, newRow } from './create-engagement.ts'
import { recordEngagementEvent } from './events.ts'
import { messageJson } from './engagement-json.ts'
import { moveInTx, reopenedStatus } from './move-engagement.ts'
import { type EngagementRow, insertMessage, MESSAGE_LIST, type MessageRow, saveEngagement } from './store.ts'
import { getVisibleEngagement, lockVisibleEngagement } from './visibility.ts'

export interface NewMessage {
  direction: 'in' | 'out'
  body: string
  upload_ids?: string[]
}

export const MESSAGE_UPLOAD_PURPOSES = ['attachment'] as const

/** The session an inbound message goes to, woken or reopened; or a new one when the last closed too long ago. */
async function sessionForInbound(tx: Tx, ctx: Ctx, row: EngagementRow, now: number): Promise<EngagementRow> {
  if (row.status === 'snoozed') return moveInTx(tx, ctx, row, { to: 'active', move: 'unsnooze', now, what: 'woken' })
  if (row.status === 'wrap_up') return moveInTx(tx, ctx, row, { to: 'active', move: 'reopen', now, what: 'reopened' })
  if (row.status !== 'closed') return row
  if (now - Number(row.closed_at) <= ctx.config.engagements.reopenMs)
    return moveInTx(tx, ctx, row, { to: reopenedStatus(row), move: 'reopen', now, what: 'reopened' })
  const fresh = newRow({
    organizationId: row.organization_id,
    contact_id: row.contact_id,
    channel: row.channel,
    team: row.team,
    required_skill: row.required_skill,
    priority: row.priority,
    subject: row.subject,
    createdBy: ctx.actor.kind === 'user' ? ctx.actor.userId : `system:${ctx.actor.id}`,
    now,
  })
  return createEngagementInTx(tx, ctx, { ...fresh, waiting_since: now }, now)
}

export async function addMessage(ctx: Ctx<UserActor>, input: { id: string; message: NewMessage }): Promise<MessageRow> {
  const { actor } = ctx
  const { message } = input
  const now = ctx.clock.now()
  const id = prefixedId('msg')
  return ctx.db.write('engagement.message', async (tx) => {
    // Locked: a message's wake-up or reopening and its saved fields never undo a concurrent move.
    const found = await lockVisibleEngagement(tx, actor, input.id)
    if (message.direction === 'out' && found.status === 'closed')
      throw new AppError('INVALID_STATE_TRANSITION', 'A closed session takes no outbound message: reopen it first (closed -> active)')
    const row = message.direction === 'in' ? await sessionForInbound(tx, ctx, found, now) : found
    const after: EngagementRow = { ...row, last_activity_at: now, updated_at: now }
    if (message.direction === 'in') after.waiting_since = row.waiting_since ?? now
    else {
      after.first_reply_at = row.first_reply_at ?? now
      after.waiting_since = null
    }
    const uploadIds = message.upload_ids ?? []
    await attachUploadsInTx(tx, ctx, {
      organizationId: actor.organizationId,
      uploadIds,
      target: { type: 'engagement_message', id },
      purposes: MESSAGE_UPLOAD_PURPOSES,
      now,
    })
    const saved: MessageRow = {
      id,
      organization_id: actor.organizationId,
      engagement_id: after.id,
      direction: message.direction,
      author_type: message.direction === 'in' ? 'contact' : 'agent',
      author_id: message.direction === 'in' ? after.contact_id : actor.userId,
      body: message.body,
      upload_ids: JSON.stringify(uploadIds),
      created_at: now,
    }
    await insertMessage(tx, saved)
    await saveEngagement(tx, after)
    await recordEngagementEvent(tx, ctx, 'engagement.message.added', after, now, { message: messageJson(saved) })
    return saved
  })
}

export async function listMessages(ctx: Ctx<UserActor>, input: { id: string; request: ListRequest }) {
  const row = await getVisibleEngagement(ctx.db, ctx.actor, input.id)
  const page = await MESSAGE_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { engagement_id: row.id },
    where: [{ sql: 'engagement_messages.engagement_id = ?', params: [row.id] }],
  })
  return listBody('messages', page, messageJson)
}
