// Realistic sample `data` for each event type, for POST /webhooks/{id}/test: the resource under its
// name, as a real event of that type carries it, with ids that say they are samples.
import { AGENT_EXAMPLE } from '../agents/index.ts'
import { INVOICE_EXAMPLE, PAYMENT_EXAMPLE, SUBSCRIPTION_EXAMPLE } from '../billing/index.ts'
import { CALL_EXAMPLE, RECORDING_EXAMPLE } from '../calls/index.ts'
import { ENGAGEMENT_EXAMPLE, MESSAGE_EXAMPLE } from '../engagements/index.ts'
import { EVENT_TYPES, type EventType } from '../events/index.ts'
import { SURVEY_RESPONSE_EXAMPLE } from '../surveys/index.ts'

const SAMPLES: Record<keyof typeof EVENT_TYPES, (now: string) => Record<string, unknown>> = {
  ticket: (now) => ({
    ticket: {
      id: 'tkt_SAMPLE',
      number: 1042,
      subject: 'Printer on the 3rd floor is out of toner',
      status: 'open',
      priority: 'high',
      channel: 'email',
      assignee_id: null,
      tags: ['hardware'],
      created_at: now,
      updated_at: now,
    },
  }),
  call: (now) => ({ call: { ...CALL_EXAMPLE, updated_at: now } }),
  agent: (now) => ({ agent: { ...AGENT_EXAMPLE, status_changed_at: now } }),
  user: (now) => ({
    user: {
      id: 'usr_SAMPLE',
      email: 'ada@example.com',
      name: 'Ada Agent',
      role: 'agent',
      status: 'active',
      created_at: now,
      updated_at: now,
    },
  }),
  billing: (now) => ({ subscription: { ...SUBSCRIPTION_EXAMPLE, updated_at: now } }),
  crm: (now) => ({
    contact: { id: 'con_SAMPLE', name: 'Grace Customer', email: 'grace@example.com', account_id: 'acc_SAMPLE', updated_at: now },
  }),
  // A new session, queued: nobody has replied and nothing closed it yet.
  engagement: (now) => ({
    engagement: {
      ...ENGAGEMENT_EXAMPLE,
      status: 'queued',
      assignee_id: null,
      first_reply_at: null,
      waiting_since: now,
      last_activity_at: now,
      closed_at: null,
      close_reason: null,
      created_at: now,
      updated_at: now,
    },
  }),
  survey: (now) => ({ response: { ...SURVEY_RESPONSE_EXAMPLE, updated_at: now } }),
}

const GROUP_OF = new Map<string, keyof typeof EVENT_TYPES>(
  Object.entries(EVENT_TYPES).flatMap(([group, types]) => types.map((t) => [t, group as keyof typeof EVENT_TYPES])),
)

export function isEventType(type: string): type is EventType {
  return GROUP_OF.has(type)
}

/** Types whose resource is not their group's (a recording is announced in the call group). */
const TYPE_SAMPLES: Partial<Record<EventType, (now: string) => Record<string, unknown>>> = {
  'recording.ready': (now) => ({ recording: { ...RECORDING_EXAMPLE, ready_at: now } }),
  'engagement.message.added': (now) => ({
    engagement: { ...ENGAGEMENT_EXAMPLE, status: 'active', closed_at: null, close_reason: null, last_activity_at: now, updated_at: now },
    message: { ...MESSAGE_EXAMPLE, created_at: now },
  }),
  'engagement.closed': (now) => ({
    engagement: { ...ENGAGEMENT_EXAMPLE, status: 'closed', closed_at: now, close_reason: 'agent', updated_at: now },
  }),
  'engagement.escalated': (now) => ({
    engagement: {
      ...ENGAGEMENT_EXAMPLE,
      escalated_at: now,
      escalation_level: 2,
      escalated_to: { team: 'tier2' },
      escalation_reason: 'Refund above the agent limit',
      updated_at: now,
    },
    escalation: { level: 2, to: { team: 'tier2' }, reason: 'Refund above the agent limit' },
  }),
  'invoice.paid': (now) => ({ invoice: { ...INVOICE_EXAMPLE, updated_at: now } }),
  'invoice.failed': (now) => ({
    invoice: { ...INVOICE_EXAMPLE, status: 'open', updated_at: now },
    error: { code: 'card_declined', message: 'Your card was declined.' },
  }),
  'payment.succeeded': (now) => ({ payment: { ...PAYMENT_EXAMPLE, updated_at: now } }),
  'payment.failed': (now) => ({
    payment: { ...PAYMENT_EXAMPLE, status: 'requires_payment_method', updated_at: now },
    error: { code: 'card_declined', message: 'Your card was declined.' },
  }),
}

export function sampleData(type: EventType, now: string): Record<string, unknown> {
  return { ...(TYPE_SAMPLES[type] ?? SAMPLES[GROUP_OF.get(type)!])(now), test: true }
}
