// The second step of a login: an `mfa_token` and a code (TOTP, SMS or recovery) -> the login response.
// One transaction checks and uses up the code, counts a wrong one (the fifth ends the challenge),
// and opens the session, so a code can never be used twice, not even by two requests at once.
import { eq } from 'drizzle-orm'
import type { AppDeps, RequestMeta } from '../../context.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError, rateLimited, validationError } from '../../errors.ts'
import { audit } from '../audit/record.ts'
import { checkIp } from '../auth/ip-check.ts'
import { finishSignIn, openSignInSession, type SignInOutcome } from '../auth/sign-in.ts'
import { findOrganization } from '../organizations/service.ts'
import { findUserInOrg, type UserRow } from '../users/get-user.ts'
import { findLiveChallenge, lockedForSeconds, MAX_CHALLENGE_ATTEMPTS, type ChallengeRow } from './challenge.ts'
import { useTotpCode } from './factors.ts'
import { useRecoveryCode } from './recovery-codes.ts'
import { hashSmsCode } from './sms-codes.ts'
import { mfaChallenges } from './table.ts'

export const VERIFY_METHODS = ['totp', 'sms', 'recovery'] as const
export type VerifyMethod = (typeof VERIFY_METHODS)[number]

const AMR: Record<VerifyMethod, string[]> = { totp: ['pwd', 'otp', 'mfa'], sms: ['pwd', 'sms', 'mfa'], recovery: ['pwd', 'mfa'] }

export const invalidMfaToken = () => new AppError('TOKEN_INVALID', 'The mfa_token is unknown, expired or used up: sign in again')

/** Checks the code, spending what it uses (a TOTP step, the SMS code, a recovery code). */
function codeMatches(tx: Tx, deps: Pick<AppDeps, 'masterKey'>, challenge: ChallengeRow, method: VerifyMethod, code: string, now: number): boolean {
  if (method === 'recovery') return useRecoveryCode(tx, challenge.userId, code, now)
  if (method === 'sms') {
    const valid = challenge.smsCodeHash !== null && (challenge.smsExpiresAt ?? 0) > now && hashSmsCode(`login:${challenge.id}`, code.trim()) === challenge.smsCodeHash
    if (valid) tx.update(mfaChallenges).set({ smsCodeHash: null }).where(eq(mfaChallenges.id, challenge.id)).run()
    return valid
  }
  return useTotpCode(tx, deps.masterKey, challenge.userId, code, now)
}

export async function verifyMfa(deps: AppDeps, input: { mfa_token: string; code: string; method: VerifyMethod }, request: RequestMeta) {
  const now = deps.clock.now()
  const outcome = write(deps.db, (tx): (SignInOutcome & { user?: UserRow }) => {
    const challenge = findLiveChallenge(tx, input.mfa_token, now)
    if (!challenge) return { ok: false, error: invalidMfaToken() }
    // Recovery codes are always accepted, though not listed: they are what a user without the phone has.
    if (input.method !== 'recovery' && !challenge.methods.includes(input.method)) {
      return { ok: false, error: validationError([{ field: 'method', message: `must be one of the offered methods: ${[...challenge.methods, 'recovery'].join(', ')}` }]) }
    }
    const user = findUserInOrg(tx, challenge.organizationId, challenge.userId)
    const org = findOrganization(tx, challenge.organizationId)
    if (!user || !org || user.status !== 'active') return { ok: false, error: invalidMfaToken() }
    const actor = { type: 'user' as const, id: user.id }
    const ipError = checkIp(tx, deps, deps.allowlists.ranges(JSON.stringify(org.allowedIps)), { organizationId: org.id, actor }, request, now)
    if (ipError) return { ok: false, error: ipError }
    const target = { type: 'user', id: user.id }
    const locked = lockedForSeconds(tx, user.id, now)
    if (locked !== undefined) {
      audit(tx, { organizationId: org.id, actor, event: 'mfa.verify.failure', outcome: 'failure', reason: 'too_many_failures', target, details: { method: input.method }, request, now })
      return { ok: false, error: rateLimited(locked, 'Too many wrong codes for this account: wait before trying again') }
    }
    if (!codeMatches(tx, deps, challenge, input.method, input.code, now)) {
      const attempts = challenge.attempts + 1
      const spent = attempts >= MAX_CHALLENGE_ATTEMPTS
      tx.update(mfaChallenges).set({ attempts, ...(spent ? { consumedAt: now } : {}) }).where(eq(mfaChallenges.id, challenge.id)).run()
      audit(tx, { organizationId: org.id, actor, event: 'mfa.verify.failure', outcome: 'failure', reason: 'wrong_code', target, details: { method: input.method, attempts_left: MAX_CHALLENGE_ATTEMPTS - attempts }, request, now })
      const left = MAX_CHALLENGE_ATTEMPTS - attempts
      return { ok: false, error: new AppError('INVALID_MFA_CODE', left > 0 ? `The code is incorrect (${left} attempts left)` : 'The code is incorrect: no attempts left, sign in again') }
    }
    tx.update(mfaChallenges).set({ consumedAt: now }).where(eq(mfaChallenges.id, challenge.id)).run()
    audit(tx, { organizationId: org.id, actor, event: 'mfa.verify.success', target, details: { method: input.method }, request, now })
    return { ...openSignInSession(tx, deps, user, org, { authMethods: AMR[input.method], mfaEnrollmentOnly: false }, request, now), user }
  })
  if (!outcome.ok) throw outcome.error
  return finishSignIn(deps, outcome.user!, outcome)
}
