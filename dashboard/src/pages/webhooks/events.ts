// The event types a webhook may subscribe to, by group, checked against the typed client's `webhooks`
// (one entry per type in /openapi.json): a type added to or removed from the API fails the typecheck here.
import type { webhooks } from '../../../../clients/typescript/src/index.ts'

export type EventType = keyof webhooks & string

/** Each type's group: the wildcard the API accepts for it (`ticket.*` covers every `ticket.` type). */
const GROUP_OF = {
  'ticket.created': 'ticket.*',
  'ticket.updated': 'ticket.*',
  'ticket.resolved': 'ticket.*',
  'ticket.assigned': 'ticket.*',
  'ticket.comment.added': 'ticket.*',
  'call.started': 'call.*',
  'call.answered': 'call.*',
  'call.completed': 'call.*',
  'call.transferred': 'call.*',
  'recording.ready': 'recording.*',
  'agent.status_changed': 'agent.*',
  'agent.logged_in': 'agent.*',
  'agent.logged_out': 'agent.*',
  'user.created': 'user.*',
  'user.updated': 'user.*',
  'user.deleted': 'user.*',
  'subscription.created': 'subscription.*',
  'subscription.updated': 'subscription.*',
  'subscription.canceled': 'subscription.*',
  'payment.succeeded': 'payment.*',
  'payment.failed': 'payment.*',
  'invoice.paid': 'invoice.*',
  'invoice.failed': 'invoice.*',
  'crm.account.created': 'crm.account.*',
  'crm.account.updated': 'crm.account.*',
  'crm.account.deleted': 'crm.account.*',
  'crm.contact.created': 'crm.contact.*',
  'crm.contact.updated': 'crm.contact.*',
  'crm.contact.deleted': 'crm.contact.*',
  'crm.contact.lead_converted': 'crm.contact.*',
  'engagement.created': 'engagement.*',
  'engagement.closed': 'engagement.*',
  'engagement.escalated': 'engagement.*',
  'engagement.message.added': 'engagement.*',
  'survey.response.completed': 'survey.*',
  'survey.response.updated': 'survey.*',
} as const satisfies Record<EventType, `${string}.*`>

export const EVENT_TYPES = Object.keys(GROUP_OF) as EventType[]

export interface EventGroup {
  /** The wildcard filter, e.g. `ticket.*`. */
  wildcard: string
  types: EventType[]
}

/** The groups in catalog order, each with its types. */
export const EVENT_GROUPS: EventGroup[] = []
for (const type of EVENT_TYPES) {
  const wildcard = GROUP_OF[type]
  const group = EVENT_GROUPS.find((g) => g.wildcard === wildcard)
  if (group) group.types.push(type)
  else EVENT_GROUPS.push({ wildcard, types: [type] })
}

/** What the picker shows for a webhook's filters: everything, whole groups, single types, and filters it has no box for. */
export interface Selection {
  all: boolean
  groups: Set<string>
  types: Set<EventType>
  /** Filters set through the API that are neither `*`, a group above nor a type (e.g. `crm.*`): kept as they are. */
  others: string[]
}

export function selectionOf(filters: readonly string[]): Selection {
  const selection: Selection = { all: false, groups: new Set(), types: new Set(), others: [] }
  for (const filter of filters) {
    if (filter === '*') selection.all = true
    else if (EVENT_GROUPS.some((g) => g.wildcard === filter)) selection.groups.add(filter)
    else if (filter in GROUP_OF) selection.types.add(filter as EventType)
    else selection.others.push(filter)
  }
  return selection
}

/** The filters to send: `*` alone when everything is picked, else each whole group as its wildcard, then single types. */
export function filtersOf(selection: Selection, keptOthers: readonly string[]): string[] {
  if (selection.all) return ['*']
  const types = [...selection.types].filter((type) => !selection.groups.has(GROUP_OF[type]))
  return [...EVENT_GROUPS.map((g) => g.wildcard).filter((w) => selection.groups.has(w)), ...types, ...keptOthers]
}
