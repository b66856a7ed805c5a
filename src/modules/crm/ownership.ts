// Who may write a contact or a lead: every role with the permission, except that an agent (SCOPES in
// the access module) writes only those it owns or nobody owns. Reading is never narrowed.
import type { UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { SCOPES } from '../access/index.ts'

export type OwnedResource = 'contact' | 'lead'

/** True when the actor writes only the `resource`s it owns or nobody owns. */
export function writesOnlyOwned(actor: UserActor, resource: OwnedResource): boolean {
  return SCOPES[actor.role]?.[resource] === 'owned_or_unowned'
}

/** 403 unless the actor may write a `resource` owned by `ownerId` (null: nobody). */
export function assertMayWrite(actor: UserActor, resource: OwnedResource, ownerId: string | null): void {
  if (ownerId === null || ownerId === actor.userId || !writesOnlyOwned(actor, resource)) return
  throw new AppError('INSUFFICIENT_PERMISSIONS', `This ${resource} is owned by another user: only its owner or a supervisor may change it`)
}
