// Step-up for changing MFA: once a user has a factor on, adding or changing one (confirming a TOTP
// authenticator, or an SMS number) needs the account password AND a current code of a factor already
// on: a TOTP code, a code texted to the current number (sendStepUpSms), or a recovery code. A stolen
// access token alone can then neither move the SMS number nor replace the recovery codes. Every attempt
// counts against the login limit, and every wrong code against the user's MFA failure window
// (login-challenge.ts), like a wrong code at sign-in.
import type { Ctx, SessionActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError, rateLimited, validationError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { getUserInOrg, type UserRow } from '../users/index.ts'
import { deliverSms } from './deliver.ts'
import { lockedForSeconds } from './login-challenge.ts'
import { passwordMatches } from './password-proof.ts'
import { useRecoveryCode } from './recovery-codes.ts'
import { hashSmsCode, maskPhone, newSmsCode, recordSmsSend, SMS_CODE_TTL_MS } from './sms-codes.ts'
import { findFactor, insertChallenge, liveStepUpCodes, updateChallenge } from './store.ts'
import type { MfaMethod } from './table.ts'
import { confirmedMethods, useTotpCode } from './user-factors.ts'

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

export type StepUpVerdict =
  | { ok: true; method?: StepUpMethod }
  | { ok: false; reason: 'wrong_password' | 'wrong_current_code' | 'too_many_failures'; error: AppError }

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
export async function prepareStepUp(ctx: Ctx<SessionActor>, user: UserRow, input: StepUpInput): Promise<PreparedStepUp> {
  if ((await confirmedMethods(ctx.db, user.id)).length === 0) return { required: false }
  const missing = STEP_UP_FIELDS.filter((field) => input[field] === undefined)
  if (missing.length > 0) return { required: true, missing }
  return {
    required: true,
    missing: [],
    passwordOk: await passwordMatches(ctx, user, input.password!),
    method: input.current_method!,
    code: input.current_code!,
  }
}

/** Inside the confirmation's transaction: checks the step-up, spending the code it uses. */
export async function checkStepUp(
  tx: Tx,
  ctx: Ctx,
  user: { id: string; organization_id: string },
  prepared: PreparedStepUp,
  now: number,
): Promise<StepUpVerdict> {
  // Its callers (the confirmations) hold lockUserMfa: the code is spent once, its failure counted once.
  const methods = await confirmedMethods(tx, user.id)
  if (methods.length === 0) return { ok: true }
  // (Not required before: a factor was turned on since, by another request.)
  if (!prepared.required) throw requiredError(methods, STEP_UP_FIELDS)
  if (!('passwordOk' in prepared)) throw requiredError(methods, prepared.missing)
  if (!prepared.passwordOk)
    return { ok: false, reason: 'wrong_password', error: validationError([{ field: 'password', message: 'is not your password' }]) }
  if (prepared.method !== 'recovery' && !methods.includes(prepared.method)) {
    throw validationError([{ field: 'current_method', message: `must be one of your methods: ${[...methods, 'recovery'].join(', ')}` }])
  }
  const locked = await lockedForSeconds(tx, user.id, now)
  if (locked !== undefined)
    return {
      ok: false,
      reason: 'too_many_failures',
      error: rateLimited(locked, 'Too many wrong codes for this account: wait before trying again'),
    }
  if (!(await currentCodeMatches(tx, ctx, user.id, prepared.method, prepared.code, now))) {
    await recordStepUpFailure(tx, user, methods, now)
    return {
      ok: false,
      reason: 'wrong_current_code',
      error: new AppError('INVALID_MFA_CODE', `current_code is not a valid ${prepared.method} code of yours (or was already used)`),
    }
  }
  return { ok: true, method: prepared.method }
}

async function currentCodeMatches(tx: Tx, ctx: Ctx, userId: string, method: StepUpMethod, code: string, now: number): Promise<boolean> {
  if (method === 'recovery') return useRecoveryCode(tx, userId, code, now)
  if (method === 'totp') return useTotpCode(tx, ctx.masterKey, userId, code, now)
  const live = await liveStepUpCodes(tx, userId, STEP_UP_MARK, now)
  const match = live.find((row) => row.sms_code_hash === hashSmsCode(bindStepUp(row.id), code.trim()))
  if (!match) return false
  await updateChallenge(tx, match.id, { consumed_at: now })
  return true
}

/** A step-up row: spent already for a failure (one wrong attempt in the user's window), or live with an SMS code. */
async function insertStepUpRow(
  tx: Tx,
  user: { id: string; organization_id: string },
  methods: MfaMethod[],
  now: number,
  sms?: { id: string; codeHash: string; expiresAt: number },
) {
  const id = sms?.id ?? prefixedId('mfc')
  await insertChallenge(tx, {
    id,
    token_hash: `${STEP_UP_MARK}${id}`,
    user_id: user.id,
    organization_id: user.organization_id,
    methods: JSON.stringify(methods),
    attempts: sms ? 0 : 1,
    created_at: now,
    expires_at: sms ? sms.expiresAt : now,
    consumed_at: sms ? null : now,
    sms_code_hash: sms ? sms.codeHash : null,
    sms_expires_at: sms ? sms.expiresAt : null,
  })
}

/** A wrong step-up code counts in the user's MFA failure window, as a spent challenge with one wrong attempt. */
function recordStepUpFailure(tx: Tx, user: { id: string; organization_id: string }, methods: MfaMethod[], now: number): Promise<void> {
  return insertStepUpRow(tx, user, methods, now)
}

export function stepUpSmsText(code: string): string {
  return `${code} is your Switchboard code to confirm a change of your sign-in methods. It expires in 5 minutes. If you did not ask for it, change your password.`
}

/** Texts a step-up code to the user's current SMS number: usable once, within 5 minutes (sending is throttled per user). */
export async function sendStepUpSms(ctx: Ctx<SessionActor>) {
  const { actor } = ctx
  const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
  const now = ctx.clock.now()
  const code = newSmsCode()
  const id = prefixedId('mfc')
  const phone = await ctx.db.write('mfa.step_up.sms', async (tx) => {
    const factor = await findFactor(tx, user.id, 'sms')
    if (!factor?.phone || factor.confirmed_at === null)
      throw new AppError('CONFLICT', 'SMS is not on: prove a change with a TOTP or a recovery code instead')
    await recordSmsSend(tx, user.id, 'enroll', now)
    await insertStepUpRow(tx, user, ['sms'], now, { id, codeHash: hashSmsCode(bindStepUp(id), code), expiresAt: now + SMS_CODE_TTL_MS })
    return factor.phone
  })
  try {
    await deliverSms(ctx, phone, stepUpSmsText(code), { user_id: user.id, request_id: actor.request.requestId })
  } catch (error) {
    // Never sent: it must not count as a live code.
    await ctx.db.write('mfa.step_up.sms_unsent', (tx) => updateChallenge(tx, id, { consumed_at: now }))
    throw error
  }
  return { phone: maskPhone(phone), expires_in: SMS_CODE_TTL_MS / 1000 }
}
