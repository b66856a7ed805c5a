// login: e-mail and password -> a new session with its tokens, or an MFA challenge. The password is
// checked first, outside the one write transaction (check-credentials.ts: the same answer and work for
// every kind of failure); from an address the user's organization does not allow, the right password
// answers IP_NOT_ALLOWED too, so a blocked address cannot tell a right password from a wrong one.
import type { AppContext, RequestMeta } from '../../context.ts'
import { appendAudit } from '../audit/index.ts'
import { confirmedMethods, createChallenge, type MfaMethod } from '../mfa/index.ts'
import { checkCredentials } from './check-credentials.ts'
import { checkIp } from '../organizations/index.ts'
import { finishSignIn, openSignInSession, type SignInOutcome } from '../auth/index.ts'

export interface MfaChallengeResponse {
  mfa_required: true
  mfa_token: string
  mfa_methods: MfaMethod[]
}

export async function login(app: AppContext, input: { email: string; password: string; request: RequestMeta }) {
  const { request } = input
  const checked = await checkCredentials(app, input)
  if (!checked.ok) throw checked.error
  const { user, org, ranges, now } = checked
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
