// listCalls: the calls the actor sees (an agent: its own and unassigned ones), filtered before keyset
// pagination: status (`in-progress` spelled either way, or `active`), direction, agent, queue, contact,
// provider, ticket, and windows on the creation and initialization times.
import type { Ctx, UserActor } from '../../../context.ts'
import { type Condition, type ListRequest, listBody, timeWindowConditions } from '../../../db/list.ts'
import { validationError } from '../../../errors.ts'
import type { CallDirection, CallProvider } from '../table.ts'
import { callJson } from './call-json.ts'
import { ACTIVE_CALL_STATUSES, callStatusOf } from './lifecycle.ts'
import { CALL_LIST } from './store.ts'
import { callScope } from './visibility.ts'

export interface CallFilters {
  /** A status (`in-progress` or `in_progress`), or `active` for queued, ringing and in progress. */
  status?: string
  direction?: CallDirection
  /** A user id, or "none" for unassigned calls. */
  agent_id?: string
  queue?: string
  contact_id?: string
  provider?: CallProvider
  ticket_id?: string
  /** RFC 3339 times, all exclusive. */
  created_after?: string
  created_before?: string
  initialized_after?: string
  initialized_before?: string
}

const TIME_FILTERS = {
  created_after: 'calls.created_at > ?',
  created_before: 'calls.created_at < ?',
  initialized_after: 'calls.initialized_at > ?',
  initialized_before: 'calls.initialized_at < ?',
} as const

export function callFilterConditions(filters: CallFilters): Condition[] {
  const where: Condition[] = []
  if (filters.status === 'active')
    where.push({ sql: `calls.status IN (${ACTIVE_CALL_STATUSES.map(() => '?').join(', ')})`, params: [...ACTIVE_CALL_STATUSES] })
  else if (filters.status !== undefined) {
    const status = callStatusOf(filters.status)
    if (status === undefined) throw validationError([{ field: 'status', message: 'is not a call status' }])
    where.push({ sql: 'calls.status = ?', params: [status] })
  }
  if (filters.direction !== undefined) where.push({ sql: 'calls.direction = ?', params: [filters.direction] })
  if (filters.agent_id === 'none') where.push({ sql: 'calls.agent_id IS NULL', params: [] })
  else if (filters.agent_id !== undefined) where.push({ sql: 'calls.agent_id = ?', params: [filters.agent_id] })
  if (filters.queue !== undefined) where.push({ sql: 'calls.queue = ?', params: [filters.queue.trim()] })
  if (filters.contact_id !== undefined) where.push({ sql: 'calls.contact_id = ?', params: [filters.contact_id] })
  if (filters.provider !== undefined) where.push({ sql: 'calls.provider = ?', params: [filters.provider] })
  if (filters.ticket_id !== undefined) where.push({ sql: 'calls.ticket_id = ?', params: [filters.ticket_id] })
  where.push(...timeWindowConditions(filters, TIME_FILTERS))
  return where
}

export async function listCalls(ctx: Ctx<UserActor>, input: { filters: CallFilters; request: ListRequest }) {
  const page = await CALL_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where: [...callFilterConditions(input.filters), ...callScope(ctx.actor)],
  })
  return listBody('calls', page, callJson)
}
