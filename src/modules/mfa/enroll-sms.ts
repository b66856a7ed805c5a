// SMS enrollment: send a code to a phone number (E.164), confirm it (turns SMS on, or moves it to the
// new number, and issues recovery codes; with a factor already on, also the step-up of step-up.ts, and
// a move is texted to the old number), and removal (needs the password). Audit records, not events.
import type { Ctx, SessionActor } from '../../context.ts'
import { AppError, validationError } from '../../errors.ts'
import { getUserInOrg } from '../users/index.ts'
import { deliverSms } from './deliver.ts'
import { passwordMatches } from './password-proof.ts'
import { replaceRecoveryCodes } from './recovery-codes.ts'
import { hashSmsCode, maskPhone, newSmsCode, recordSmsSend, SMS_CODE_TTL_MS, smsText } from './sms-codes.ts'
import { checkStepUp, prepareStepUp, type StepUpInput } from './step-up.ts'
import { deleteFactor, deleteRecoveryCodes, findFactor, lockUserMfa, updateFactor } from './store.ts'
import { auditFactor, confirmedMethods, ensureFactor } from './user-factors.ts'

const MAX_CONFIRM_ATTEMPTS = 5

const bindEnrollment = (userId: string, phone: string) => `enroll:${userId}:${phone}`

export async function startSmsEnrollment(ctx: Ctx<SessionActor>, input: { phone: string }) {
  const { actor } = ctx
  const { phone } = input
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const now = ctx.clock.now()
  const code = newSmsCode()
  const codeHash = hashSmsCode(bindEnrollment(user.id, phone), code)
  const previous = await ctx.db.write('mfa.sms.start', async (tx) => {
    await recordSmsSend(tx, user.id, 'enroll', now)
    const factor = await ensureFactor(tx, user, 'sms', now)
    await updateFactor(tx, user.id, 'sms', {
      pending_phone: phone,
      pending_code_hash: codeHash,
      pending_expires_at: now + SMS_CODE_TTL_MS,
      pending_attempts: 0,
      updated_at: now,
    })
    return {
      pending_phone: factor.pending_phone,
      pending_code_hash: factor.pending_code_hash,
      pending_expires_at: factor.pending_expires_at,
      pending_attempts: factor.pending_attempts,
    }
  })
  try {
    await deliverSms(ctx, phone, smsText(code), { user_id: user.id, request_id: actor.request.requestId })
  } catch (error) {
    // The new code never reached the phone: the enrollment code sent before (if any) must stay the one that works.
    await ctx.db.write('mfa.sms.unsent', (tx) => updateFactor(tx, user.id, 'sms', previous, codeHash))
    throw error
  }
  return { phone: maskPhone(phone), expires_in: SMS_CODE_TTL_MS / 1000 }
}

export async function confirmSmsEnrollment(ctx: Ctx<SessionActor>, input: { code: string } & StepUpInput) {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const stepUp = await prepareStepUp(ctx, user, input)
  const now = ctx.clock.now()
  const outcome = await ctx.db.write('mfa.sms.confirm', async (tx) => {
    // Invariant: an enrollment is confirmed once, and every wrong code counts (the fifth ends it).
    await lockUserMfa(tx, actor.userId)
    const factor = await findFactor(tx, actor.userId, 'sms')
    if (!factor?.pending_phone || !factor.pending_code_hash || (factor.pending_expires_at ?? 0) <= now) {
      throw new AppError(
        'CONFLICT',
        'No SMS enrollment is waiting for a code (or its code expired): start one with POST /api/v1/auth/mfa/sms',
      )
    }
    if (hashSmsCode(bindEnrollment(actor.userId, factor.pending_phone), input.code.trim()) !== factor.pending_code_hash) {
      const attempts = Number(factor.pending_attempts) + 1
      // The last allowed wrong code ends the enrollment: a new code must be sent.
      const spent = attempts >= MAX_CONFIRM_ATTEMPTS
      await updateFactor(
        tx,
        actor.userId,
        'sms',
        spent
          ? { pending_phone: null, pending_code_hash: null, pending_expires_at: null, pending_attempts: 0 }
          : { pending_attempts: attempts },
      )
      await auditFactor(tx, ctx, 'sms', 'mfa.enroll', now, { outcome: 'failure', reason: 'wrong_code' })
      return { ok: false as const, error: new AppError('INVALID_MFA_CODE', 'The code is not the one sent') }
    }
    const verdict = await checkStepUp(tx, ctx, user, stepUp, now)
    if (!verdict.ok) {
      await auditFactor(tx, ctx, 'sms', 'mfa.enroll', now, { outcome: 'failure', reason: verdict.reason })
      return { ok: false as const, error: verdict.error }
    }
    const previousPhone = factor.confirmed_at !== null ? factor.phone : null
    await updateFactor(tx, actor.userId, 'sms', {
      phone: factor.pending_phone,
      confirmed_at: now,
      pending_phone: null,
      pending_code_hash: null,
      pending_expires_at: null,
      pending_attempts: 0,
      updated_at: now,
    })
    const phone = maskPhone(factor.pending_phone)
    if (verdict.method)
      await auditFactor(tx, ctx, 'sms', 'mfa.factor_changed', now, {
        details: { phone, ...(previousPhone ? { previous_phone: maskPhone(previousPhone) } : {}), step_up: verdict.method },
      })
    else await auditFactor(tx, ctx, 'sms', 'mfa.enroll', now, { details: { phone } })
    return { ok: true as const, codes: await replaceRecoveryCodes(tx, actor.userId, now), previousPhone, phone: factor.pending_phone }
  })
  if (!outcome.ok) throw outcome.error
  if (outcome.previousPhone && outcome.previousPhone !== outcome.phone) await tellOldNumber(ctx, outcome.previousPhone, outcome.phone)
  return { method: 'sms' as const, enabled: true as const, recovery_codes: outcome.codes }
}

/** The owner hears of a move at the number it left. The move stands if the gateway fails (deliverSms logs it). */
async function tellOldNumber(ctx: Ctx<SessionActor>, oldPhone: string, newPhone: string): Promise<void> {
  const text = `Your Switchboard sign-in number was changed to ${maskPhone(newPhone)}. If this was not you, contact your administrator at once.`
  try {
    await deliverSms(ctx, oldPhone, text, { user_id: ctx.actor.userId, request_id: ctx.actor.request.requestId, purpose: 'number_changed' })
  } catch {
    // Already logged by deliverSms; the user has their new recovery codes either way.
  }
}

export async function removeSms(ctx: Ctx<SessionActor>, input: { password: string }): Promise<void> {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const passwordOk = await passwordMatches(ctx, user, input.password)
  const now = ctx.clock.now()
  const removed = await ctx.db.write('mfa.sms.remove', async (tx) => {
    // Invariant: removing the last factor removes the recovery codes, whichever removal comes last.
    await lockUserMfa(tx, user.id)
    const factor = await findFactor(tx, user.id, 'sms')
    if (!factor || factor.confirmed_at === null) throw new AppError('CONFLICT', 'SMS is not on')
    if (!passwordOk) {
      await auditFactor(tx, ctx, 'sms', 'mfa.remove', now, { outcome: 'failure', reason: 'wrong_password' })
      return false
    }
    await deleteFactor(tx, user.id, 'sms')
    if ((await confirmedMethods(tx, user.id)).length === 0) await deleteRecoveryCodes(tx, user.id)
    await auditFactor(tx, ctx, 'sms', 'mfa.remove', now)
    return true
  })
  if (!removed) throw validationError([{ field: 'password', message: 'is not your password' }])
}
