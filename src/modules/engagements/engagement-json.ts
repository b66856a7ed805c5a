// A session and a message as the API and the events (data.engagement) show them.
import { isoTime } from '../../lib/clock.ts'
import type { EngagementRow, MessageRow } from './store.ts'

const time = (ms: number | null) => (ms === null ? null : isoTime(Number(ms)))

export function engagementJson(row: EngagementRow) {
  return {
    id: row.id,
    contact_id: row.contact_id,
    channel: row.channel,
    status: row.status,
    assignee_id: row.assignee_id,
    team: row.team,
    required_skill: row.required_skill,
    priority: row.priority,
    subject: row.subject,
    first_reply_at: time(row.first_reply_at),
    waiting_since: time(row.waiting_since),
    last_activity_at: isoTime(Number(row.last_activity_at)),
    snoozed_until: time(row.snoozed_until),
    closed_at: time(row.closed_at),
    close_reason: row.close_reason,
    labels: JSON.parse(row.labels) as string[],
    custom_fields: JSON.parse(row.custom_fields) as Record<string, unknown>,
    ticket_id: row.ticket_id,
    call_id: row.call_id,
    escalated_at: time(row.escalated_at),
    escalation_level: row.escalation_level === null ? null : Number(row.escalation_level),
    escalated_to: row.escalated_to === null ? null : (JSON.parse(row.escalated_to) as { agent_id: string } | { team: string }),
    escalation_reason: row.escalation_reason,
    created_by: row.created_by,
    created_at: isoTime(Number(row.created_at)),
    updated_at: isoTime(Number(row.updated_at)),
  }
}

export type EngagementJson = ReturnType<typeof engagementJson>

export function messageJson(row: MessageRow) {
  return {
    id: row.id,
    engagement_id: row.engagement_id,
    direction: row.direction,
    author: { type: row.author_type, id: row.author_id },
    body: row.body,
    upload_ids: JSON.parse(row.upload_ids) as string[],
    created_at: isoTime(Number(row.created_at)),
  }
}
