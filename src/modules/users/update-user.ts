// updateUser and disableUser: role, name and status changes under the management rules, with their
// events; disabling keeps the user (and its history) and ends its sessions.
import { eq } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write } from '../../db/tx.ts'
import { searchKey } from '../../lib/search-key.ts'
import { AppError } from '../../errors.ts'
import type { Role } from '../access/permissions.ts'
import { revokeUserSessions } from '../auth/sessions.ts'
import { actorOf, audit } from '../audit/record.ts'
import { emit } from '../events/emit.ts'
import { getUserInOrg, userJson, type UserRow } from './get-user.ts'
import { assertCanAssign, assertCanManage, assertNotLastSuperAdmin } from './rules.ts'
import { users, type UserStatus } from './table.ts'

export interface UserChanges {
  name?: string
  role?: Role
  status?: UserStatus
}

export interface UpdateResult {
  user: UserRow
  /** Sessions ended by a disable: [id, until] to remember in the revocation set after commit. */
  revokedSessions: [string, number][]
}

export function updateUser(db: AppDatabase, actor: UserActor, id: string, changes: UserChanges, now: number): UpdateResult {
  return write(db, (tx) => {
    const target = getUserInOrg(tx, actor.organizationId, id)
    assertCanManage(actor, target)
    if (changes.role !== undefined && changes.role !== target.role) assertCanAssign(actor, changes.role)
    const next = { name: changes.name?.trim() ?? target.name, role: changes.role ?? target.role, status: changes.status ?? target.status }
    if (next.status === 'disabled' && target.status !== 'disabled' && target.id === actor.userId) {
      throw new AppError('CONFLICT', 'You cannot disable your own account')
    }
    assertNotLastSuperAdmin(tx, target, next)
    const changed = (['name', 'role', 'status'] as const).filter((field) => next[field] !== target[field])
    if (changed.length === 0) return { user: target, revokedSessions: [] }
    const user = tx.update(users).set({ ...next, nameKey: searchKey(next.name), updatedAt: now }).where(eq(users.id, target.id)).returning().get()!
    const disabled = changed.includes('status') && next.status === 'disabled'
    const revokedSessions = disabled ? revokeUserSessions(tx, user.id, 'user_disabled', now) : []
    const type = disabled ? 'user.deleted' : 'user.updated'
    emit(tx, { organizationId: user.organizationId, type, data: { user: userJson(user), changed }, now })
    const details: Record<string, unknown> = { changed }
    if (changed.includes('role')) details.role = { from: target.role, to: user.role }
    if (changed.includes('status')) details.status = { from: target.status, to: user.status }
    audit(tx, { organizationId: user.organizationId, actor: actorOf(actor), event: type, target: { type: 'user', id: user.id }, details, request: actor.request, now })
    return { user, revokedSessions }
  })
}
