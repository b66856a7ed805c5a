// listUsers: the organization's users, filtered by role, status and a name or e-mail prefix, keyset-paginated.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../db/list.ts'
import { isoTime } from '../../lib/clock.ts'
import { USER_LIST, userSearchCondition } from './store.ts'

export interface UserFilters {
  role?: string
  status?: string
  /** Prefix of the name or of the e-mail. */
  q?: string
}

export async function listUsers(ctx: Ctx<UserActor>, input: { filters: UserFilters; request: ListRequest }) {
  const { filters, request } = input
  const where: Condition[] = []
  if (filters.role !== undefined) where.push({ sql: 'users.role = ?', params: [filters.role] })
  if (filters.status !== undefined) where.push({ sql: 'users.status = ?', params: [filters.status] })
  if (filters.q !== undefined) where.push(userSearchCondition(filters.q))
  const page = await USER_LIST.page(ctx.db, ctx.pageTokens, request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...filters },
    where,
  })
  return listBody('users', page, (r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    status: r.status,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  }))
}
