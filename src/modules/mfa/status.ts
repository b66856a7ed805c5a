// The caller's MFA status: which methods are on or waiting for confirmation, and recovery codes left.
import type { AppDeps, SessionActor } from '../../context.ts'
import { findFactor } from './factors.ts'
import { remainingRecoveryCodes } from './recovery-codes.ts'
import { maskPhone } from './sms-codes.ts'

export function mfaStatus(deps: Pick<AppDeps, 'db' | 'clock'>, actor: SessionActor) {
  const totp = findFactor(deps.db, actor.userId, 'totp')
  const sms = findFactor(deps.db, actor.userId, 'sms')
  // An SMS enrollment whose code expired is no longer waiting for anything.
  const smsPending = sms?.pendingPhone != null && (sms.pendingExpiresAt ?? 0) > deps.clock.now()
  return {
    totp: { enabled: totp?.confirmedAt != null, pending: totp?.pendingSecretEncrypted != null },
    sms: { enabled: sms?.confirmedAt != null, phone: sms?.phone ? maskPhone(sms.phone) : null, pending: smsPending },
    recovery_codes_remaining: remainingRecoveryCodes(deps.db, actor.userId),
  }
}
