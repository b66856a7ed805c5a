// The sign-in form's verb: e-mail and password -> a browser session, or an MFA challenge. The rules of
// the API's login (sign-in/login.ts): unknown e-mail, wrong password and disabled user get the same answer
// after the same argon2 work, an address the organization does not allow gets IP_NOT_ALLOWED whatever
// the password, the session limit applies, the password is checked outside the write transaction.
// Added here: the user must belong to the client's organization, and a user whose organization
// requires MFA must have it (a browser session must not skip that requirement).
import type { AppContext, RequestMeta } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { appendAudit } from '../../audit/index.ts'
import { checkCredentials } from '../../sign-in/index.ts'
import { checkIp } from '../../organizations/index.ts'
import { confirmedMethods, createChallenge, type MfaMethod } from '../../mfa/index.ts'
import type { OAuthClientRow } from '../../oauth-clients/index.ts'
import { openBrowserSignIn, rememberEvicted, type SignInOpened } from './open-sign-in.ts'

export type PasswordOutcome = SignInOpened | { kind: 'mfa'; mfaToken: string; methods: MfaMethod[] }

export async function signInWithPassword(
  app: AppContext,
  input: { client: OAuthClientRow; email: string; password: string; replacedCookie: string | undefined; request: RequestMeta },
): Promise<PasswordOutcome> {
  const { request, client } = input
  const via = { via: 'authorization_server', client_id: client.id }
  // No address has control characters (and PostgreSQL text cannot hold NUL): such an e-mail is simply unknown.
  const email = input.email.replace(/\p{Cc}/gu, '')
  const checked = await checkCredentials(app, {
    email,
    unknown: email !== input.email,
    password: input.password,
    request,
    details: via,
    message: 'The e-mail address or the password is incorrect.',
  })
  if (!checked.ok) return { kind: 'refused', error: checked.error }
  const { user, org, ranges, now } = checked
  const outcome = await app.db.write('oauth.sign_in', async (tx): Promise<PasswordOutcome> => {
    const actor = { type: 'user' as const, id: user.id }
    const ipError = await checkIp(tx, app, { ranges, who: { organizationId: org.id, actor }, request, now })
    if (ipError) return { kind: 'refused', error: ipError }
    const refuse = async (reason: string, error: AppError): Promise<PasswordOutcome> => {
      const target = { type: 'user', id: user.id }
      await appendAudit(tx, {
        organizationId: org.id,
        actor,
        event: 'login.failure',
        outcome: 'failure',
        reason,
        target,
        details: via,
        request,
        now,
      })
      return { kind: 'refused', error }
    }
    if (org.id !== client.organization_id)
      return refuse('other_organization', new AppError('INSUFFICIENT_PERMISSIONS', `Your account cannot be used with ${client.name}.`))
    const methods = await confirmedMethods(tx, user.id)
    if (methods.length === 0 && org.mfa_required)
      return refuse(
        'mfa_enrollment_required',
        new AppError(
          'MFA_ENROLLMENT_REQUIRED',
          'Your organization requires two-step verification: set it up in Switchboard first, then try again.',
        ),
      )
    if (methods.length > 0) {
      const challenge = await createChallenge(tx, user, methods, now, app.config.mfaTokenTtlS * 1000)
      const target = { type: 'user', id: user.id }
      await appendAudit(tx, { organizationId: org.id, actor, event: 'mfa.challenge', target, details: { methods, ...via }, request, now })
      return { kind: 'mfa', mfaToken: challenge.token, methods }
    }
    return openBrowserSignIn(tx, app, { user, org, authMethods: ['pwd'], replacedCookie: input.replacedCookie, request, now })
  })
  rememberEvicted(app, outcome)
  return outcome
}
