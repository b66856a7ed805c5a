// TOTP enrollment: start (a new secret and its otpauth URI), confirm with a code (turns it on and
// issues recovery codes; with SMS already on, also the step-up of step-up.ts), and removal (needs the
// password and a current code).
import { eq, and } from 'drizzle-orm'
import type { AppDeps, SessionActor } from '../../context.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError, validationError } from '../../errors.ts'
import { actorOf, audit } from '../audit/record.ts'
import { chargePasswordAttempt } from '../auth/attempt-limit.ts'
import { verifyPassword } from '../auth/password.ts'
import { getUserInOrg } from '../users/get-user.ts'
import { confirmedMethods, ensureFactor, findFactor } from './factors.ts'
import { deleteRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.ts'
import { checkStepUp, prepareStepUp, type StepUpInput } from './step-up.ts'
import { mfaFactors } from './table.ts'
import { acceptTotp, newTotpSecret, otpauthUri, sealSecret, unsealSecret } from './totp.ts'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'masterKey' | 'rateLimits'>

const wrongCode = () => new AppError('INVALID_MFA_CODE', 'The code is not valid for this authenticator (or was already used)')

function auditMfa(tx: Tx, actor: SessionActor, event: string, now: number, extra: { outcome?: 'failure'; reason?: string; details?: Record<string, unknown> } = {}) {
  const { details, ...rest } = extra
  audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event, target: { type: 'user', id: actor.userId }, details: { method: 'totp', ...details }, request: actor.request, now, ...rest })
}

export function startTotpEnrollment(deps: Deps, actor: SessionActor) {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  const now = deps.clock.now()
  const secret = newTotpSecret()
  write(deps.db, (tx) => {
    const factor = ensureFactor(tx, user, 'totp', now)
    if (factor.confirmedAt !== null) throw new AppError('CONFLICT', 'TOTP is already on: turn it off first to enroll a new authenticator')
    tx.update(mfaFactors)
      .set({ pendingSecretEncrypted: sealSecret(deps.masterKey, secret, user.id), updatedAt: now })
      .where(and(eq(mfaFactors.userId, user.id), eq(mfaFactors.method, 'totp')))
      .run()
  })
  return { secret, otpauth_uri: otpauthUri(secret, user.email) }
}

export async function confirmTotpEnrollment(deps: Deps, actor: SessionActor, input: { code: string } & StepUpInput) {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  const stepUp = await prepareStepUp(deps, actor, user, input)
  const now = deps.clock.now()
  // Errors are returned, not thrown: a wrong code must commit its record (and the step-up's count).
  const outcome = write(deps.db, (tx) => {
    const factor = findFactor(tx, actor.userId, 'totp')
    if (!factor?.pendingSecretEncrypted) throw new AppError('CONFLICT', 'No TOTP enrollment is in progress: start one with POST /api/v1/auth/mfa/totp')
    const secret = unsealSecret(deps.masterKey, factor.pendingSecretEncrypted, actor.userId)
    const step = acceptTotp(secret, input.code, now, null)
    if (step === undefined) {
      auditMfa(tx, actor, 'mfa.enroll', now, { outcome: 'failure', reason: 'wrong_code' })
      return { ok: false as const, error: wrongCode() }
    }
    const verdict = checkStepUp(tx, deps, user, stepUp, now)
    if (!verdict.ok) {
      auditMfa(tx, actor, 'mfa.enroll', now, { outcome: 'failure', reason: verdict.reason })
      return { ok: false as const, error: verdict.error }
    }
    tx.update(mfaFactors)
      .set({ secretEncrypted: factor.pendingSecretEncrypted, pendingSecretEncrypted: null, confirmedAt: now, lastStep: step, updatedAt: now })
      .where(and(eq(mfaFactors.userId, actor.userId), eq(mfaFactors.method, 'totp')))
      .run()
    if (verdict.method) auditMfa(tx, actor, 'mfa.factor_changed', now, { details: { step_up: verdict.method } })
    else auditMfa(tx, actor, 'mfa.enroll', now)
    return { ok: true as const, codes: replaceRecoveryCodes(tx, actor.userId, now) }
  })
  if (!outcome.ok) throw outcome.error
  return { method: 'totp' as const, enabled: true as const, recovery_codes: outcome.codes }
}

export async function removeTotp(deps: Deps, actor: SessionActor, input: { password: string; code: string }): Promise<void> {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  chargePasswordAttempt(deps, actor.request.ip, user.email)
  const passwordOk = await verifyPassword(input.password, user.passwordHash)
  const now = deps.clock.now()
  const outcome = write(deps.db, (tx) => {
    const factor = findFactor(tx, user.id, 'totp')
    if (!factor?.secretEncrypted || factor.confirmedAt === null) throw new AppError('CONFLICT', 'TOTP is not on')
    if (!passwordOk) {
      auditMfa(tx, actor, 'mfa.remove', now, { outcome: 'failure', reason: 'wrong_password' })
      return 'wrong_password' as const
    }
    const step = acceptTotp(unsealSecret(deps.masterKey, factor.secretEncrypted, user.id), input.code, now, factor.lastStep)
    if (step === undefined) {
      auditMfa(tx, actor, 'mfa.remove', now, { outcome: 'failure', reason: 'wrong_code' })
      return 'wrong_code' as const
    }
    tx.delete(mfaFactors).where(and(eq(mfaFactors.userId, user.id), eq(mfaFactors.method, 'totp'))).run()
    if (confirmedMethods(tx, user.id).length === 0) deleteRecoveryCodes(tx, user.id)
    auditMfa(tx, actor, 'mfa.remove', now)
    return 'removed' as const
  })
  if (outcome === 'wrong_password') throw validationError([{ field: 'password', message: 'is not your password' }])
  if (outcome === 'wrong_code') throw wrongCode()
}
