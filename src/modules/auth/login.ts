// login: e-mail and password -> a new session with its tokens, or an MFA challenge. Unknown e-mail,
// wrong password and disabled user all answer INVALID_CREDENTIALS after the same argon2 work, so none
// can be told apart; the audit log records which it was. The IP allowlist is checked only once the
// password is right, so it reveals nothing to someone without the password.
import type { AppDeps, RequestMeta } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { audit } from '../audit/record.ts'
import { createChallenge } from '../mfa/challenge.ts'
import { confirmedMethods } from '../mfa/factors.ts'
import type { MfaMethod } from '../mfa/table.ts'
import { findOrganization } from '../organizations/service.ts'
import { findUserByEmail, normalizeEmail } from '../users/get-user.ts'
import { checkIp } from './ip-check.ts'
import { dummyHash, verifyPassword } from './password.ts'
import { finishSignIn, openSignInSession, type SignInOutcome } from './sign-in.ts'

export interface MfaChallengeResponse {
  mfa_required: true
  mfa_token: string
  mfa_methods: MfaMethod[]
}

export async function login(deps: AppDeps, input: { email: string; password: string }, request: RequestMeta) {
  const user = findUserByEmail(deps.db, input.email)
  const matches = await verifyPassword(input.password, user?.passwordHash ?? (await dummyHash()))
  const now = deps.clock.now()
  if (!user || !matches || user.status !== 'active') {
    const reason = !user ? 'unknown_email' : !matches ? 'wrong_password' : 'user_disabled'
    write(deps.db, (tx) =>
      audit(tx, {
        organizationId: user?.organizationId ?? null,
        actor: user ? { type: 'user', id: user.id } : { type: 'anonymous', id: null },
        event: 'login.failure',
        outcome: 'failure',
        reason,
        ...(user ? { target: { type: 'user', id: user.id } } : { details: { email: normalizeEmail(input.email).slice(0, 254) } }),
        request,
        now,
      }),
    )
    throw new AppError('INVALID_CREDENTIALS')
  }
  const org = findOrganization(deps.db, user.organizationId)!
  const ranges = deps.allowlists.ranges(JSON.stringify(org.allowedIps))
  const outcome = write(deps.db, (tx): SignInOutcome | MfaChallengeResponse => {
    const ipError = checkIp(tx, deps, ranges, { organizationId: org.id, actor: { type: 'user', id: user.id } }, request, now)
    if (ipError) return { ok: false, error: ipError }
    const methods = confirmedMethods(tx, user.id)
    if (methods.length === 0) return openSignInSession(tx, deps, user, org, { authMethods: ['pwd'], mfaEnrollmentOnly: org.mfaRequired }, request, now)
    const challenge = createChallenge(tx, user, methods, now)
    audit(tx, { organizationId: org.id, actor: { type: 'user', id: user.id }, event: 'mfa.challenge', target: { type: 'user', id: user.id }, details: { methods }, request, now })
    return { mfa_required: true, mfa_token: challenge.token, mfa_methods: methods }
  })
  if ('mfa_required' in outcome) return outcome
  return finishSignIn(deps, user, outcome)
}
