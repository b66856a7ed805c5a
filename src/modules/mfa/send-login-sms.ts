// sendLoginSms: texts the code of a pending login (an `mfa_token` that offers sms). A new code
// replaces the previous one once sent; sending is throttled per user.
import type { AppContext, RequestMeta } from '../../context.ts'
import { type AppError, validationError } from '../../errors.ts'
import { checkIp } from '../organizations/index.ts'
import { findOrganization } from '../organizations/index.ts'
import { deliverSms } from './deliver.ts'
import { lockLiveChallenge } from './login-challenge.ts'
import { hashSmsCode, maskPhone, newSmsCode, recordSmsSend, SMS_CODE_TTL_MS, smsText } from './sms-codes.ts'
import { findFactor, updateChallenge } from './store.ts'
import { invalidMfaToken } from './verify.ts'

type Sent =
  | { ipError: AppError }
  | {
      phone: string
      userId: string
      challengeId: string
      codeHash: string
      previous: { sms_code_hash: string | null; sms_expires_at: number | null }
    }

/** Not signed in yet: runs on the app context, the audit actor is the user the token belongs to. */
export async function sendLoginSms(app: AppContext, input: { mfa_token: string }, request: RequestMeta) {
  const now = app.clock.now()
  const code = newSmsCode()
  const sent = await app.db.write('mfa.login_sms', async (tx): Promise<Sent> => {
    const challenge = await lockLiveChallenge(tx, input.mfa_token, now)
    if (!challenge) throw invalidMfaToken()
    if (!challenge.methods.includes('sms')) throw validationError([{ field: 'mfa_token', message: 'this sign-in does not offer sms' }])
    const phone = (await findFactor(tx, challenge.user_id, 'sms'))?.phone
    if (!phone) throw invalidMfaToken()
    const org = (await findOrganization(tx, challenge.organization_id))!
    const ipError = await checkIp(tx, app, {
      ranges: app.allowlists.ranges(org.allowed_ips),
      who: { organizationId: org.id, actor: { type: 'user', id: challenge.user_id } },
      request,
      now,
    })
    if (ipError) return { ipError }
    await recordSmsSend(tx, challenge.user_id, 'login', now)
    const codeHash = hashSmsCode(`login:${challenge.id}`, code)
    await updateChallenge(tx, challenge.id, {
      sms_code_hash: codeHash,
      sms_expires_at: Math.min(now + SMS_CODE_TTL_MS, Number(challenge.expires_at)),
    })
    return {
      phone,
      userId: challenge.user_id,
      challengeId: challenge.id,
      codeHash,
      previous: { sms_code_hash: challenge.sms_code_hash, sms_expires_at: challenge.sms_expires_at },
    }
  })
  if ('ipError' in sent) throw sent.ipError
  try {
    await deliverSms(app, sent.phone, smsText(code), { user_id: sent.userId, request_id: request.requestId })
  } catch (error) {
    // The new code never reached the phone: the code sent before (if any) must stay the one that works.
    await app.db.write('mfa.login_sms.unsent', (tx) => updateChallenge(tx, sent.challengeId, sent.previous, sent.codeHash))
    throw error
  }
  return { phone: maskPhone(sent.phone), expires_in: SMS_CODE_TTL_MS / 1000 }
}
