// listLeads: the organization's leads (every reader sees them all), filtered before keyset pagination.
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../../db/list.ts'
import { validationError } from '../../../errors.ts'
import { leadJson } from './lead-json.ts'
import type { LeadStatus } from './lifecycle.ts'
import { LEAD_LIST, leadSearchCondition } from './store.ts'

export interface LeadFilters {
  status?: LeadStatus
  /** A user id, or "none" for unowned leads. */
  owner_id?: string
  source?: string
  q?: string
  /** Both inclusive. */
  score_min?: number
  score_max?: number
  /** RFC 3339 times; both exclusive. */
  created_after?: string
  created_before?: string
}

export function leadFilterConditions(filters: LeadFilters): Condition[] {
  const where: Condition[] = []
  if (filters.status !== undefined) where.push({ sql: 'leads.status = ?', params: [filters.status] })
  if (filters.owner_id === 'none') where.push({ sql: 'leads.owner_id IS NULL', params: [] })
  else if (filters.owner_id !== undefined) where.push({ sql: 'leads.owner_id = ?', params: [filters.owner_id] })
  if (filters.source !== undefined) where.push({ sql: 'leads.source = ?', params: [filters.source.trim()] })
  if (filters.q !== undefined) where.push(leadSearchCondition(filters.q))
  const { score_min, score_max } = filters
  if (score_min !== undefined && score_max !== undefined && score_min > score_max)
    throw validationError([{ field: 'score_min', message: 'must not be greater than score_max' }])
  if (score_min !== undefined) where.push({ sql: 'leads.score >= ?', params: [score_min] })
  if (score_max !== undefined) where.push({ sql: 'leads.score <= ?', params: [score_max] })
  where.push(...timeWindowConditions(filters, { created_after: 'leads.created_at > ?', created_before: 'leads.created_at < ?' }))
  return where
}

export async function listLeads(ctx: Ctx<UserActor>, input: { filters: LeadFilters; request: ListRequest }) {
  const page = await LEAD_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where: leadFilterConditions(input.filters),
  })
  return listBody('leads', page, leadJson)
}
