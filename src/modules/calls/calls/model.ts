// Request and response schemas of the calls endpoints (the Call component).
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../../http/list.ts'
import { oneOf } from '../../../http/schema.ts'
import { CALL_DIRECTIONS, CALL_PROVIDERS } from '../table.ts'
import { CALL_STATUSES, TERMINAL_CALL_STATUSES } from './lifecycle.ts'
import { CALL_LIST } from './store.ts'

const Id = t.String({ minLength: 1, maxLength: 64 })
const Phone = t.String({
  minLength: 1,
  maxLength: 40,
  description: 'With its country code (spaces, dashes and brackets allowed); stored in E.164, e.g. +14155550123',
})
const Queue = t.String({ maxLength: 100, description: "A queue's name, trimmed; empty means none" })
const Time = t.String({ format: 'date-time' })

export const CALL_EXAMPLE = {
  id: 'cal_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  direction: 'inbound',
  from: '+14155550123',
  to: '+14155550199',
  contact_id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  agent_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  queue: 'support',
  status: 'completed',
  provider: 'twilio',
  provider_call_id: 'CA0123456789abcdef0123456789abcdef',
  initialized_at: '2026-01-15T09:30:00.000Z',
  ringing_at: '2026-01-15T09:30:02.000Z',
  answered_at: '2026-01-15T09:30:14.000Z',
  ended_at: '2026-01-15T09:34:21.000Z',
  wait_seconds: 14,
  talk_seconds: 247,
  end_reason: 'completed',
  ticket_id: null,
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-15T09:34:21.000Z',
}

export const CallBody = t.Object(
  {
    id: t.String(),
    direction: oneOf(CALL_DIRECTIONS),
    from: t.String({ description: "E.164 (a provider's caller that is no phone number, such as Twilio's client:alice, as sent)" }),
    to: t.String(),
    contact_id: t.Nullable(t.String()),
    agent_id: t.Nullable(t.String()),
    queue: t.Nullable(t.String()),
    status: oneOf(CALL_STATUSES),
    provider: oneOf(CALL_PROVIDERS),
    provider_call_id: t.Nullable(t.String()),
    initialized_at: Time,
    ringing_at: t.Nullable(Time),
    answered_at: t.Nullable(Time),
    ended_at: t.Nullable(Time),
    wait_seconds: t.Nullable(t.Integer({ description: 'From initialized_at to the answer (or to the end of a call never answered)' })),
    talk_seconds: t.Nullable(t.Integer({ description: 'From the answer to the end; 0 for a call never answered; null until it ends' })),
    end_reason: t.Nullable(t.String()),
    ticket_id: t.Nullable(t.String()),
    created_at: Time,
    updated_at: Time,
  },
  { title: 'Call', examples: [CALL_EXAMPLE] },
)

export const CreateCallBody = t.Object(
  {
    direction: oneOf(CALL_DIRECTIONS),
    from: Phone,
    to: Phone,
    contact_id: t.Optional(
      t.Nullable(Id, { description: "A contact of the organization; left out: the contact with the other party's number; null: none" }),
    ),
    agent_id: t.Optional(t.Nullable(Id, { description: 'An active user of the organization; an agent may name only itself' })),
    queue: t.Optional(t.Nullable(Queue)),
    status: t.Optional(oneOf(['queued', 'ringing'] as const, { description: 'Default queued' })),
    provider: t.Optional(oneOf(CALL_PROVIDERS, { description: 'Default manual' })),
    provider_call_id: t.Optional(
      t.Nullable(
        t.String({ minLength: 1, maxLength: 100, description: "The provider's id of the call (Twilio's CallSid); unique per provider" }),
      ),
    ),
    ticket_id: t.Optional(t.Nullable(Id)),
  },
  { examples: [{ direction: 'inbound', from: '+1 415 555 0123', to: '+14155550199', queue: 'support' }] },
)

export const UpdateCallBody = t.Object(
  {
    ticket_id: t.Optional(t.Nullable(Id)),
    contact_id: t.Optional(t.Nullable(Id)),
  },
  { minProperties: 1, examples: [{ ticket_id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ' }] },
)

export const RingCallBody = t.Object(
  { agent_id: t.Optional(t.Nullable(Id, { description: 'Who it rings at; left out: unchanged; an agent may name only itself' })) },
  { examples: [{}, { agent_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' }] },
)

export const AnswerCallBody = t.Object(
  { agent_id: t.Optional(Id) },
  {
    description: 'agent_id: who answers; default the agent the call rings at, else the caller. An agent answers only for itself.',
    examples: [{}, { agent_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' }],
  },
)

export const TransferCallBody = t.Object(
  {
    to: t.Object(
      {
        agent_id: t.Optional(Id),
        queue: t.Optional(t.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
      },
      { description: 'Exactly one of: agent_id, another agent (the call keeps its queue); queue (the call leaves its agent)' },
    ),
  },
  { examples: [{ to: { agent_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' } }, { to: { queue: 'billing' } }] },
)

export const EndCallBody = t.Object(
  {
    status: t.Optional(oneOf(TERMINAL_CALL_STATUSES, { description: 'Default completed' })),
    end_reason: t.Optional(t.Nullable(t.String({ maxLength: 200, description: 'Why it ended (a hangup cause); default the status' }))),
  },
  { examples: [{}, { status: 'completed', end_reason: 'customer_hangup' }, { status: 'no_answer' }] },
)

export const CallIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

const TimeFilter = (description: string) => t.Optional(t.String({ format: 'date-time', description: `RFC 3339; ${description}` }))

export const CallListQuery = t.Object({
  status: t.Optional(
    oneOf([...CALL_STATUSES, 'in-progress', 'active'] as const, {
      description: 'A status (in-progress and in_progress alike), or active: queued, ringing and in progress',
    }),
  ),
  direction: t.Optional(oneOf(CALL_DIRECTIONS)),
  agent_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'A user id, or "none" for unassigned calls' })),
  queue: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  contact_id: t.Optional(Id),
  provider: t.Optional(oneOf(CALL_PROVIDERS)),
  ticket_id: t.Optional(Id),
  created_after: TimeFilter('only calls created after it'),
  created_before: TimeFilter('only calls created before it'),
  initialized_after: TimeFilter('only calls initialized after it'),
  initialized_before: TimeFilter('only calls initialized before it'),
  ...pagingQuery(CALL_LIST.sorts),
})

export const CallList = listResponse('calls', CallBody)
