// Request and response schemas of the engagements endpoints (the Engagement and Message components),
// the example objects other modules use (webhook samples, docs), and the texts the routes' docs share.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { oneOf } from '../../http/schema.ts'
import { CLOSE_REASONS, CHANNELS, PRIORITIES } from './table.ts'
import { ENGAGEMENT_STATUSES } from './lifecycle.ts'
import { ENGAGEMENT_LIST, MESSAGE_LIST } from './store.ts'

export const SCOPE =
  'Agents see and work only the sessions assigned to them and the queued ones nobody has (others are 404), and take sessions only for themselves or "auto" (403).'
export const LIFECYCLE =
  'Lifecycle: queued -> active (assign) | closed; active -> snoozed | wrap_up | closed; snoozed -> active (unsnooze, the cron loop at snoozed_until, an inbound message) | closed; wrap_up -> active (reopen, an inbound message) | closed; closed -> active, or queued without an assignee (reopen, an inbound message within ENGAGEMENT_REOPEN_HOURS). Any other move is 409 INVALID_STATE_TRANSITION naming both states.'

const Id = t.String({ minLength: 1, maxLength: 64 })
const Time = t.String({ format: 'date-time' })
const Name = t.String({ maxLength: 100, description: "Trimmed; '' is none" })
const Labels = t.Array(t.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, description: 'Trimmed, lowercased, once each' })
const CustomFields = t.Record(t.String(), t.Unknown(), { description: 'At most 8 KB as JSON' })

export const ENGAGEMENT_EXAMPLE = {
  id: 'eng_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  contact_id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  channel: 'chat',
  status: 'closed',
  assignee_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  team: 'support',
  required_skill: 'billing',
  priority: 'normal',
  subject: 'Refund for order 1042',
  first_reply_at: '2026-01-15T09:31:10.000Z',
  waiting_since: null,
  last_activity_at: '2026-01-15T09:44:02.000Z',
  snoozed_until: null,
  closed_at: '2026-01-15T09:45:00.000Z',
  close_reason: 'agent',
  labels: ['refund'],
  custom_fields: { order: '1042' },
  ticket_id: null,
  call_id: null,
  escalated_at: null,
  escalation_level: null,
  escalated_to: null,
  escalation_reason: null,
  created_by: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-15T09:45:00.000Z',
}

