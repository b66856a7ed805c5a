// The caller's MFA status: which methods are on or waiting for confirmation, and recovery codes left.
import type { AppDeps, SessionActor } from '../../context.ts'
import { findFactor } from './factors.ts'
import { remainingRecoveryCodes } from './recovery-codes.ts'
import { maskPhone } from './sms-codes.ts'

export function mfaStatus(deps: Pick<AppDeps, 'db'>, actor: SessionActor) {
  const totp = findFactor(deps.db, actor.userId, 'totp')
  const sms = findFactor(deps.db, actor.userId, 'sms')
  return {
    totp: { enabled: totp?.confirmedAt != null, pending: totp?.pendingSecretEncrypted != null },
    sms: { enabled: sms?.confirmedAt != null, phone: sms?.phone ? maskPhone(sms.phone) : null, pending: sms?.pendingPhone != null },
    recovery_codes_remaining: remainingRecoveryCodes(deps.db, actor.userId),
  }
}
