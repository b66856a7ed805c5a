// Request and response schemas of the MFA endpoints.
import { t } from 'elysia'
import { oneOf } from '../../http/schema.ts'
import { TokenResponse } from '../auth/model.ts'
import { E164 } from './sms-codes.ts'
import { MFA_METHODS } from './table.ts'
import { VERIFY_METHODS } from './verify.ts'

const MfaToken = t.String({ minLength: 1, maxLength: 128, description: 'The mfa_token of the login response' })
const Code = t.String({ minLength: 1, maxLength: 64, description: '6 digits (TOTP, SMS) or a recovery code' })

export const MfaChallengeBody = t.Object({
  mfa_required: t.Literal(true),
  mfa_token: t.String({ description: 'mfa_…; single use, valid 5 minutes, at most 5 wrong codes' }),
  mfa_methods: t.Array(oneOf(MFA_METHODS), { description: 'The methods this user has; recovery codes are accepted too' }),
})

export const LoginResult = t.Union([TokenResponse, MfaChallengeBody], { description: 'Tokens, or an MFA challenge when the user has MFA on' })

export const VerifyBody = t.Object({ mfa_token: MfaToken, code: Code, method: oneOf(VERIFY_METHODS, { description: 'One of the offered mfa_methods, or recovery' }) })
export const SendLoginSmsBody = t.Object({ mfa_token: MfaToken })
export const SmsSentBody = t.Object({ phone: t.String({ description: 'The number, masked' }), expires_in: t.Integer({ description: 'Seconds the code stays valid' }) })

export const CodeBody = t.Object({ code: Code })
export const PhoneBody = t.Object({ phone: t.String({ pattern: E164, maxLength: 16, description: 'E.164, e.g. +4915112345678', error: 'must be a phone number in E.164 form, e.g. +4915112345678' }) })
export const RemoveTotpBody = t.Object({ password: t.String({ maxLength: 1024 }), code: Code })
export const RemoveSmsBody = t.Object({ password: t.String({ maxLength: 1024 }) })

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
