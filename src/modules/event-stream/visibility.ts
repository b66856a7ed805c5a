// Which events a caller of the stream sees: each group needs its read permission (the caller's grants,
// narrowed as for any request by a personal access token's permissions or an OAuth client's scopes), and
// an agent (SCOPES) sees only what it could read through the API: tickets, calls and sessions assigned to
// it or to nobody, its own agent profile. Unknown types and webhook test sends are never shown.
import type { UserActor } from '../../context.ts'
import { hasPermission, type Permission, SCOPES } from '../access/index.ts'

type Data = Record<string, unknown>

/** The read permissions an event type needs (all of them); undefined: not shown (unknown type). */
export function permissionsOf(type: string, data: Data): Permission[] | undefined {
  if (type.startsWith('ticket.')) return ['ticket:read']
  if (type.startsWith('call.')) return ['call:read']
  if (type.startsWith('recording.')) return ['recording:read', 'call:read']
  if (type.startsWith('agent.')) return ['agent:read']
  if (type.startsWith('user.')) return ['user:read']
  if (type.startsWith('subscription.') || type.startsWith('payment.') || type.startsWith('invoice.')) return ['billing:read']
  if (type === 'crm.contact.lead_converted')
    return data.account ? ['lead:read', 'contact:read', 'account:read'] : ['lead:read', 'contact:read']
  if (type.startsWith('crm.account.')) return ['account:read']
  if (type.startsWith('crm.contact.')) return ['contact:read']
  if (type === 'engagement.message.added') return ['engagement:read', 'message:read']
  if (type.startsWith('engagement.')) return ['engagement:read']
  if (type.startsWith('survey.')) return ['survey:read']
  return undefined
}

const idOf = (value: unknown, key: string): string | null | undefined => {
  if (typeof value !== 'object' || value === null) return undefined
  const field = (value as Data)[key]
  return typeof field === 'string' || field === null ? field : undefined
}

/**
 * What one stream remembers to judge later events: the calls it saw the caller may see (a recording.ready
 * names only its call). Bounded: the oldest are forgotten (a recording of a forgotten call is not shown).
 */
export class SeenCalls {
  private readonly ids = new Set<string>()
  constructor(private readonly max = 1000) {}
  add(id: string): void {
    if (this.ids.size >= this.max) this.ids.delete(this.ids.values().next().value as string)
    this.ids.add(id)
  }
  has(id: string): boolean {
    return this.ids.has(id)
  }
}

/**
 * True when `actor` may see the event (its type and stored envelope). The envelope is parsed only when
 * its data decides: for a scoped role, a lead conversion, or what may be a webhook test send.
 */
export function maySee(actor: UserActor, type: string, body: string, seenCalls: SeenCalls): boolean {
  const scope = SCOPES[actor.role]
  const parse = scope !== undefined || type === 'crm.contact.lead_converted' || body.includes('"test":true')
  const data: Data = parse ? (JSON.parse(body) as { data: Data }).data : {}
  if (data.test === true) return false
  const needed = permissionsOf(type, data)
  if (!needed?.every((permission) => hasPermission(actor.grants, permission))) return false
  if (!scope) return true
  const mineOrNobodys = (assignee: string | null | undefined) => assignee === null || assignee === actor.userId
  if (type.startsWith('ticket.')) return scope.ticket !== 'assigned_or_unassigned' || mineOrNobodys(idOf(data.ticket, 'assignee_id'))
  if (type.startsWith('call.')) {
    const visible = scope.call !== 'assigned_or_unassigned' || mineOrNobodys(idOf(data.call, 'agent_id'))
    const callId = idOf(data.call, 'id')
    if (visible && callId) seenCalls.add(callId)
    return visible
  }
  if (type.startsWith('recording.')) {
    const callId = idOf(data.recording, 'call_id')
    return scope.call !== 'assigned_or_unassigned' || (typeof callId === 'string' && seenCalls.has(callId))
  }
  if (type.startsWith('agent.')) return scope.agent !== 'self' || idOf(data.agent, 'id') === actor.userId
  // "Assigned to the agent, and the queued ones nobody has": a session nobody has (queued, or closed while queued).
  if (type.startsWith('engagement.'))
    return scope.engagement !== 'assigned_or_queued' || mineOrNobodys(idOf(data.engagement, 'assignee_id'))
  return true
}
