// listUsers: the organization's users, filtered by role, status and a name or e-mail prefix, keyset-paginated.
import type { UserActor } from '../../context.ts'
import { likePrefix, type Condition } from '../../db/keyset.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import type { PageTokens } from '../../db/page-tokens.ts'
import type { Database } from 'bun:sqlite'
import { isoTime } from '../../lib/clock.ts'
import { searchKey } from '../../lib/search-key.ts'
import type { Role } from '../access/permissions.ts'
import type { UserStatus } from './table.ts'

export const USER_SORTS = ['created_at', 'name', 'email'] as const

interface UserListRow {
  id: string
  name: string
  name_key: string
  email: string
  role: Role
  status: UserStatus
  created_at: number
  updated_at: number
}

const LIST: ListDefinition<UserListRow> = {
  resource: 'users',
  columns: 'id, name, name_key, email, role, status, created_at, updated_at',
  from: 'users',
  idExpr: 'id',
  sorts: {
    created_at: { expr: 'created_at', value: (r) => r.created_at },
    // Alphabetical for people: without regard to case or accents, in any script.
    name: { expr: 'name_key', value: (r) => r.name_key },
    email: { expr: 'email', value: (r) => r.email },
  },
  id: (r) => r.id,
}

export interface UserFilters {
  role?: string
  status?: string
  /** Prefix of the name or of the e-mail. */
  q?: string
}

export function listUsers(deps: { sqlite: Database; pageTokens: PageTokens }, actor: UserActor, filters: UserFilters, request: ListRequest) {
  const where: Condition[] = [{ sql: 'organization_id = ?', params: [actor.organizationId] }]
  if (filters.role !== undefined) where.push({ sql: 'role = ?', params: [filters.role] })
  if (filters.status !== undefined) where.push({ sql: 'status = ?', params: [filters.status] })
  if (filters.q !== undefined) {
    // Names compare through their folded key; e-mails are stored lowercased.
    where.push({ sql: "name_key LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\'", params: [likePrefix(searchKey(filters.q)), likePrefix(filters.q.toLowerCase())] })
  }
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, { organizationId: actor.organizationId, filters: { ...filters }, where })
  return listBody('users', page, (r) => ({ id: r.id, name: r.name, email: r.email, role: r.role, status: r.status, created_at: isoTime(r.created_at), updated_at: isoTime(r.updated_at) }))
}
