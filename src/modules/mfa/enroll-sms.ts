// SMS enrollment: send a code to a phone number (E.164), confirm it (turns SMS on, or moves it to the
// new number, and issues recovery codes; with a factor already on, also the step-up of step-up.ts, and
// a move is texted to the old number), and removal (needs the password).
import { and, eq } from 'drizzle-orm'
import type { AppDeps, SessionActor } from '../../context.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError, validationError } from '../../errors.ts'
import { actorOf, audit } from '../audit/record.ts'
import { chargePasswordAttempt } from '../auth/attempt-limit.ts'
import { verifyPassword } from '../auth/password.ts'
import { getUserInOrg } from '../users/get-user.ts'
import { confirmedMethods, ensureFactor, findFactor } from './factors.ts'
import { deleteRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.ts'
import { hashSmsCode, maskPhone, newSmsCode, recordSmsSend, SMS_CODE_TTL_MS, smsText } from './sms-codes.ts'
import { deliverSms } from './deliver.ts'
import { checkStepUp, prepareStepUp, type StepUpInput } from './step-up.ts'
import { mfaFactors } from './table.ts'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'sms' | 'log' | 'masterKey' | 'rateLimits'>

const MAX_CONFIRM_ATTEMPTS = 5

function auditSms(tx: Tx, actor: SessionActor, event: string, now: number, extra: { outcome?: 'failure'; reason?: string; details?: Record<string, unknown> } = {}) {
  const { details, ...rest } = extra
  audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event, target: { type: 'user', id: actor.userId }, details: { method: 'sms', ...details }, request: actor.request, now, ...rest })
}

const bindEnrollment = (userId: string, phone: string) => `enroll:${userId}:${phone}`
const smsFactor = (userId: string) => and(eq(mfaFactors.userId, userId), eq(mfaFactors.method, 'sms'))

export async function startSmsEnrollment(deps: Deps, actor: SessionActor, phone: string) {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  const now = deps.clock.now()
  const code = newSmsCode()
  const codeHash = hashSmsCode(bindEnrollment(user.id, phone), code)
  const previous = write(deps.db, (tx) => {
    recordSmsSend(tx, user.id, 'enroll', now)
    const factor = ensureFactor(tx, user, 'sms', now)
    tx.update(mfaFactors)
      .set({ pendingPhone: phone, pendingCodeHash: codeHash, pendingExpiresAt: now + SMS_CODE_TTL_MS, pendingAttempts: 0, updatedAt: now })
      .where(smsFactor(user.id))
      .run()
    return { pendingPhone: factor.pendingPhone, pendingCodeHash: factor.pendingCodeHash, pendingExpiresAt: factor.pendingExpiresAt, pendingAttempts: factor.pendingAttempts }
  })
  try {
    await deliverSms(deps, phone, smsText(code), { user_id: user.id, request_id: actor.request.requestId })
  } catch (error) {
    // The new code never reached the phone: the enrollment code sent before (if any) must stay the one that works.
    write(deps.db, (tx) => tx.update(mfaFactors).set(previous).where(and(smsFactor(user.id), eq(mfaFactors.pendingCodeHash, codeHash))).run())
    throw error
  }
  return { phone: maskPhone(phone), expires_in: SMS_CODE_TTL_MS / 1000 }
}

