// The end of a sign-in on the pages (after the password, or after the MFA code): inside the caller's
// transaction, the browser session the cookie stands for, under the organization's session limit.
// The session the browser held before (prompt=login, max_age, another user) is ended: its cookie is
// replaced, so nothing could use it again, and it must not count toward the limit.
import type { AppContext, RequestMeta } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import type { AppError } from '../../../errors.ts'
import { openBrowserSession, revokeSession, type SignInOrganization } from '../../auth/index.ts'
import type { UserRow } from '../../users/index.ts'
import { findBrowserSession } from '../store.ts'
import { cookieHash, randomCookieValue } from './cookies.ts'
import type { SignedIn } from './signed-in.ts'

export type SignInOpened =
  | { kind: 'signed_in'; signedIn: SignedIn; cookieValue: string; evicted: [string, number][] }
  | { kind: 'refused'; error: AppError }

export async function openBrowserSignIn(
  tx: Tx,
  app: Pick<AppContext, 'config'>,
  input: {
    user: UserRow
    org: SignInOrganization
    authMethods: string[]
    replacedCookie: string | undefined
    request: RequestMeta
    now: number
  },
): Promise<SignInOpened> {
  const { user, org, authMethods, request, now } = input
  if (input.replacedCookie !== undefined) {
    const replaced = await findBrowserSession(tx, cookieHash(input.replacedCookie), now)
    if (replaced) await revokeSession(tx, replaced.id, 'replaced', now)
  }
  const cookieValue = randomCookieValue()
  const opened = await openBrowserSession(tx, {
    user,
    org,
    kind: { authMethods, mfaEnrollmentOnly: false },
    cookieHash: cookieHash(cookieValue),
    maxAgeMs: app.config.sessionMaxAgeS * 1000,
    request,
    now,
  })
  if (!opened.ok) return { kind: 'refused', error: opened.error }
  return {
    kind: 'signed_in',
    signedIn: { sessionId: opened.sessionId, user, signedInAt: now, authMethods },
    cookieValue,
    evicted: opened.evicted,
  }
}

/** After commit: sessions the limit evicted are refused at once from now on (their tokens included). */
export function rememberEvicted(app: Pick<AppContext, 'ports'>, outcome: { kind: string; evicted?: [string, number][] }): void {
  for (const [sessionId, until] of outcome.evicted ?? []) app.ports.revocations.rememberSession(sessionId, until)
}
