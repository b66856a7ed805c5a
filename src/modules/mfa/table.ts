// MFA state: each user's factors (TOTP, SMS) with their pending enrollment, recovery codes, login
// challenges (the `mfa_token` of a login waiting for its second factor), and sent SMS for throttling.

export const MFA_METHODS = ['totp', 'sms'] as const
export type MfaMethod = (typeof MFA_METHODS)[number]

/** A row of mfa_factors (Kysely): one per user and method. */
export interface MfaFactorsTable {
  user_id: string
  method: MfaMethod
  organization_id: string
  /** TOTP: the shared secret, sealed with the master key. */
  secret_encrypted: string | null
  /** SMS: the confirmed phone number (E.164). */
  phone: string | null
  /** Null until confirmed: an unconfirmed factor is not offered at login. */
  confirmed_at: number | null
  /** TOTP: the last accepted time step; a code of that step or earlier is a replay. */
  last_step: number | null
  /** Enrollment in progress (a new secret or phone number that is not yet confirmed). */
  pending_secret_encrypted: string | null
  pending_phone: string | null
  pending_code_hash: string | null
  pending_expires_at: number | null
  pending_attempts: number
  created_at: number
  updated_at: number
}

export interface MfaRecoveryCodesTable {
  id: string
  user_id: string
  /** SHA-256 (hex) of the normalized code. */
  code_hash: string
  created_at: number
  used_at: number | null
}

export interface MfaChallengesTable {
  id: string
  /** SHA-256 (hex) of the `mfa_token`; `stepup:<id>` for a step-up code, which no token can match. */
  token_hash: string
  user_id: string
  organization_id: string
  /** JSON array of the methods offered. */
  methods: string
  attempts: number
  created_at: number
  expires_at: number
  /** Set when used up: by a success, or by the last allowed wrong code. */
  consumed_at: number | null
  sms_code_hash: string | null
  sms_expires_at: number | null
}

export interface SmsMessagesTable {
  id: string
  user_id: string
  purpose: 'enroll' | 'login'
  sent_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    mfa_factors: MfaFactorsTable
    mfa_recovery_codes: MfaRecoveryCodesTable
    mfa_challenges: MfaChallengesTable
    sms_messages: SmsMessagesTable
  }
}
