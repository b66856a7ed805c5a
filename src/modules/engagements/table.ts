// The engagements module's tables as rows (Kysely): engagement sessions and their messages. The columns
// are declared by src/db/migrations/0020_engagements.sql.
import type { EngagementStatus } from './lifecycle.ts'

export const CHANNELS = ['chat', 'email', 'sms', 'voice', 'social', 'api'] as const
export type Channel = (typeof CHANNELS)[number]

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export type Priority = (typeof PRIORITIES)[number]

export const CLOSE_REASONS = ['agent', 'auto_inactive', 'customer'] as const
export type CloseReason = (typeof CLOSE_REASONS)[number]

/** A row of engagements: one conversation with a contact on a channel. */
export interface EngagementsTable {
  /** `eng_…` */
  id: string
  organization_id: string
  contact_id: string
  channel: Channel
  status: EngagementStatus
  assignee_id: string | null
  team: string | null
  /** The skill an agent needs to be picked by the automatic assignment (lowercased, as agents' skills). */
  required_skill: string | null
  priority: Priority
  subject: string | null
  first_reply_at: number | null
  /** Since the first inbound message not yet answered; null when none waits. */
  waiting_since: number | null
  last_activity_at: number
  snoozed_until: number | null
  closed_at: number | null
  close_reason: CloseReason | null
  /** JSON array of strings. */
  labels: string
  /** JSON object. */
  custom_fields: string
  ticket_id: string | null
  call_id: string | null
  escalated_at: number | null
  escalation_level: number | null
  /** JSON: `{"agent_id": …}` or `{"team": …}`. */
  escalated_to: string | null
  escalation_reason: string | null
  /** A user id, or `system:<id>`. */
  created_by: string
  created_at: number
  updated_at: number
}

/** A row of engagement_messages. */
export interface EngagementMessagesTable {
  /** `msg_…` */
  id: string
  organization_id: string
  engagement_id: string
  direction: 'in' | 'out'
  author_type: 'contact' | 'agent'
  /** The contact's id (author_type contact) or the user's (agent). */
  author_id: string
  body: string
  /** JSON array of upload ids (attached to the message). */
  upload_ids: string
  created_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    engagements: EngagementsTable
    engagement_messages: EngagementMessagesTable
  }
}
