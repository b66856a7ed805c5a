// Step-up for changing MFA: once a user has a factor on, adding or changing one (confirming a TOTP
// authenticator, or an SMS number) needs the account password AND a current code of a factor already
// on: a TOTP code, a code texted to the current number (sendStepUpSms), or a recovery code. A stolen
// access token alone can then neither move the SMS number nor replace the recovery codes. Every attempt
// counts against the login limit, and every wrong code against the user's MFA failure window
// (challenge.ts), like a wrong code at sign-in.
import { and, desc, eq, gt, isNull, like } from 'drizzle-orm'
import type { AppDeps, SessionActor } from '../../context.ts'
import { write, type Db, type Tx } from '../../db/tx.ts'
import { AppError, rateLimited, validationError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { chargePasswordAttempt } from '../auth/attempt-limit.ts'
import { verifyPassword } from '../auth/password.ts'
import type { UserRow } from '../users/get-user.ts'
import { getUserInOrg } from '../users/get-user.ts'
import { lockedForSeconds } from './challenge.ts'
import { deliverSms } from './deliver.ts'
import { confirmedMethods, findFactor, useTotpCode } from './factors.ts'
import { useRecoveryCode } from './recovery-codes.ts'
import { hashSmsCode, maskPhone, newSmsCode, recordSmsSend, SMS_CODE_TTL_MS } from './sms-codes.ts'
import { mfaChallenges, type MfaMethod } from './table.ts'

export const STEP_UP_METHODS = ['totp', 'sms', 'recovery'] as const
export type StepUpMethod = (typeof STEP_UP_METHODS)[number]

/** The step-up fields of a confirmation request: required once the user has a factor on. */
export interface StepUpInput {
  password?: string
  current_method?: StepUpMethod
  current_code?: string
}

/** What was decided outside the transaction: whether step-up applies, what is missing, the password's verdict. */
export type PreparedStepUp =
  | { required: false }
  | { required: true; missing: readonly string[] }
  | { required: true; missing: readonly []; passwordOk: boolean; method: StepUpMethod; code: string }

export type StepUpVerdict = { ok: true; method?: StepUpMethod } | { ok: false; reason: 'wrong_password' | 'wrong_current_code' | 'too_many_failures'; error: AppError }

// Step-up SMS codes live in mfa_challenges rows that no mfa_token points at: their token_hash is
// `stepup:<id>`, which no SHA-256 hex digest can equal, so they can never complete a sign-in.
const STEP_UP_MARK = 'stepup:'
const bindStepUp = (challengeId: string) => `stepup:${challengeId}`

function requiredError(methods: MfaMethod[], fields: readonly string[]): AppError {
  const message = `is required: MFA is on (${methods.join(', ')}), so a change needs your password and a current code (current_method: ${[...methods, 'recovery'].join(', ')})`
  return validationError(fields.map((field) => ({ field, message })))
}

const STEP_UP_FIELDS = ['password', 'current_method', 'current_code'] as const

/**
 * Before the transaction: when the user has a factor on and every step-up field is there, the attempt
 * is counted and the password checked (argon2 never runs inside a write transaction). Missing fields
 * are reported by checkStepUp, after the confirmation's own checks (nothing pending is still a 409).
 */
export async function prepareStepUp(deps: Pick<AppDeps, 'db' | 'rateLimits' | 'clock'>, actor: SessionActor, user: UserRow, input: StepUpInput): Promise<PreparedStepUp> {
  if (confirmedMethods(deps.db, user.id).length === 0) return { required: false }
  const missing = STEP_UP_FIELDS.filter((field) => input[field] === undefined)
  if (missing.length > 0) return { required: true, missing }
  chargePasswordAttempt(deps, actor.request.ip, user.email)
  return { required: true, missing: [], passwordOk: await verifyPassword(input.password!, user.passwordHash), method: input.current_method!, code: input.current_code! }
}

/** Inside the confirmation's transaction: checks the step-up, spending the code it uses. */
export function checkStepUp(tx: Tx, deps: Pick<AppDeps, 'masterKey'>, user: { id: string; organizationId: string }, prepared: PreparedStepUp, now: number): StepUpVerdict {
  const methods = confirmedMethods(tx, user.id)
  if (methods.length === 0) return { ok: true }
  // (Not required before: a factor was turned on since, by another request.)
  if (!prepared.required) throw requiredError(methods, STEP_UP_FIELDS)
  if (!('passwordOk' in prepared)) throw requiredError(methods, prepared.missing)
  if (!prepared.passwordOk) return { ok: false, reason: 'wrong_password', error: validationError([{ field: 'password', message: 'is not your password' }]) }
  if (prepared.method !== 'recovery' && !methods.includes(prepared.method)) {
    throw validationError([{ field: 'current_method', message: `must be one of your methods: ${[...methods, 'recovery'].join(', ')}` }])
  }
  const locked = lockedForSeconds(tx, user.id, now)
  if (locked !== undefined) return { ok: false, reason: 'too_many_failures', error: rateLimited(locked, 'Too many wrong codes for this account: wait before trying again') }
  if (!currentCodeMatches(tx, deps, user.id, prepared.method, prepared.code, now)) {
    recordStepUpFailure(tx, user, methods, now)
    return { ok: false, reason: 'wrong_current_code', error: new AppError('INVALID_MFA_CODE', `current_code is not a valid ${prepared.method} code of yours (or was already used)`) }
  }
  return { ok: true, method: prepared.method }
}

function currentCodeMatches(tx: Tx, deps: Pick<AppDeps, 'masterKey'>, userId: string, method: StepUpMethod, code: string, now: number): boolean {
  if (method === 'recovery') return useRecoveryCode(tx, userId, code, now)
  if (method === 'totp') return useTotpCode(tx, deps.masterKey, userId, code, now)
  const live = liveStepUpCodes(tx, userId, now)
  const match = live.find((row) => row.smsCodeHash === hashSmsCode(bindStepUp(row.id), code.trim()))
  if (!match) return false
  tx.update(mfaChallenges).set({ consumedAt: now }).where(eq(mfaChallenges.id, match.id)).run()
  return true
}

function liveStepUpCodes(db: Db, userId: string, now: number) {
  return db
    .select({ id: mfaChallenges.id, smsCodeHash: mfaChallenges.smsCodeHash })
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.userId, userId), like(mfaChallenges.tokenHash, `${STEP_UP_MARK}%`), isNull(mfaChallenges.consumedAt), gt(mfaChallenges.expiresAt, now)))
    .orderBy(desc(mfaChallenges.createdAt))
    .all()
}

