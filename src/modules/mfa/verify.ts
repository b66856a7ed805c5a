// The second step of a login: an `mfa_token` and a code (TOTP, SMS or recovery) -> the login response.
// One transaction checks and uses up the code, counts a wrong one (the fifth ends the challenge),
// and opens the session, so a code can never be used twice, not even by two requests at once.
// The check is its own step (checkMfaCode) so that the authorization server's pages open a browser
// session with exactly the same attempts, lockout and audit.
import type { AppContext, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError, rateLimited, validationError } from '../../errors.ts'
import { appendAudit } from '../audit/index.ts'
import { checkIp } from '../organizations/index.ts'
import { finishSignIn, openSignInSession, type SessionKind, type SignInOutcome } from '../auth/index.ts'
import { findOrganization, type OrganizationRow } from '../organizations/index.ts'
import { findUserInOrg, type UserRow } from '../users/index.ts'
import { type LiveChallenge, lockedForSeconds, lockLiveChallenge, MAX_CHALLENGE_ATTEMPTS } from './login-challenge.ts'
import { useRecoveryCode } from './recovery-codes.ts'
import { hashSmsCode } from './sms-codes.ts'
import { lockUserMfa, updateChallenge } from './store.ts'
import { useTotpCode } from './user-factors.ts'

export const VERIFY_METHODS = ['totp', 'sms', 'recovery'] as const
export type VerifyMethod = (typeof VERIFY_METHODS)[number]

const AMR: Record<VerifyMethod, string[]> = { totp: ['pwd', 'otp', 'mfa'], sms: ['pwd', 'sms', 'mfa'], recovery: ['pwd', 'mfa'] }

export const invalidMfaToken = () => new AppError('TOKEN_INVALID', 'The mfa_token is unknown, expired or used up: sign in again')

/** Checks the code, spending what it uses (a TOTP step, the SMS code, a recovery code). */
async function codeMatches(
  tx: Tx,
  app: AppContext,
  challenge: LiveChallenge,
  method: VerifyMethod,
  code: string,
  now: number,
): Promise<boolean> {
  if (method === 'recovery') return useRecoveryCode(tx, challenge.user_id, code, now)
  if (method === 'sms') {
    const valid =
      challenge.sms_code_hash !== null &&
      (challenge.sms_expires_at ?? 0) > now &&
      hashSmsCode(`login:${challenge.id}`, code.trim()) === challenge.sms_code_hash
    if (valid) await updateChallenge(tx, challenge.id, { sms_code_hash: null })
    return valid
  }
  return useTotpCode(tx, app.masterKey, challenge.user_id, code, now)
}

/** A checked code: the user and organization to open a session for, and how they signed in. */
export type CheckedMfa = { ok: true; user: UserRow; org: OrganizationRow; kind: SessionKind } | { ok: false; error: AppError }

/**
 * Inside the caller's write transaction: checks the challenge and the code, counting a wrong one and
 * writing the audit records. A refusal is returned, not thrown, so the count and the records commit.
 */
export async function checkMfaCode(
  tx: Tx,
  app: AppContext,
  input: { mfa_token: string; code: string; method: VerifyMethod },
  request: RequestMeta,
  now: number,
): Promise<CheckedMfa> {
  const challenge = await lockLiveChallenge(tx, input.mfa_token, now)
  if (!challenge) return { ok: false, error: invalidMfaToken() }
  // Invariant: a TOTP step or a recovery code is spent once, and the user's failure window counts every
  // wrong code, across all the user's challenges at once.
  await lockUserMfa(tx, challenge.user_id)
  // Recovery codes are always accepted, though not listed: they are what a user without the phone has.
  if (input.method !== 'recovery' && !challenge.methods.includes(input.method)) {
    return {
      ok: false,
      error: validationError([
        { field: 'method', message: `must be one of the offered methods: ${[...challenge.methods, 'recovery'].join(', ')}` },
      ]),
    }
  }
  const user = await findUserInOrg(tx, challenge.organization_id, challenge.user_id)
  const org = await findOrganization(tx, challenge.organization_id)
  if (!user || !org || user.status !== 'active') return { ok: false, error: invalidMfaToken() }
  const actor = { type: 'user' as const, id: user.id }
  const ipError = await checkIp(tx, app, {
    ranges: app.allowlists.ranges(org.allowed_ips),
    who: { organizationId: org.id, actor },
    request,
    now,
  })
  if (ipError) return { ok: false, error: ipError }
  const target = { type: 'user', id: user.id }
  const locked = await lockedForSeconds(tx, user.id, now)
  if (locked !== undefined) {
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'mfa.verify.failure',
      outcome: 'failure',
      reason: 'too_many_failures',
      target,
      details: { method: input.method },
      request,
      now,
    })
    return { ok: false, error: rateLimited(locked, 'Too many wrong codes for this account: wait before trying again') }
  }
  if (!(await codeMatches(tx, app, challenge, input.method, input.code, now))) {
    const attempts = Number(challenge.attempts) + 1
    const left = MAX_CHALLENGE_ATTEMPTS - attempts
    await updateChallenge(tx, challenge.id, { attempts, ...(left <= 0 ? { consumed_at: now } : {}) })
    await appendAudit(tx, {
      organizationId: org.id,
      actor,
      event: 'mfa.verify.failure',
      outcome: 'failure',
      reason: 'wrong_code',
      target,
      details: { method: input.method, attempts_left: left },
      request,
      now,
    })
    return {
      ok: false,
      error: new AppError(
        'INVALID_MFA_CODE',
        left > 0 ? `The code is incorrect (${left} attempts left)` : 'The code is incorrect: no attempts left, sign in again',
      ),
    }
  }
  await updateChallenge(tx, challenge.id, { consumed_at: now })
  await appendAudit(tx, {
    organizationId: org.id,
    actor,
    event: 'mfa.verify.success',
    target,
    details: { method: input.method },
    request,
    now,
  })
  return { ok: true, user, org, kind: { authMethods: AMR[input.method], mfaEnrollmentOnly: false } }
}

/** Not signed in yet: runs on the app context; the audit actor is the user the token belongs to. */
export async function verifyMfa(app: AppContext, input: { mfa_token: string; code: string; method: VerifyMethod }, request: RequestMeta) {
  const now = app.clock.now()
  const outcome = await app.db.write('mfa.verify', async (tx): Promise<SignInOutcome & { user?: UserRow }> => {
    const checked = await checkMfaCode(tx, app, input, request, now)
    if (!checked.ok) return checked
    const { user, org, kind } = checked
    return { ...(await openSignInSession(tx, app, { user, org, kind, request, now })), user }
  })
  if (!outcome.ok) throw outcome.error
  return finishSignIn(app, outcome.user!, outcome)
}
