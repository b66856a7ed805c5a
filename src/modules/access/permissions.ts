// Roles and permissions as data: the `resource:action` vocabulary and the grants of the five roles.
// Matching rules live in match.ts; nothing else defines who may do what.

import type { Grant, Resource, Role } from '../../vocabulary.ts'

export { ALL_PERMISSIONS, type Grant, isRole, type Permission, type Resource, type Role, ROLES, VOCABULARY } from '../../vocabulary.ts'

const readAll = (...resources: Resource[]): Grant[] => resources.map((r) => `${r}:read` as Grant)

/** Most privileged first; the spec's descriptions in the comments. */
// biome-ignore format: the grants are grouped by kind, a few to a line
export const ROLE_GRANTS: Record<Role, readonly Grant[]> = {
  // Organization owner: all permissions.
  super_admin: ['*:*'],
  // User and role management, most operations; billing changes stay with the owner.
  admin: [
    'ticket:*', 'call:*', 'recording:*', 'agent:*', 'user:*', 'role:*',
    'account:*', 'contact:*', 'lead:*', 'engagement:*', 'message:*', 'survey:*', 'webhook:*', 'upload:*',
    'report:*', 'audit:*', 'api_key:*', 'oauth_client:*', 'organization:*', 'session:*',
    'billing:read',
  ],
  // Team management and reporting: runs the floor, and the customer record in full.
  supervisor: [
    'ticket:*', 'call:read', 'call:update', 'recording:read', 'agent:read', 'agent:update',
    'engagement:*', 'message:*', 'account:*', 'contact:*', 'lead:*',
    'survey:*', 'upload:read', 'upload:create', 'report:read', 'user:read', 'role:read', 'api_key:read', 'api_key:create', 'api_key:delete',
  ],
  // Basic operations on assigned queues and tickets (which tickets is decided per resource).
  agent: [
    'ticket:read', 'ticket:create', 'ticket:update', 'ticket:comment', 'ticket:assign',
    // Calls and recordings: their own and unassigned ones; their own agent profile and status (SCOPES).
    'call:read', 'call:create', 'call:update', 'recording:read', 'recording:create', 'agent:read', 'agent:update',
    // Sessions: those assigned to the agent and the queued ones (SCOPES); offering a survey by hand.
    'engagement:read', 'engagement:create', 'engagement:update', 'engagement:close', 'engagement:escalate',
    'message:read', 'message:create', 'survey:create',
    // CRM: contacts and leads written only when the agent owns them or nobody does (crm/ownership.ts).
    'account:read', 'contact:read', 'contact:create', 'contact:update', 'contact:delete',
    'lead:read', 'lead:create', 'lead:update', 'lead:delete', 'lead:convert',
    'survey:read', 'upload:read', 'upload:create', 'user:read',
    'api_key:read', 'api_key:create', 'api_key:delete',
    // Reports: the organization's figures, its own row of the agents report and its own records only.
    'report:read',
  ],
  // Read-only, except security records (audit log, webhooks, API keys, OAuth clients, billing).
  viewer: readAll('ticket', 'call', 'recording', 'agent', 'user', 'role', 'account', 'contact', 'lead', 'engagement', 'message', 'survey', 'upload', 'report'),
}

/**
 * Roles that see only part of a resource even with its permission: an agent works the tickets
 * assigned to it and the unassigned ones. Others see the whole organization.
 */
type Scope = {
  ticket?: 'assigned_or_unassigned'
  contact?: 'owned_or_unowned'
  lead?: 'owned_or_unowned'
  /** Calls (and their recordings) assigned to the agent or to nobody. */
  call?: 'assigned_or_unassigned'
  /** Only the agent's own profile, status and sessions. */
  agent?: 'self'
  /** Engagement sessions (and their messages) assigned to the agent, and the queued ones nobody has. */
  engagement?: 'assigned_or_queued'
}

export const SCOPES: Partial<Record<Role, Scope>> = {
  // Agents read every contact and lead, and write those they own or nobody owns.
  // Agents handle their own calls and unassigned ones, and change only their own status.
  agent: {
    ticket: 'assigned_or_unassigned',
    contact: 'owned_or_unowned',
    lead: 'owned_or_unowned',
    call: 'assigned_or_unassigned',
    agent: 'self',
    engagement: 'assigned_or_queued',
  },
}
