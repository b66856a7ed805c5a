// listEngagements: the sessions the actor sees (an agent: its own and the queued unassigned ones),
// filtered before keyset pagination: status, channel, assignee ("none" for unassigned), contact, team,
// and a creation window.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../db/list.ts'
import { engagementJson } from './engagement-json.ts'
import type { EngagementStatus } from './lifecycle.ts'
import { ENGAGEMENT_LIST } from './store.ts'
import type { Channel } from './table.ts'
import { engagementScope } from './visibility.ts'

export interface EngagementFilters {
  status?: EngagementStatus
  channel?: Channel
  /** A user id, or "none" for unassigned sessions. */
  assignee_id?: string
  contact_id?: string
  team?: string
  /** RFC 3339, exclusive. */
  created_after?: string
  created_before?: string
}

export function engagementConditions(filters: EngagementFilters): Condition[] {
  const where: Condition[] = []
  if (filters.status !== undefined) where.push({ sql: 'engagements.status = ?', params: [filters.status] })
  if (filters.channel !== undefined) where.push({ sql: 'engagements.channel = ?', params: [filters.channel] })
  if (filters.assignee_id === 'none') where.push({ sql: 'engagements.assignee_id IS NULL', params: [] })
  else if (filters.assignee_id !== undefined) where.push({ sql: 'engagements.assignee_id = ?', params: [filters.assignee_id] })
  if (filters.contact_id !== undefined) where.push({ sql: 'engagements.contact_id = ?', params: [filters.contact_id] })
  if (filters.team !== undefined) where.push({ sql: 'engagements.team = ?', params: [filters.team.trim()] })
  where.push(
    ...timeWindowConditions(filters, { created_after: 'engagements.created_at > ?', created_before: 'engagements.created_at < ?' }),
  )
  return where
}

export async function listEngagements(ctx: Ctx<UserActor>, input: { filters: EngagementFilters; request: ListRequest }) {
  const page = await ENGAGEMENT_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where: [...engagementConditions(input.filters), ...engagementScope(ctx.actor)],
  })
  return listBody('engagements', page, engagementJson)
}
