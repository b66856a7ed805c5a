// Who may manage whom: nobody hands out or touches more than they hold, and every organization keeps
// an active Super Admin.
import type { UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { coversRole, type Role } from '../access/index.ts'
import { countOtherActiveSuperAdmins, type UserRow } from './store.ts'

/** The actor may give `role` only if it holds every grant of that role. */
export function assertCanAssign(actor: UserActor, role: Role): void {
  if (!coversRole(actor.grants, role))
    throw new AppError('INSUFFICIENT_PERMISSIONS', `Your role cannot grant the role ${role}: it holds permissions you do not`)
}

/** The actor may change or disable a user only if it holds everything that user's role holds. */
export function assertCanManage(actor: UserActor, target: { role: string }): void {
  if (!coversRole(actor.grants, target.role as Role))
    throw new AppError('INSUFFICIENT_PERMISSIONS', `You cannot manage a user whose role (${target.role}) holds permissions you do not`)
}

/** Inside the change's transaction: refuses a change that would leave the organization without an active Super Admin. */
export async function assertNotLastSuperAdmin(tx: Tx, target: UserRow, next: { role: string; status: string }): Promise<void> {
  const losesOwner =
    target.role === 'super_admin' && target.status === 'active' && (next.role !== 'super_admin' || next.status !== 'active')
  if (!losesOwner) return
  // Invariant: every organization keeps an active Super Admin. Two of them demoting each other at once
  // each count the other: this key (taken only by a change that removes one) makes the second count after the first.
  await tx.lock(`super-admins:${target.organization_id}`)
  if ((await countOtherActiveSuperAdmins(tx, target.organization_id, target.id)) === 0) {
    throw new AppError('CONFLICT', 'This is the last active Super Admin of the organization: it cannot be demoted or disabled')
  }
}
