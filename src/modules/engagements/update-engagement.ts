// updateEngagement: PATCH of what a session is about — team, required skill, priority, subject, labels,
// custom fields, its ticket and call (status and assignee change only through the operations and
// assign). The catalog has no engagement.updated event: the change is audited, naming the fields.
import type { Ctx, UserActor } from '../../context.ts'
import { auditEngagement } from './events.ts'
import { assertCall, assertTicket, customFieldsOf, labelsOf, nameOf, skillOf } from './fields.ts'
import { type EngagementRow, saveEngagement } from './store.ts'
import type { Priority } from './table.ts'
import { lockVisibleEngagement } from './visibility.ts'

export interface EngagementChanges {
  team?: string | null
  required_skill?: string | null
  priority?: Priority
  subject?: string | null
  labels?: string[]
  custom_fields?: Record<string, unknown>
  ticket_id?: string | null
  call_id?: string | null
}

const FIELDS = ['team', 'required_skill', 'priority', 'subject', 'labels', 'custom_fields', 'ticket_id', 'call_id'] as const

export async function updateEngagement(ctx: Ctx<UserActor>, input: { id: string; changes: EngagementChanges }): Promise<EngagementRow> {
  const { actor } = ctx
  const { changes } = input
  const customFields = changes.custom_fields === undefined ? undefined : customFieldsOf(changes.custom_fields)
  const now = ctx.clock.now()
  return ctx.db.write('engagement.update', async (tx) => {
    // Locked: the whole row is written back, so no concurrent move may land between read and write.
    const before = await lockVisibleEngagement(tx, actor, input.id)
    const org = actor.organizationId
    if (changes.ticket_id && changes.ticket_id !== before.ticket_id) await assertTicket(tx, org, changes.ticket_id)
    if (changes.call_id && changes.call_id !== before.call_id) await assertCall(tx, org, changes.call_id)
    const after: EngagementRow = {
      ...before,
      ...(changes.team !== undefined && { team: nameOf(changes.team) }),
      ...(changes.required_skill !== undefined && { required_skill: skillOf(changes.required_skill) }),
      ...(changes.priority !== undefined && { priority: changes.priority }),
      ...(changes.subject !== undefined && { subject: nameOf(changes.subject) }),
      ...(changes.labels !== undefined && { labels: labelsOf(changes.labels) }),
      ...(customFields !== undefined && { custom_fields: customFields }),
      ...(changes.ticket_id !== undefined && { ticket_id: changes.ticket_id }),
      ...(changes.call_id !== undefined && { call_id: changes.call_id }),
    }
    const changed = FIELDS.filter((field) => after[field] !== before[field])
    if (changed.length === 0) return before
    after.updated_at = now
    await saveEngagement(tx, after)
    await auditEngagement(tx, ctx, 'updated', after, now, { changed })
    return after
  })
}