export async function confirmSmsEnrollment(deps: Deps, actor: SessionActor, input: { code: string } & StepUpInput) {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  const stepUp = await prepareStepUp(deps, actor, user, input)
  const now = deps.clock.now()
  const outcome = write(deps.db, (tx) => {
    const factor = findFactor(tx, actor.userId, 'sms')
    if (!factor?.pendingPhone || !factor.pendingCodeHash || (factor.pendingExpiresAt ?? 0) <= now) {
      throw new AppError('CONFLICT', 'No SMS enrollment is waiting for a code (or its code expired): start one with POST /api/v1/auth/mfa/sms')
    }
    if (hashSmsCode(bindEnrollment(actor.userId, factor.pendingPhone), input.code.trim()) !== factor.pendingCodeHash) {
      const attempts = factor.pendingAttempts + 1
      // The last allowed wrong code ends the enrollment: a new code must be sent.
      const spent = attempts >= MAX_CONFIRM_ATTEMPTS
      tx.update(mfaFactors)
        .set(spent ? { pendingPhone: null, pendingCodeHash: null, pendingExpiresAt: null, pendingAttempts: 0 } : { pendingAttempts: attempts })
        .where(smsFactor(actor.userId))
        .run()
      auditSms(tx, actor, 'mfa.enroll', now, { outcome: 'failure', reason: 'wrong_code' })
      return { ok: false as const, error: new AppError('INVALID_MFA_CODE', 'The code is not the one sent') }
    }
    const verdict = checkStepUp(tx, deps, user, stepUp, now)
    if (!verdict.ok) {
      auditSms(tx, actor, 'mfa.enroll', now, { outcome: 'failure', reason: verdict.reason })
      return { ok: false as const, error: verdict.error }
    }
    const previousPhone = factor.confirmedAt !== null ? factor.phone : null
    tx.update(mfaFactors)
      .set({ phone: factor.pendingPhone, confirmedAt: now, pendingPhone: null, pendingCodeHash: null, pendingExpiresAt: null, pendingAttempts: 0, updatedAt: now })
      .where(smsFactor(actor.userId))
      .run()
    const phone = maskPhone(factor.pendingPhone)
    if (verdict.method) auditSms(tx, actor, 'mfa.factor_changed', now, { details: { phone, ...(previousPhone ? { previous_phone: maskPhone(previousPhone) } : {}), step_up: verdict.method } })
    else auditSms(tx, actor, 'mfa.enroll', now, { details: { phone } })
    return { ok: true as const, codes: replaceRecoveryCodes(tx, actor.userId, now), previousPhone, phone: factor.pendingPhone }
  })
  if (!outcome.ok) throw outcome.error
  if (outcome.previousPhone && outcome.previousPhone !== outcome.phone) await tellOldNumber(deps, actor, outcome.previousPhone, outcome.phone)
  return { method: 'sms' as const, enabled: true as const, recovery_codes: outcome.codes }
}

/** The owner hears of a move at the number it left. The move stands if the gateway fails (deliverSms logs it). */
async function tellOldNumber(deps: Deps, actor: SessionActor, oldPhone: string, newPhone: string): Promise<void> {
  const text = `Your Switchboard sign-in number was changed to ${maskPhone(newPhone)}. If this was not you, contact your administrator at once.`
  try {
    await deliverSms(deps, oldPhone, text, { user_id: actor.userId, request_id: actor.request.requestId, purpose: 'number_changed' })
  } catch {
    // Already logged by deliverSms; the user has their new recovery codes either way.
  }
}

export async function removeSms(deps: Deps, actor: SessionActor, input: { password: string }): Promise<void> {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  chargePasswordAttempt(deps, actor.request.ip, user.email)
  const passwordOk = await verifyPassword(input.password, user.passwordHash)
  const now = deps.clock.now()
  const removed = write(deps.db, (tx) => {
    const factor = findFactor(tx, user.id, 'sms')
    if (!factor || factor.confirmedAt === null) throw new AppError('CONFLICT', 'SMS is not on')
    if (!passwordOk) {
      auditSms(tx, actor, 'mfa.remove', now, { outcome: 'failure', reason: 'wrong_password' })
      return false
    }
    tx.delete(mfaFactors).where(smsFactor(user.id)).run()
    if (confirmedMethods(tx, user.id).length === 0) deleteRecoveryCodes(tx, user.id)
    auditSms(tx, actor, 'mfa.remove', now)
    return true
  })
  if (!removed) throw validationError([{ field: 'password', message: 'is not your password' }])
}