export const MESSAGE_EXAMPLE = {
  id: 'msg_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  engagement_id: 'eng_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  direction: 'in',
  author: { type: 'contact', id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ' },
  body: 'Hello, I was charged twice for order 1042.',
  upload_ids: [],
  created_at: '2026-01-15T09:30:00.000Z',
}

export const EngagementBody = t.Object(
  {
    id: t.String(),
    contact_id: t.String(),
    channel: oneOf(CHANNELS),
    status: oneOf(ENGAGEMENT_STATUSES),
    assignee_id: t.Nullable(t.String()),
    team: t.Nullable(t.String()),
    required_skill: t.Nullable(t.String({ description: 'The skill the automatic assignment requires of an agent' })),
    priority: oneOf(PRIORITIES),
    subject: t.Nullable(t.String()),
    first_reply_at: t.Nullable(Time),
    waiting_since: t.Nullable(Time),
    last_activity_at: Time,
    snoozed_until: t.Nullable(Time),
    closed_at: t.Nullable(Time),
    close_reason: t.Nullable(oneOf(CLOSE_REASONS)),
    labels: t.Array(t.String()),
    custom_fields: t.Record(t.String(), t.Unknown()),
    ticket_id: t.Nullable(t.String()),
    call_id: t.Nullable(t.String()),
    escalated_at: t.Nullable(Time),
    escalation_level: t.Nullable(t.Integer()),
    escalated_to: t.Nullable(t.Union([t.Object({ agent_id: t.String() }), t.Object({ team: t.String() })])),
    escalation_reason: t.Nullable(t.String()),
    created_by: t.String(),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Engagement', examples: [ENGAGEMENT_EXAMPLE] },
)

export const MessageBody = t.Object(
  {
    id: t.String(),
    engagement_id: t.String({
      description: 'The session the message went to (a new one when an inbound message came after the reopen window)',
    }),
    direction: oneOf(['in', 'out'] as const),
    author: t.Object({ type: oneOf(['contact', 'agent'] as const), id: t.String() }),
    body: t.String(),
    upload_ids: t.Array(t.String()),
    created_at: Time,
  },
  { title: 'Message', examples: [MESSAGE_EXAMPLE] },
)

const Assignee = t.String({ minLength: 1, maxLength: 64, description: 'A user id, or "auto" (the routing picks an available agent)' })

export const CreateEngagementBody = t.Object(
  {
    contact_id: Id,
    channel: oneOf(CHANNELS),
    assignee_id: t.Optional(t.Nullable(Assignee)),
    assign: t.Optional(oneOf(['auto'] as const, { description: 'Same as assignee_id "auto"' })),
    team: t.Optional(t.Nullable(Name)),
    required_skill: t.Optional(t.Nullable(t.String({ maxLength: 50 }))),
    priority: t.Optional(oneOf(PRIORITIES, { description: 'Default normal' })),
    subject: t.Optional(t.Nullable(t.String({ maxLength: 200 }))),
    labels: t.Optional(Labels),
    custom_fields: t.Optional(CustomFields),
    ticket_id: t.Optional(t.Nullable(Id)),
    call_id: t.Optional(t.Nullable(Id)),
  },
  { examples: [{ contact_id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ', channel: 'chat', assign: 'auto', required_skill: 'billing' }] },
)

export const UpdateEngagementBody = t.Object(
  {
    team: t.Optional(t.Nullable(Name)),
    required_skill: t.Optional(t.Nullable(t.String({ maxLength: 50 }))),
    priority: t.Optional(oneOf(PRIORITIES)),
    subject: t.Optional(t.Nullable(t.String({ maxLength: 200 }))),
    labels: t.Optional(Labels),
    custom_fields: t.Optional(CustomFields),
    ticket_id: t.Optional(t.Nullable(Id)),
    call_id: t.Optional(t.Nullable(Id)),
  },
  { minProperties: 1, examples: [{ priority: 'high', labels: ['vip'] }] },
)

export const AssignBody = t.Object({ assignee_id: Assignee }, { examples: [{ assignee_id: 'auto' }] })
export const SnoozeBody = t.Object(
  { until: t.String({ format: 'date-time', description: 'RFC 3339, in the future' }) },
  { examples: [{ until: '2026-01-15T14:00:00Z' }] },
)
export const CloseBody = t.Object(
  { reason: t.Optional(oneOf(['agent', 'customer'] as const, { description: 'close_reason; default agent' })) },
  { examples: [{}, { reason: 'customer' }] },
)

export const EscalateBody = t.Object(
  {
    level: Type.Integer({ minimum: 1, maximum: 10 }),
    to: t.Object(
      { agent_id: t.Optional(Id), team: t.Optional(t.String({ minLength: 1, maxLength: 100 })) },
      { description: 'Exactly one of: agent_id (the session is handed to that agent), team (the session moves to that team)' },
    ),
    reason: t.String({ minLength: 1, maxLength: 500 }),
    ticket_id: t.Optional(Id),
    create_ticket: t.Optional(
      t.Boolean({
        description: "Create a ticket for the session's contact (its subject, priority, the reason as description) and link it",
      }),
    ),
  },
  { examples: [{ level: 2, to: { team: 'tier2' }, reason: 'Refund above the agent limit', create_ticket: true }] },
)

export const CreateMessageBody = t.Object(
  {
    direction: oneOf(['in', 'out'] as const, { description: 'in: from the contact (its author); out: from the caller' }),
    body: t.String({ minLength: 1, maxLength: 20_000 }),
    upload_ids: t.Optional(t.Array(Id, { maxItems: 20, description: 'Pending attachment uploads (POST /api/v1/uploads)' })),
  },
  { examples: [{ direction: 'out', body: 'Thanks, I have refunded the second charge.' }] },
)

export const EngagementIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const EngagementListQuery = t.Object({
  status: t.Optional(oneOf(ENGAGEMENT_STATUSES)),
  channel: t.Optional(oneOf(CHANNELS)),
  assignee_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'A user id, or "none" for unassigned sessions' })),
  contact_id: t.Optional(Id),
  team: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  created_after: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; only sessions created after it' })),
  created_before: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; only sessions created before it' })),
  ...pagingQuery(ENGAGEMENT_LIST.sorts),
})

export const MessageListQuery = t.Object({ ...pagingQuery(MESSAGE_LIST.sorts) })

export const EngagementList = listResponse('engagements', EngagementBody)
export const MessageList = listResponse('messages', MessageBody)
