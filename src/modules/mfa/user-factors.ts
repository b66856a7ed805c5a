// A user's MFA factors: which methods are on, the row that holds an enrollment, spending a TOTP code, and
// the audit record of an enrollment step.
import type { Ctx, SessionActor } from '../../context.ts'
import type { Queries, Tx } from '../../db/database.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { confirmedFactorMethods, type FactorRow, findFactor, insertFactor, updateFactor } from './store.ts'
import { MFA_METHODS, type MfaMethod } from './table.ts'
import { acceptTotp, unsealSecret } from './totp.ts'

/** The confirmed methods of a user, in a fixed order (totp, then sms). */
export async function confirmedMethods(db: Queries, userId: string): Promise<MfaMethod[]> {
  const methods = await confirmedFactorMethods(db, userId)
  return MFA_METHODS.filter((method) => methods.includes(method))
}

/** The factor row to hold an enrollment: the existing one, or a new empty one. */
export async function ensureFactor(
  tx: Tx,
  user: { id: string; organization_id: string },
  method: MfaMethod,
  now: number,
): Promise<FactorRow> {
  const existing = await findFactor(tx, user.id, method)
  if (existing) return existing
  const row: FactorRow = {
    user_id: user.id,
    method,
    organization_id: user.organization_id,
    secret_encrypted: null,
    phone: null,
    confirmed_at: null,
    last_step: null,
    pending_secret_encrypted: null,
    pending_phone: null,
    pending_code_hash: null,
    pending_expires_at: null,
    pending_attempts: 0,
    created_at: now,
    updated_at: now,
  }
  await insertFactor(tx, row)
  return row
}

/**
 * Whether `code` is a current code of the user's confirmed authenticator; a match is spent (its time
 * step recorded), so the same code is refused the next time. Used at sign-in and for step-up.
 */
export async function useTotpCode(tx: Tx, masterKey: Uint8Array, userId: string, code: string, now: number): Promise<boolean> {
  const factor = await findFactor(tx, userId, 'totp')
  if (!factor?.secret_encrypted || factor.confirmed_at === null) return false
  const step = acceptTotp(
    unsealSecret(masterKey, factor.secret_encrypted, userId),
    code.trim(),
    now,
    factor.last_step === null ? null : Number(factor.last_step),
  )
  if (step === undefined) return false
  await updateFactor(tx, userId, 'totp', { last_step: step })
  return true
}

type AuditExtra = { outcome?: 'failure'; reason?: string; details?: Record<string, unknown> }

/** The audit record of an enrollment step of the signed-in user's own `method` factor. */
export function auditFactor(
  tx: Tx,
  ctx: Ctx<SessionActor>,
  method: MfaMethod,
  event: string,
  now: number,
  extra: AuditExtra = {},
): Promise<void> {
  const { actor } = ctx
  const { details, ...rest } = extra
  return appendAudit(tx, {
    organizationId: actor.organizationId,
    actor: auditActorOf(actor),
    event,
    target: { type: 'user', id: actor.userId },
    details: { method, ...details },
    request: actor.request,
    now,
    ...rest,
  })
}
