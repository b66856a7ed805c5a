// MFA state: each user's factors (TOTP, SMS) with their pending enrollment, recovery codes, login
// challenges (the `mfa_token` of a login waiting for its second factor), and sent SMS for throttling.
import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core'

export const MFA_METHODS = ['totp', 'sms'] as const
export type MfaMethod = (typeof MFA_METHODS)[number]

export const mfaFactors = sqliteTable(
  'mfa_factors',
  {
    userId: text('user_id').notNull(),
    method: text('method', { enum: MFA_METHODS }).notNull(),
    organizationId: text('organization_id').notNull(),
    /** TOTP: the shared secret, sealed with the master key. */
    secretEncrypted: text('secret_encrypted'),
    /** SMS: the confirmed phone number (E.164). */
    phone: text('phone'),
    /** Null until confirmed: an unconfirmed factor is not offered at login. */
    confirmedAt: integer('confirmed_at'),
    /** TOTP: the last accepted time step; a code of that step or earlier is a replay. */
    lastStep: integer('last_step'),
    /** Enrollment in progress (a new secret or phone number that is not yet confirmed). */
    pendingSecretEncrypted: text('pending_secret_encrypted'),
    pendingPhone: text('pending_phone'),
    pendingCodeHash: text('pending_code_hash'),
    pendingExpiresAt: integer('pending_expires_at'),
    pendingAttempts: integer('pending_attempts').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.method] })],
)

export const recoveryCodes = sqliteTable(
  'mfa_recovery_codes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    /** SHA-256 (hex) of the normalized code. */
    codeHash: text('code_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [index('mfa_recovery_codes_user').on(t.userId)],
)

export const mfaChallenges = sqliteTable(
  'mfa_challenges',
  {
    id: text('id').primaryKey(),
    /** SHA-256 (hex) of the `mfa_token`. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id').notNull(),
    organizationId: text('organization_id').notNull(),
    /** JSON array of the methods offered. */
    methods: text('methods', { mode: 'json' }).$type<MfaMethod[]>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** Set when used up: by a success, or by the last allowed wrong code. */
    consumedAt: integer('consumed_at'),
    smsCodeHash: text('sms_code_hash'),
    smsExpiresAt: integer('sms_expires_at'),
  },
  (t) => [index('mfa_challenges_expires').on(t.expiresAt)],
)

/** Every SMS sent, for per-user throttling (and an operator's curiosity); phone numbers are not kept. */
export const smsMessages = sqliteTable(
  'sms_messages',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    purpose: text('purpose', { enum: ['enroll', 'login'] }).notNull(),
    sentAt: integer('sent_at').notNull(),
  },
  (t) => [index('sms_messages_user_sent').on(t.userId, t.sentAt)],
)

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
