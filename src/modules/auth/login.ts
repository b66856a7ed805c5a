// login: e-mail and password -> a new session with its tokens, or an MFA challenge. Unknown e-mail,
// wrong password and disabled user all answer INVALID_CREDENTIALS after the same argon2 work, so none
// can be told apart; the audit log records which it was. From an address the user's organization does
// not allow, every attempt answers IP_NOT_ALLOWED whatever the password, after the same argon2 work, so
// a blocked address cannot tell a right password from a wrong one.
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
  const org = user ? findOrganization(deps.db, user.organizationId) : undefined
  const ranges = org ? deps.allowlists.ranges(JSON.stringify(org.allowedIps)) : []
  if (!user || !matches || user.status !== 'active') {
    const reason = !user ? 'unknown_email' : !matches ? 'wrong_password' : 'user_disabled'
    const ipError = write(deps.db, (tx) => {
      audit(tx, {
        organizationId: user?.organizationId ?? null,
        actor: user ? { type: 'user', id: user.id } : { type: 'anonymous', id: null },
        event: 'login.failure',
        outcome: 'failure',
        reason,
        ...(user ? { target: { type: 'user', id: user.id } } : { details: { email: normalizeEmail(input.email).slice(0, 254) } }),
        request,
        now,
      })
      // The same answer as for the right password from this address (below).
      return user && org ? checkIp(tx, deps, ranges, { organizationId: org.id, actor: { type: 'user', id: user.id } }, request, now) : undefined
    })
    throw ipError ?? new AppError('INVALID_CREDENTIALS')
  }
  if (!org) throw new AppError('INVALID_CREDENTIALS')
  const outcome = write(deps.db, (tx): SignInOutcome | MfaChallengeResponse => {
    const ipError = checkIp(tx, deps, ranges, { organizationId: org.id, actor: { type: 'user', id: user.id } }, request, now)
    if (ipError) return { ok: false, error: ipError }
    const methods = confirmedMethods(tx, user.id)
    if (methods.length === 0) return openSignInSession(tx, deps, user, org, { authMethods: ['pwd'], mfaEnrollmentOnly: org.mfaRequired }, request, now)
    const challenge = createChallenge(tx, user, methods, now, deps.config.mfaTokenTtlS * 1000)
    audit(tx, { organizationId: org.id, actor: { type: 'user', id: user.id }, event: 'mfa.challenge', target: { type: 'user', id: user.id }, details: { methods }, request, now })
    return { mfa_required: true, mfa_token: challenge.token, mfa_methods: methods }
  })
  if ('mfa_required' in outcome) return outcome
  return finishSignIn(deps, user, outcome)
}
