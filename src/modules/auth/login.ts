// login: e-mail and password -> a new session with its tokens, or an MFA challenge. Unknown e-mail,
// wrong password and disabled user all answer INVALID_CREDENTIALS after the same argon2 work, so none
// can be told apart; the audit log records which it was. From an address the user's organization does
// not allow, every attempt answers IP_NOT_ALLOWED whatever the password, after the same argon2 work, so
// a blocked address cannot tell a right password from a wrong one. The password is checked before the
// one write transaction, never inside it.
import type { AppContext, RequestMeta } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { appendAudit } from '../audit/index.ts'
import { confirmedMethods, createChallenge, type MfaMethod } from '../mfa/index.ts'
import { findOrganization } from '../organizations/index.ts'
import { findUserByEmail, normalizeEmail } from '../users/index.ts'
import { checkIp } from './ip-gate.ts'
import { dummyHash, verifyPassword } from './password.ts'
import { finishSignIn, openSignInSession, type SignInOutcome } from './session-start.ts'

export interface MfaChallengeResponse {
  mfa_required: true
  mfa_token: string
  mfa_methods: MfaMethod[]
}

export async function login(app: AppContext, input: { email: string; password: string; request: RequestMeta }) {
  const { request } = input
  const user = await findUserByEmail(app.db, input.email)
  const matches = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()))
  const now = app.clock.now()
  const org = user ? await findOrganization(app.db, user.organization_id) : undefined
  const ranges = org ? app.allowlists.ranges(org.allowed_ips) : []
  if (!user || !matches || user.status !== 'active') {
    const reason = !user ? 'unknown_email' : !matches ? 'wrong_password' : 'user_disabled'
    const ipError = await app.db.write('login.failure', async (tx) => {
      await appendAudit(tx, {
        organizationId: user?.organization_id ?? null,
        actor: user ? { type: 'user', id: user.id } : { type: 'anonymous', id: null },
        event: 'login.failure',
        outcome: 'failure',
        reason,
        ...(user ? { target: { type: 'user', id: user.id } } : { details: { email: normalizeEmail(input.email).slice(0, 254) } }),
        request,
        now,
      })
      // The same answer as for the right password from this address (below).
      return user && org
        ? checkIp(tx, app, { ranges, who: { organizationId: org.id, actor: { type: 'user', id: user.id } }, request, now })
        : undefined
    })
    throw ipError ?? new AppError('INVALID_CREDENTIALS')
  }
  if (!org) throw new AppError('INVALID_CREDENTIALS')
  const outcome = await app.db.write('login', async (tx): Promise<SignInOutcome | MfaChallengeResponse> => {
    const ipError = await checkIp(tx, app, { ranges, who: { organizationId: org.id, actor: { type: 'user', id: user.id } }, request, now })
    if (ipError) return { ok: false, error: ipError }
    const methods = await confirmedMethods(tx, user.id)
    if (methods.length === 0) {
      const kind = { authMethods: ['pwd'], mfaEnrollmentOnly: Boolean(org.mfa_required) }
      return openSignInSession(tx, app, { user, org, kind, request, now })
    }
    const challenge = await createChallenge(tx, user, methods, now, app.config.mfaTokenTtlS * 1000)
    const target = { type: 'user', id: user.id }
    await appendAudit(tx, {
      organizationId: org.id,
      actor: { type: 'user', id: user.id },
      event: 'mfa.challenge',
      target,
      details: { methods },
      request,
      now,
    })
    return { mfa_required: true, mfa_token: challenge.token, mfa_methods: methods }
  })
  if ('mfa_required' in outcome) return outcome
  return finishSignIn(app, user, outcome)
}
