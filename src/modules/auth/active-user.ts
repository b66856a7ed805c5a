// The user behind a token as it is now: a disabled or deleted user's tokens stop working at once.
import type { AppContext, UserActor } from '../../context.ts'
import type { VerifiedClaims } from '../../ports.ts'
import { unauthorized } from '../../credential.ts'
import { isRole } from '../access/index.ts'
import type { UserState } from './store.ts'
import { currentUserState } from './user-state-cache.ts'

/** The user as it is now, or 401 when disabled or gone. */
export async function activeUserState(app: Pick<AppContext, 'db'>, userId: string, organizationId: string): Promise<UserState> {
  const user = await currentUserState(app.db, userId, organizationId)
  if (user?.status !== 'active' || !isRole(user.role)) throw unauthorized('TOKEN_INVALID', 'The user of this token is disabled or gone')
  return user
}

/** What a valid access token stands for now, wherever it is presented (the API, userinfo, introspection). */
export interface TokenHolder extends Omit<UserActor, 'kind' | 'request' | 'rates'> {
  claims: VerifiedClaims
  /** The acting user's row state (role, status, the organization's allowlist and rates). */
  state: UserState
}
