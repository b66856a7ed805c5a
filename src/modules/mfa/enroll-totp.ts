// TOTP enrollment: start (a new secret and its otpauth URI), confirm with a code (turns it on and
// issues recovery codes; with SMS already on, also the step-up of step-up.ts), and removal (needs the
// password and a current code). Enrollments and removals are audit records (not events).
import type { Ctx, SessionActor } from '../../context.ts'
import { AppError, validationError } from '../../errors.ts'
import { getUserInOrg } from '../users/index.ts'
import { passwordMatches } from './password-proof.ts'
import { replaceRecoveryCodes } from './recovery-codes.ts'
import { checkStepUp, prepareStepUp, type StepUpInput } from './step-up.ts'
import { deleteFactor, deleteRecoveryCodes, findFactor, lockUserMfa, updateFactor } from './store.ts'
import { acceptTotp, newTotpSecret, otpauthUri, sealSecret, unsealSecret } from './totp.ts'
import { auditFactor, confirmedMethods, ensureFactor } from './user-factors.ts'

const wrongCode = () => new AppError('INVALID_MFA_CODE', 'The code is not valid for this authenticator (or was already used)')

export async function startTotpEnrollment(ctx: Ctx<SessionActor>) {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const now = ctx.clock.now()
  const secret = newTotpSecret()
  const sealed = sealSecret(ctx.masterKey, secret, user.id)
  await ctx.db.write('mfa.totp.start', async (tx) => {
    const factor = await ensureFactor(tx, user, 'totp', now)
    if (factor.confirmed_at !== null) throw new AppError('CONFLICT', 'TOTP is already on: turn it off first to enroll a new authenticator')
    await updateFactor(tx, user.id, 'totp', { pending_secret_encrypted: sealed, updated_at: now })
  })
  return { secret, otpauth_uri: otpauthUri(secret, user.email) }
}

export async function confirmTotpEnrollment(ctx: Ctx<SessionActor>, input: { code: string } & StepUpInput) {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const stepUp = await prepareStepUp(ctx, user, input)
  const now = ctx.clock.now()
  // Errors are returned, not thrown: a wrong code must commit its record (and the step-up's count).
  const outcome = await ctx.db.write('mfa.totp.confirm', async (tx) => {
    // Invariant: an enrollment is confirmed once (one set of recovery codes, the one answered).
    await lockUserMfa(tx, actor.userId)
    const factor = await findFactor(tx, actor.userId, 'totp')
    if (!factor?.pending_secret_encrypted)
      throw new AppError('CONFLICT', 'No TOTP enrollment is in progress: start one with POST /api/v1/auth/mfa/totp')
    const secret = unsealSecret(ctx.masterKey, factor.pending_secret_encrypted, actor.userId)
    const step = acceptTotp(secret, input.code, now, null)
    if (step === undefined) {
      await auditFactor(tx, ctx, 'totp', 'mfa.enroll', now, { outcome: 'failure', reason: 'wrong_code' })
      return { ok: false as const, error: wrongCode() }
    }
    const verdict = await checkStepUp(tx, ctx, user, stepUp, now)
    if (!verdict.ok) {
      await auditFactor(tx, ctx, 'totp', 'mfa.enroll', now, { outcome: 'failure', reason: verdict.reason })
      return { ok: false as const, error: verdict.error }
    }
    await updateFactor(tx, actor.userId, 'totp', {
      secret_encrypted: factor.pending_secret_encrypted,
      pending_secret_encrypted: null,
      confirmed_at: now,
      last_step: step,
      updated_at: now,
    })
    if (verdict.method) await auditFactor(tx, ctx, 'totp', 'mfa.factor_changed', now, { details: { step_up: verdict.method } })
    else await auditFactor(tx, ctx, 'totp', 'mfa.enroll', now)
    return { ok: true as const, codes: await replaceRecoveryCodes(tx, actor.userId, now) }
  })
  if (!outcome.ok) throw outcome.error
  return { method: 'totp' as const, enabled: true as const, recovery_codes: outcome.codes }
}

export async function removeTotp(ctx: Ctx<SessionActor>, input: { password: string; code: string }): Promise<void> {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const passwordOk = await passwordMatches(ctx, user, input.password)
  const now = ctx.clock.now()
  const outcome = await ctx.db.write('mfa.totp.remove', async (tx) => {
    // Invariant: removing the last factor removes the recovery codes, whichever removal comes last.
    await lockUserMfa(tx, user.id)
    const factor = await findFactor(tx, user.id, 'totp')
    if (!factor?.secret_encrypted || factor.confirmed_at === null) throw new AppError('CONFLICT', 'TOTP is not on')
    if (!passwordOk) {
      await auditFactor(tx, ctx, 'totp', 'mfa.remove', now, { outcome: 'failure', reason: 'wrong_password' })
      return 'wrong_password' as const
    }
    const lastStep = factor.last_step === null ? null : Number(factor.last_step)
    if (acceptTotp(unsealSecret(ctx.masterKey, factor.secret_encrypted, user.id), input.code, now, lastStep) === undefined) {
      await auditFactor(tx, ctx, 'totp', 'mfa.remove', now, { outcome: 'failure', reason: 'wrong_code' })
      return 'wrong_code' as const
    }
    await deleteFactor(tx, user.id, 'totp')
    if ((await confirmedMethods(tx, user.id)).length === 0) await deleteRecoveryCodes(tx, user.id)
    await auditFactor(tx, ctx, 'totp', 'mfa.remove', now)
    return 'removed' as const
  })
  if (outcome === 'wrong_password') throw validationError([{ field: 'password', message: 'is not your password' }])
  if (outcome === 'wrong_code') throw wrongCode()
}
