// What `data` holds for every event type of the catalog: its properties, which of them are always there,
// and where its example comes from. /openapi.json documents it (src/http/openapi-webhooks.ts), and a
// webhook's test send carries its example (example.ts).
import type { EventType } from '../events/index.ts'
import type { ComponentName } from './examples.ts'
import { changed, HANDLER, type Json, nullable, only, PAYMENT_ERROR, ref, UPLOADS } from './parts.ts'

export interface EventData {
  properties: Json
  required: string[]
  /** A component whose example is this data as a whole (default: built property by property). */
  examplesFrom?: ComponentName
}

/** What `data` holds for every type of the catalog (see where each module calls recordChange): a new type needs one here. */
export const EVENT_DATA: Record<EventType, EventData> = {
  'ticket.created': { properties: { ticket: ref('Ticket'), uploads: UPLOADS }, required: ['ticket', 'uploads'] },
  'ticket.updated': { properties: { ticket: ref('Ticket'), changed: changed('status', 'priority') }, required: ['ticket', 'changed'] },
  'ticket.resolved': { properties: { ticket: ref('Ticket') }, required: ['ticket'] },
  'ticket.assigned': {
    properties: {
      ticket: ref('Ticket'),
      previous_assignee_id: { type: ['string', 'null'], description: 'Who had it before; null if nobody', examples: [null] },
    },
    required: ['ticket', 'previous_assignee_id'],
  },
  'ticket.comment.added': {
    properties: { ticket: ref('Ticket'), comment: ref('Comment'), uploads: UPLOADS },
    required: ['ticket', 'comment', 'uploads'],
  },
  'user.created': { properties: { user: ref('User') }, required: ['user'] },
  'user.updated': { properties: { user: ref('User'), changed: changed('role') }, required: ['user', 'changed'] },
  'user.deleted': { properties: { user: ref('User'), changed: changed('status') }, required: ['user', 'changed'] },
  'crm.account.created': { properties: { account: ref('Account') }, required: ['account'] },
  'crm.account.updated': { properties: { account: ref('Account'), changed: changed('name') }, required: ['account', 'changed'] },
  'crm.account.deleted': { properties: { account: ref('Account') }, required: ['account'] },
  'crm.contact.created': { properties: { contact: ref('Contact') }, required: ['contact'] },
  'crm.contact.updated': {
    properties: {
      contact: ref('Contact'),
      changed: changed('name'),
      merged_ids: {
        type: 'array',
        items: { type: 'string' },
        description: 'Present on a merge: the contacts merged into this one',
        examples: [['con_01KAX3Q0B6N8R2T4V6X8Z0B2D4']],
      },
    },
    required: ['contact', 'changed'],
  },
  'crm.contact.deleted': {
    properties: {
      contact: ref('Contact'),
      merged_into_id: {
        type: 'string',
        description: 'Present when it was merged into another contact: the survivor',
        examples: ['con_01KAX3M6W9P8T2V5G7H4J3C1QZ'],
      },
    },
    required: ['contact'],
  },
  // The contact is the one the conversion found or made, always there; the account only when one was asked for.
  'crm.contact.lead_converted': {
    properties: {
      lead: ref('Lead'),
      contact: ref('Contact'),
      account: nullable(ref('Account'), 'The account it was converted into; null when the conversion made or linked none'),
    },
    required: ['lead', 'contact', 'account'],
    examplesFrom: 'LeadConversion',
  },
  'call.started': { properties: { call: ref('Call') }, required: ['call'] },
  'call.answered': { properties: { call: ref('Call') }, required: ['call'] },
  'call.transferred': {
    properties: {
      call: ref('Call'),
      from: HANDLER('before', { agent_id: null, queue: 'support' }),
      to: HANDLER('after', { agent_id: 'usr_01JH2Q8V6MZ4T3N7C5X9B1K0RS', queue: 'support' }),
    },
    required: ['call', 'from', 'to'],
  },
  'call.completed': {
    properties: {
      call: ref('Call'),
      status: {
        type: 'string',
        enum: ['completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'],
        description: 'How it ended',
        examples: ['completed'],
      },
      reason: { type: ['string', 'null'], description: "The call's end_reason", examples: ['hangup'] },
    },
    required: ['call', 'status', 'reason'],
  },
  'recording.ready': { properties: { recording: ref('Recording') }, required: ['recording'] },
  'engagement.created': { properties: { engagement: ref('Engagement') }, required: ['engagement'] },
  'engagement.closed': { properties: { engagement: ref('Engagement') }, required: ['engagement'] },
  'engagement.message.added': {
    properties: { engagement: ref('Engagement'), message: ref('Message') },
    required: ['engagement', 'message'],
  },
  'engagement.escalated': {
    properties: {
      engagement: ref('Engagement'),
      escalation: {
        type: 'object',
        required: ['level', 'to', 'reason'],
        properties: {
          level: { type: 'integer', examples: [2] },
          to: { description: 'Exactly one of agent_id and team', oneOf: [only('agent_id'), only('team')], examples: [{ team: 'tier2' }] },
          reason: { type: 'string', examples: ['Refund above the agent limit'] },
        },
        description: 'This escalation',
      },
    },
    required: ['engagement', 'escalation'],
  },
  'survey.response.completed': { properties: { response: ref('SurveyResponse') }, required: ['response'] },
  'survey.response.updated': { properties: { response: ref('SurveyResponse') }, required: ['response'] },
  'subscription.created': { properties: { subscription: ref('Subscription') }, required: ['subscription'] },
  'subscription.updated': { properties: { subscription: ref('Subscription') }, required: ['subscription'] },
  'subscription.canceled': { properties: { subscription: ref('Subscription') }, required: ['subscription'] },
  'invoice.paid': { properties: { invoice: ref('Invoice') }, required: ['invoice'] },
  'invoice.failed': { properties: { invoice: ref('Invoice'), error: PAYMENT_ERROR }, required: ['invoice', 'error'] },
  'payment.succeeded': { properties: { payment: ref('Payment') }, required: ['payment'] },
  'payment.failed': { properties: { payment: ref('Payment'), error: PAYMENT_ERROR }, required: ['payment', 'error'] },
  'agent.status_changed': {
    properties: {
      agent: ref('Agent'),
      from: { type: 'string', description: 'The activity before', examples: ['available'] },
      to: { type: 'string', description: 'The activity after', examples: ['break'] },
      reason: { type: 'string', enum: ['login', 'set', 'capacity', 'logout', 'supervisor', 'idle'], examples: ['set'] },
    },
    required: ['agent', 'from', 'to', 'reason'],
  },
  'agent.logged_in': { properties: { agent: ref('Agent'), session: ref('AgentSession') }, required: ['agent', 'session'] },
  // agents/login.ts adds the session only when it finds the agent's open one: every logout through the API
  // has one today, but the code allows none, so the schema does too.
  'agent.logged_out': {
    properties: {
      agent: ref('Agent'),
      reason: { type: 'string', enum: ['logout', 'supervisor', 'idle'], examples: ['logout'] },
      session: ref('AgentSession'),
    },
    required: ['agent', 'reason'],
  },
}