/** A wrong step-up code counts in the user's MFA failure window, as a spent challenge with one wrong attempt. */
function recordStepUpFailure(tx: Tx, user: { id: string; organizationId: string }, methods: MfaMethod[], now: number): void {
  const id = prefixedId('mfc')
  tx.insert(mfaChallenges).values({ id, tokenHash: `${STEP_UP_MARK}${id}`, userId: user.id, organizationId: user.organizationId, methods, attempts: 1, createdAt: now, expiresAt: now, consumedAt: now }).run()
}

export function stepUpSmsText(code: string): string {
  return `${code} is your Switchboard code to confirm a change of your sign-in methods. It expires in 5 minutes. If you did not ask for it, change your password.`
}

/** Texts a step-up code to the user's current SMS number: usable once, within 5 minutes (sending is throttled per user). */
export async function sendStepUpSms(deps: Pick<AppDeps, 'db' | 'clock' | 'sms' | 'log'>, actor: SessionActor) {
  const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
  const now = deps.clock.now()
  const code = newSmsCode()
  const id = prefixedId('mfc')
  const phone = write(deps.db, (tx) => {
    const factor = findFactor(tx, user.id, 'sms')
    if (!factor?.phone || factor.confirmedAt === null) throw new AppError('CONFLICT', 'SMS is not on: prove a change with a TOTP or a recovery code instead')
    recordSmsSend(tx, user.id, 'enroll', now)
    const expiresAt = now + SMS_CODE_TTL_MS
    tx.insert(mfaChallenges)
      .values({ id, tokenHash: `${STEP_UP_MARK}${id}`, userId: user.id, organizationId: user.organizationId, methods: ['sms'], createdAt: now, expiresAt, smsCodeHash: hashSmsCode(bindStepUp(id), code), smsExpiresAt: expiresAt })
      .run()
    return factor.phone
  })
  try {
    await deliverSms(deps, phone, stepUpSmsText(code), { user_id: user.id, request_id: actor.request.requestId })
  } catch (error) {
    // Never sent: it must not count as a live code.
    write(deps.db, (tx) => tx.update(mfaChallenges).set({ consumedAt: now }).where(eq(mfaChallenges.id, id)).run())
    throw error
  }
  return { phone: maskPhone(phone), expires_in: SMS_CODE_TTL_MS / 1000 }
}
