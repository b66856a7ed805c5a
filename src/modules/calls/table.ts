// The calls module's tables as rows (Kysely): calls, their recordings, and each organization's call
// settings. The columns are declared by src/db/migrations/0018_calls.sql.
import type { CallStatus } from './calls/lifecycle.ts'
import type { RecordingStatus } from './recordings/lifecycle.ts'

export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const
export type CallDirection = (typeof CALL_DIRECTIONS)[number]

export const CALL_PROVIDERS = ['manual', 'twilio'] as const
export type CallProvider = (typeof CALL_PROVIDERS)[number]

/** A row of calls. */
export interface CallsTable {
  /** `cal_…` */
  id: string
  organization_id: string
  direction: CallDirection
  /** E.164 (a provider's caller that is no phone number, e.g. Twilio's `client:alice`, is kept as sent). */
  from_number: string
  to_number: string
  contact_id: string | null
  /** The user handling the call (offered to while ringing, talking once answered). */
  agent_id: string | null
  queue: string | null
  status: CallStatus
  provider: CallProvider
  /** Unique per provider in the organization. */
  provider_call_id: string | null
  initialized_at: number
  ringing_at: number | null
  answered_at: number | null
  ended_at: number | null
  /** From initialized_at to answered_at (or to ended_at when never answered); null until one of them. */
  wait_seconds: number | null
  /** From answered_at to ended_at; 0 for a call never answered; null until it ends. */
  talk_seconds: number | null
  end_reason: string | null
  ticket_id: string | null
  /** A user id, or `system:<id>` (a provider's callback). */
  created_by: string
  created_at: number
  updated_at: number
}

/** A row of recordings. */
export interface RecordingsTable {
  /** `rec_…` */
  id: string
  organization_id: string
  call_id: string
  /** The upload holding the audio (purpose `recording`, attached to this recording). */
  upload_id: string
  status: RecordingStatus
  /** Read from the audio; null until then. */
  duration_ms: number | null
  content_type: string
  size_bytes: number
  sha256: string
  /** Why the audio could not be read (status failed). */
  failure_reason: string | null
  /** When the cron loop deletes it: creation + the organization's retention days. */
  retention_until: number
  ready_at: number | null
  deleted_at: number | null
  /** The user who deleted it, or `system` (retention). */
  deleted_by: string | null
  created_by: string
  created_at: number
  updated_at: number
}

/** A row of call_settings: one per organization that changed a default. */
export interface CallSettingsTable {
  organization_id: string
  recording_retention_days: number
  /** `AC…`; unique across organizations: a callback's AccountSid names its organization. */
  twilio_account_sid: string | null
  /** Sealed with the master key, bound to the organization (settings/twilio-token.ts). */
  twilio_auth_token_encrypted: string | null
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    calls: CallsTable
    recordings: RecordingsTable
    call_settings: CallSettingsTable
  }
}
