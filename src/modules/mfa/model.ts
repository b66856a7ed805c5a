// Request and response schemas of the MFA endpoints.
import { t } from 'elysia'
import { oneOf } from '../../http/schema.ts'
import { RefreshCookieFlag, TokenResponse } from '../auth/index.ts'
import { E164 } from './sms-codes.ts'
import { STEP_UP_METHODS } from './step-up.ts'
import { MFA_METHODS } from './table.ts'
import { VERIFY_METHODS } from './verify.ts'

const MfaToken = t.String({ minLength: 1, maxLength: 128, description: 'The mfa_token of the login response' })
const Code = t.String({ minLength: 1, maxLength: 64, description: '6 digits (TOTP, SMS) or a recovery code' })

export const MfaChallengeBody = t.Object(
  {
    mfa_required: t.Literal(true),
    mfa_token: t.String({ description: 'mfa_…; single use, valid MFA_TOKEN_TTL seconds (default 5 minutes), at most 5 wrong codes' }),
    mfa_methods: t.Array(oneOf(MFA_METHODS), { description: 'The methods this user has; recovery codes are accepted too' }),
  },
  { title: 'MfaChallenge', examples: [{ mfa_required: true, mfa_token: 'mfa_9fK2xQ7rT4vW1zY3bN6cM8dL0', mfa_methods: ['totp'] }] },
)

export const LoginResult = t.Union([TokenResponse, MfaChallengeBody], {
  description: 'Tokens, or an MFA challenge when the user has MFA on',
})

export const VerifyBody = t.Object(
  {
    mfa_token: MfaToken,
    code: Code,
    method: oneOf(VERIFY_METHODS, { description: 'One of the offered mfa_methods, or recovery' }),
    refresh_cookie: RefreshCookieFlag,
  },
  { examples: [{ mfa_token: 'mfa_9fK2xQ7rT4vW1zY3bN6cM8dL0', code: '492039', method: 'totp' }] },
)
export const SendLoginSmsBody = t.Object({ mfa_token: MfaToken }, { examples: [{ mfa_token: 'mfa_9fK2xQ7rT4vW1zY3bN6cM8dL0' }] })
export const SmsSentBody = t.Object({
  phone: t.String({ description: 'The number, masked' }),
  expires_in: t.Integer({ description: 'Seconds the code stays valid' }),
})

/** A confirmation: the new factor's code, and, once a factor is on, the step-up (password and a current code). */
export const ConfirmBody = t.Object(
  {
    code: t.String({
      minLength: 1,
      maxLength: 64,
      description: 'The code of the factor being turned on (from the new authenticator, or texted to the new number)',
    }),
    password: t.Optional(t.String({ maxLength: 1024, description: 'Your password: required when MFA is already on' })),
    current_method: t.Optional(
      oneOf(STEP_UP_METHODS, {
        description: 'Required when MFA is already on: which factor current_code belongs to (one of yours, or recovery)',
      }),
    ),
    current_code: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 64,
        description: 'Required when MFA is already on: a TOTP code, a code from POST /api/v1/auth/mfa/step-up/sms, or a recovery code',
      }),
    ),
  },
  {
    examples: [
      { code: '492039' },
      { code: '492039', password: 'correct horse battery staple', current_method: 'totp', current_code: '118204' },
    ],
  },
)
export const PhoneBody = t.Object(
  {
    phone: t.String({
      pattern: E164,
      maxLength: 16,
      description: 'E.164, e.g. +4915112345678',
      error: 'must be a phone number in E.164 form, e.g. +4915112345678',
    }),
  },
  { examples: [{ phone: '+4915112345678' }] },
)
export const RemoveTotpBody = t.Object(
  {
    password: t.String({ maxLength: 1024 }),
    code: t.String({ minLength: 1, maxLength: 64, description: 'A current code of the authenticator app (6 digits)' }),
  },
  { examples: [{ password: 'correct horse battery staple', code: '492039' }] },
)
export const RemoveSmsBody = t.Object(
  { password: t.String({ maxLength: 1024 }) },
  { examples: [{ password: 'correct horse battery staple' }] },
)

export const TotpEnrollmentBody = t.Object({
  secret: t.String({ description: 'Base32 secret, for manual entry' }),
  otpauth_uri: t.String({ description: 'otpauth://totp/… for a QR code' }),
})

export const EnrolledBody = t.Object({
  method: oneOf(MFA_METHODS),
  enabled: t.Literal(true),
  recovery_codes: t.Array(t.String(), { description: 'Shown once: 10 single-use codes; any earlier set stops working' }),
})

export const MfaStatusBody = t.Object({
  totp: t.Object({ enabled: t.Boolean(), pending: t.Boolean() }),
  sms: t.Object({ enabled: t.Boolean(), phone: t.Union([t.String(), t.Null()]), pending: t.Boolean() }),
  recovery_codes_remaining: t.Integer(),
})
