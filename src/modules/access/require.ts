// Authorization checks services and routes share: a permission of the actor's grants, or a sign-in
// (not a personal access token) for managing credentials.
import type { SessionActor, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { hasPermission } from './match.ts'
import type { Permission } from './permissions.ts'

export function requirePermission(actor: UserActor, permission: Permission): void {
  if (!hasPermission(actor.grants, permission))
    throw new AppError('INSUFFICIENT_PERMISSIONS', `This operation requires the ${permission} permission`)
}

/** Refuses personal access tokens and OAuth clients' tokens: managing credentials needs a sign-in. */
export function requireSession(actor: UserActor): SessionActor {
  if (actor.credential.type === 'api_key')
    throw new AppError('INSUFFICIENT_PERMISSIONS', 'Personal access tokens cannot do this: sign in and use an access token')
  if (actor.credential.type !== 'session')
    throw new AppError('INSUFFICIENT_PERMISSIONS', 'Tokens issued to OAuth clients cannot do this: sign in and use an access token')
  return actor as SessionActor
}
