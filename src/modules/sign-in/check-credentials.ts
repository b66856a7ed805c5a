// The first step of every password sign-in (the API's login, the authorization server's form): unknown
// e-mail, wrong password and disabled user all answer INVALID_CREDENTIALS after the same argon2 work, so
// none can be told apart (the audit log records which it was); from an address the user's organization
// does not allow, a failure answers IP_NOT_ALLOWED, as the right password would. Outside any transaction.
import type { AppContext, RequestMeta } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { appendAudit } from '../audit/index.ts'
import { findUserByEmail, normalizeEmail } from '../users/index.ts'
import { checkIp, findOrganization } from '../organizations/index.ts'
import { dummyHash, verifyPassword } from '../../lib/password.ts'

type User = NonNullable<Awaited<ReturnType<typeof findUserByEmail>>>
type Organization = NonNullable<Awaited<ReturnType<typeof findOrganization>>>

export type CredentialCheck =
  | { ok: true; user: User; org: Organization; ranges: ReturnType<AppContext['allowlists']['ranges']>; now: number }
  | { ok: false; error: AppError }

/** The user and organization of a right password, or the error to answer (its failure audited). */
export async function checkCredentials(
  app: AppContext,
  input: {
    email: string
    password: string
    request: RequestMeta
    details?: Record<string, unknown>
    message?: string
    /** The caller knows the e-mail is no one's (e.g. it held control characters): not looked up. */
    unknown?: boolean
  },
): Promise<CredentialCheck> {
  const { request } = input
  const user = input.unknown ? undefined : await findUserByEmail(app.db, input.email)
  const matches = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()))
  const now = app.clock.now()
  const org = user ? await findOrganization(app.db, user.organization_id) : undefined
  const ranges = org ? app.allowlists.ranges(org.allowed_ips) : []
  if (user && org && matches && user.status === 'active') return { ok: true, user, org, ranges, now }
  const reason = !user ? 'unknown_email' : !matches ? 'wrong_password' : user.status !== 'active' ? 'user_disabled' : 'organization_gone'
  const extra = input.details ?? {}
  const ipError = await app.db.write('login.failure', async (tx) => {
    await appendAudit(tx, {
      organizationId: user?.organization_id ?? null,
      actor: user ? { type: 'user', id: user.id } : { type: 'anonymous', id: null },
      event: 'login.failure',
      outcome: 'failure',
      reason,
      ...(user
        ? { target: { type: 'user', id: user.id }, ...(input.details ? { details: extra } : {}) }
        : { details: { ...extra, email: normalizeEmail(input.email).slice(0, 254) } }),
      request,
      now,
    })
    // The same answer as for the right password from this address.
    return user && org
      ? checkIp(tx, app, { ranges, who: { organizationId: org.id, actor: { type: 'user', id: user.id } }, request, now })
      : undefined
  })
  return { ok: false, error: ipError ?? new AppError('INVALID_CREDENTIALS', input.message) }
}
