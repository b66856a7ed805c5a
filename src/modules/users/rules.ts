// Who may manage whom: nobody hands out or touches more than they hold, and every organization keeps
// an active Super Admin.
import { and, eq, ne, sql } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { Db } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { coversRole } from '../access/match.ts'
import type { Role } from '../access/permissions.ts'
import type { UserRow } from './get-user.ts'
import { users } from './table.ts'

/** The actor may give `role` only if it holds every grant of that role. */
export function assertCanAssign(actor: UserActor, role: Role): void {
  if (!coversRole(actor.grants, role)) throw new AppError('INSUFFICIENT_PERMISSIONS', `Your role cannot grant the role ${role}: it holds permissions you do not`)
}

/** The actor may change or disable a user only if it holds everything that user's role holds. */
export function assertCanManage(actor: UserActor, target: UserRow): void {
  if (!coversRole(actor.grants, target.role as Role)) throw new AppError('INSUFFICIENT_PERMISSIONS', `You cannot manage a user whose role (${target.role}) holds permissions you do not`)
}

/** Refuses a change that would leave the organization without an active Super Admin. */
export function assertNotLastSuperAdmin(db: Db, target: UserRow, next: { role: string; status: string }): void {
  const losesOwner = target.role === 'super_admin' && target.status === 'active' && (next.role !== 'super_admin' || next.status !== 'active')
  if (!losesOwner) return
  const others = db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.organizationId, target.organizationId), eq(users.role, 'super_admin'), eq(users.status, 'active'), ne(users.id, target.id)))
    .get()!.n
  if (others === 0) throw new AppError('CONFLICT', 'This is the last active Super Admin of the organization: it cannot be demoted or disabled')
}
