// Who the browser is signed in as, for a given client: the live browser session of the sign-in cookie,
// if its user is active, of the client's organization, and asking from an address the organization
// allows. Anything else counts as not signed in: a client serves only its own organization's users,
// and the allowlist binds a signed-in browser as it binds every API request.
import type { AppContext, RequestMeta } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { assertIpAllowed } from '../../organizations/index.ts'
import { findOrganization } from '../../organizations/index.ts'
import { findUserInOrg, type UserRow } from '../../users/index.ts'
import { findBrowserSession } from '../store.ts'
import { cookieHash } from './cookies.ts'

export interface SignedIn {
  sessionId: string
  user: UserRow
  /** When the user signed in (ms): the code's auth_time. */
  signedInAt: number
  /** RFC 8176 amr values of that sign-in. */
  authMethods: string[]
}

export async function signedInFor(
  app: Pick<AppContext, 'db' | 'allowlists' | 'clock'>,
  cookieValue: string | undefined,
  organizationId: string,
  meta: RequestMeta,
): Promise<SignedIn | undefined> {
  if (cookieValue === undefined) return undefined
  const now = app.clock.now()
  const session = await findBrowserSession(app.db, cookieHash(cookieValue), now)
  if (!session || session.organization_id !== organizationId) return undefined
  const user = await findUserInOrg(app.db, organizationId, session.user_id)
  const org = await findOrganization(app.db, organizationId)
  if (user?.status !== 'active' || !org) return undefined
  try {
    // Records the denial (throttled per address) like any refused request of the user.
    await assertIpAllowed(app, app.allowlists.ranges(org.allowed_ips), { organizationId, actor: { type: 'user', id: user.id } }, meta)
  } catch (error) {
    if (error instanceof AppError) return undefined
    throw error
  }
  return {
    sessionId: session.id,
    user,
    signedInAt: Number(session.created_at),
    authMethods: JSON.parse(session.auth_methods) as string[],
  }
}

/** max_age: a sign-in older than it must be done again. */
export function tooOld(signedIn: SignedIn, maxAgeS: number | null, now: number): boolean {
  return maxAgeS !== null && now - signedIn.signedInAt > maxAgeS * 1000
}
