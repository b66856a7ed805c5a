// sendLoginSms: texts the code of a pending login (an `mfa_token` that offers sms). A new code
// replaces the previous one once sent; sending is throttled per user.
import { and, eq } from 'drizzle-orm'
import type { AppDeps, RequestMeta } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { validationError } from '../../errors.ts'
import { checkIp } from '../auth/ip-check.ts'
import { findOrganization } from '../organizations/service.ts'
import { findLiveChallenge } from './challenge.ts'
import { deliverSms } from './deliver.ts'
import { findFactor } from './factors.ts'
import { hashSmsCode, maskPhone, newSmsCode, recordSmsSend, SMS_CODE_TTL_MS, smsText } from './sms-codes.ts'
import { mfaChallenges } from './table.ts'
import { invalidMfaToken } from './verify.ts'

export async function sendLoginSms(deps: AppDeps, mfaToken: string, request: RequestMeta) {
  const now = deps.clock.now()
  const code = newSmsCode()
  const sent = write(deps.db, (tx) => {
    const challenge = findLiveChallenge(tx, mfaToken, now)
    if (!challenge) throw invalidMfaToken()
    if (!challenge.methods.includes('sms')) throw validationError([{ field: 'mfa_token', message: 'this sign-in does not offer sms' }])
    const phone = findFactor(tx, challenge.userId, 'sms')?.phone
    if (!phone) throw invalidMfaToken()
    const org = findOrganization(tx, challenge.organizationId)!
    const ipError = checkIp(tx, deps, deps.allowlists.ranges(JSON.stringify(org.allowedIps)), { organizationId: org.id, actor: { type: 'user', id: challenge.userId } }, request, now)
    if (ipError) return { ipError }
    recordSmsSend(tx, challenge.userId, 'login', now)
    const codeHash = hashSmsCode(`login:${challenge.id}`, code)
    tx.update(mfaChallenges)
      .set({ smsCodeHash: codeHash, smsExpiresAt: Math.min(now + SMS_CODE_TTL_MS, challenge.expiresAt) })
      .where(eq(mfaChallenges.id, challenge.id))
      .run()
    return { phone, userId: challenge.userId, challengeId: challenge.id, codeHash, previous: { smsCodeHash: challenge.smsCodeHash, smsExpiresAt: challenge.smsExpiresAt } }
  })
  if ('ipError' in sent) throw sent.ipError
  try {
    await deliverSms(deps, sent.phone, smsText(code), { user_id: sent.userId, request_id: request.requestId })
  } catch (error) {
    // The new code never reached the phone: the code sent before (if any) must stay the one that works.
    write(deps.db, (tx) =>
      tx.update(mfaChallenges).set(sent.previous).where(and(eq(mfaChallenges.id, sent.challengeId), eq(mfaChallenges.smsCodeHash, sent.codeHash))).run(),
    )
    throw error
  }
  return { phone: maskPhone(sent.phone), expires_in: SMS_CODE_TTL_MS / 1000 }
}
