// The caller's MFA status: which methods are on or waiting for confirmation, and recovery codes left.
import type { Ctx, SessionActor } from '../../context.ts'
import { maskPhone } from './sms-codes.ts'
import { countUnusedRecoveryCodes, findFactor } from './store.ts'

export async function mfaStatus(ctx: Ctx<SessionActor>) {
  const { userId } = ctx.actor
  const now = ctx.clock.now()
  const [totp, sms, remaining] = await Promise.all([
    findFactor(ctx.db, userId, 'totp'),
    findFactor(ctx.db, userId, 'sms'),
    countUnusedRecoveryCodes(ctx.db, userId),
  ])
  // An SMS enrollment whose code expired is no longer waiting for anything.
  const smsPending = sms?.pending_phone != null && (sms.pending_expires_at ?? 0) > now
  return {
    totp: { enabled: totp?.confirmed_at != null, pending: totp?.pending_secret_encrypted != null },
    sms: { enabled: sms?.confirmed_at != null, phone: sms?.phone ? maskPhone(sms.phone) : null, pending: smsPending },
    recovery_codes_remaining: remaining,
  }
}
