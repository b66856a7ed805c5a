// Shared by the MFA tests: our own RFC 6238 generator (test/helpers/totp.ts, not otpauth), and helpers to log in, enroll and read codes.
import { expect } from 'bun:test'
import { json, type TestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { stepOf, totpAt, totpForStep } from '../../helpers/totp.ts'

export { base32Decode, hotp, stepOf, totpAt, totpForStep } from '../../helpers/totp.ts'

/** A well-formed 6-digit code that is none of the codes of the steps a ±1 window around `ms` accepts. */
export function wrongTotp(secretBase32: string, ms: number): string {
  const step = stepOf(ms)
  const valid = new Set([step - 1, step, step + 1].map((s) => totpForStep(secretBase32, s)))
  for (let n = 123456; ; n = (n + 111111) % 1_000_000) {
    const code = String(n).padStart(6, '0')
    if (!valid.has(code)) return code
  }
}

// ---------------------------------------------------------------------------------------------------
// HTTP helpers.

export interface ErrorBody {
  code: string
  message: string
  request_id: string
  errors?: { field: string; message: string }[]
}

export interface TokenBody {
  access_token: string
  refresh_token: string
  token_type: string
  expires_in: number
  user: { id: string; email: string }
  mfa_enrollment_required?: true
}

export interface ChallengeBody {
  mfa_required: true
  mfa_token: string
  mfa_methods: string[]
}

export interface EnrolledBody {
  method: 'totp' | 'sms'
  enabled: true
  recovery_codes: string[]
}

export interface StatusBody {
  totp: { enabled: boolean; pending: boolean }
  sms: { enabled: boolean; phone: string | null; pending: boolean }
  recovery_codes_remaining: number
}

type Headers = Record<string, string>

/** Sends a JSON request through the whole app. */
export function send(app: TestApp, method: string, path: string, body?: unknown, headers: Headers = {}): Promise<Response> {
  return app.request(path, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Asserts an error response: its status, its code, and (for 400s) the fields it names. */
export async function expectError(response: Response, status: number, code: string, fields?: string[]): Promise<ErrorBody> {
  const body = await json<ErrorBody>(response)
  expect({ status: response.status, code: body.code }).toEqual({ status, code })
  if (fields) expect((body.errors ?? []).map((e) => e.field)).toEqual(fields)
  return body
}

export const login = (app: TestApp, email: string, password = PASSWORD) => send(app, 'POST', '/api/v1/auth/login', { email, password })

/** Logs in a user with MFA on and returns the challenge (asserting it is one). */
export async function challenge(app: TestApp, email: string): Promise<ChallengeBody> {
  const response = await login(app, email)
  expect(response.status).toBe(200)
  const body = await json<ChallengeBody>(response)
  expect(body.mfa_required).toBe(true)
  return body
}

export const verify = (app: TestApp, mfa_token: string, code: string, method: string) =>
  send(app, 'POST', '/api/v1/auth/mfa/verify', { mfa_token, code, method })

export const status = async (app: TestApp, auth: Headers) => {
  const response = await send(app, 'GET', '/api/v1/auth/mfa', undefined, auth)
  expect(response.status).toBe(200)
  return json<StatusBody>(response)
}

/** The payload of a JWT, decoded without checking anything. */
export function jwtPayload(token: string): Record<string, unknown> {
  const [, payload] = token.split('.')
  return JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>
}

/** The step-up fields of a confirmation once MFA is on: the password and a current code. */
export interface StepUp {
  password: string
  current_method: 'totp' | 'sms' | 'recovery'
  current_code: string
}

/** A step-up with the current TOTP code (at the fake clock's time) of `secret`. */
export const totpStepUp = (app: TestApp, secret: string): StepUp => ({
  password: PASSWORD,
  current_method: 'totp',
  current_code: totpAt(secret, app.clock.now()),
})
export const recoveryStepUp = (code: string): StepUp => ({ password: PASSWORD, current_method: 'recovery', current_code: code })

/** Enrolls TOTP through the API with a code computed by our generator at the fake clock's time. */
export async function enrollTotp(
  app: TestApp,
  auth: Headers,
  stepUp?: StepUp,
): Promise<{ secret: string; otpauthUri: string; recoveryCodes: string[] }> {
  const start = await send(app, 'POST', '/api/v1/auth/mfa/totp', undefined, auth)
  expect(start.status).toBe(200)
  const { secret, otpauth_uri } = await json<{ secret: string; otpauth_uri: string }>(start)
  const confirm = await send(app, 'POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, app.clock.now()), ...stepUp }, auth)
  expect(confirm.status).toBe(200)
  const body = await json<EnrolledBody>(confirm)
  return { secret, otpauthUri: otpauth_uri, recoveryCodes: body.recovery_codes }
}

export const SMS_LOG_MSG = 'sms (SMS_PROVIDER=log)'

/** The text messages the `log` provider wrote so far (to, text). */
export function loggedSms(app: TestApp): { to: string; text: string }[] {
  return app.logs
    .records()
    .filter((r) => r.msg === SMS_LOG_MSG)
    .map((r) => ({ to: r.to as string, text: r.text as string }))
}

/** The 6-digit code of a message text. */
export function codeOf(text: string): string {
  const match = /\b(\d{6})\b/.exec(text)
  if (!match) throw new Error(`no 6-digit code in ${JSON.stringify(text)}`)
  return match[1]!
}

/** The code of the last text message sent to `phone` through the `log` provider. */
export function lastSmsCode(app: TestApp, phone: string): string {
  const message = loggedSms(app)
    .filter((m) => m.to === phone)
    .at(-1)
  if (!message) throw new Error(`no text message to ${phone} in the log`)
  return codeOf(message.text)
}

/** Enrolls SMS through the API with the `log` provider, reading the code from the log. */
export async function enrollSmsViaLog(app: TestApp, auth: Headers, phone: string, stepUp?: StepUp): Promise<string[]> {
  const start = await send(app, 'POST', '/api/v1/auth/mfa/sms', { phone }, auth)
  expect(start.status).toBe(202)
  const confirm = await send(app, 'POST', '/api/v1/auth/mfa/sms/confirm', { code: lastSmsCode(app, phone), ...stepUp }, auth)
  expect(confirm.status).toBe(200)
  return (await json<EnrolledBody>(confirm)).recovery_codes
}

let orgs = 0

/** A new organization (one user per role, tokens minted at the fake clock's now): users nobody else touched. */
export function freshOrg(app: TestApp, prefix = 'org') {
  orgs += 1
  return seedOrganization(app, `${prefix}${orgs}`)
}
