// The MFA form's verbs: check the code of the challenge the sign-in started (the mfa module's own check:
// the same attempts, lockout and audit as the API) and open the browser session in the same
// transaction; or text the challenge's code (the mfa module's own sending, with its throttle).
import type { AppContext, RequestMeta } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { checkMfaCode, findLiveChallenge, sendLoginSms, type VerifyMethod } from '../../mfa/index.ts'
import type { OAuthClientRow } from '../../oauth-clients/index.ts'
import { openBrowserSignIn, rememberEvicted, type SignInOpened } from './open-sign-in.ts'

/** The methods the challenge offers, or undefined when it is used up or expired (sign in again). */
export async function challengeMethods(app: Pick<AppContext, 'db' | 'clock'>, mfaToken: string) {
  return (await findLiveChallenge(app.db, mfaToken, app.clock.now()))?.methods
}

/**
 * A code that is not six digits is taken for a recovery code (xxxx-xxxx-xxxx-xxxx); six digits are the
 * code of the method the page asked for.
 */
export function methodOfCode(code: string, pageMethod: string | undefined): VerifyMethod {
  if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return 'recovery'
  return pageMethod === 'sms' ? 'sms' : 'totp'
}

export async function verifyMfaStep(
  app: AppContext,
  input: {
    client: OAuthClientRow
    mfaToken: string
    code: string
    method: VerifyMethod
    replacedCookie: string | undefined
    request: RequestMeta
  },
): Promise<SignInOpened> {
  const { request } = input
  const now = app.clock.now()
  const code = input.method === 'recovery' ? input.code : input.code.replace(/\s/g, '')
  const outcome = await app.db.write('oauth.mfa', async (tx): Promise<SignInOpened> => {
    const checked = await checkMfaCode(tx, app, { mfa_token: input.mfaToken, code, method: input.method }, request, now)
    if (!checked.ok) return { kind: 'refused', error: checked.error }
    const { user, org, kind } = checked
    // The challenge came from this client's sign-in form, which checked the organization; a token
    // from elsewhere must not open a session for another organization's client.
    if (org.id !== input.client.organization_id)
      return { kind: 'refused', error: new AppError('INSUFFICIENT_PERMISSIONS', `Your account cannot be used with ${input.client.name}.`) }
    return openBrowserSignIn(tx, app, { user, org, authMethods: kind.authMethods, replacedCookie: input.replacedCookie, request, now })
  })
  rememberEvicted(app, outcome)
  return outcome
}

/** Texts the challenge's code; the masked number, or the error to show (throttled, unknown challenge, ...). */
export async function sendMfaSms(
  app: AppContext,
  input: { mfaToken: string; request: RequestMeta },
): Promise<{ phone: string } | { error: AppError }> {
  try {
    return { phone: (await sendLoginSms(app, { mfa_token: input.mfaToken }, input.request)).phone }
  } catch (error) {
    if (error instanceof AppError) return { error }
    throw error
  }
}
