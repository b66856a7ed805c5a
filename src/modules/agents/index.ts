// The agents module's public entry: its routes — /api/v1/agents (list, read, profile, status,
// login and logout, sessions) and /api/v1/agent-activities (activities/) — its cron task (the idle
// logout), and what other modules use of it: refreshAgentLoadInTx (tickets, calls, engagements),
// claimRoomInTx (the engagements' routing), findAgent, and lastSeenIntervalMs (how often a credential's
// last use should be written for the idle logout).
// An agent (SCOPES agent: 'self') reads and changes only its own profile and status: another agent's is
// 404 to it, as one that does not exist.
export { type AgentJson, agentJson } from './agent-json.ts'
export { claimRoomInTx, refreshAgentLoadInTx } from './capacity.ts'
export { idleCheckIntervalMs, lastSeenIntervalMs } from './idle.ts'
export { AGENT_EXAMPLE, AGENT_SESSION_EXAMPLE } from './model.ts'
export { type AgentRow, findAgent } from './store.ts'

import { Elysia, t } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import type { StreamedBody } from '../../http/body.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { listRequest } from '../../http/list.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { activityRoutes } from './activities/routes.ts'
import { agentSessionJson } from './agent-json.ts'
import { agentIdleLogoutTask } from './jobs.ts'
import { agentOut, listAgents } from './list-agents.ts'
import { listAgentSessions } from './list-sessions.ts'
import { loginAgent, logoutAgent } from './login.ts'
import {
  AgentBody,
  AgentIdParams,
  AgentList,
  AgentListQuery,
  AgentSessionList,
  AgentSessionListQuery,
  AgentWithSessionBody,
  SetStatusBody,
  UpdateAgentBody,
} from './model.ts'
import { getVisibleAgent } from './profiles.ts'
import { setAgentStatus } from './set-status.ts'
import { updateAgent } from './update-agent.ts'

const tags = ['Agents']
const SELF = 'An agent reads and changes only its own (another agent is 404 to it); `me` is the caller.'

export function agentsRoutes(app: AppContext) {
  return new Elysia().use(agentRoutes(app)).use(activityRoutes(app))
}

/** The routes of this module that read their bodies as streams: none. */
export function agentsStreamedBodies(_config: Config): StreamedBody[] {
  return []
}

/** This module's cron tasks. */
export function agentsTasks(app: AppContext): TaskDefinition[] {
  return [agentIdleLogoutTask(app)]
}

function agentRoutes(app: AppContext) {
  return (
    new Elysia({ prefix: '/api/v1/agents' })
      .use(authMacros(app))
      .get(
        '',
        ({ ctx, query }) => {
          const { status, available, team, skill } = query
          return listAgents(ctx, { filters: { status, available, team, skill }, request: listRequest(query) })
        },
        {
          permission: 'agent:read',
          query: AgentListQuery,
          response: { 200: t.NoValidate(AgentList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
          detail: {
            tags,
            operationId: 'listAgents',
            summary: 'List agents',
            description:
              'Every active user in an agent role (agent, supervisor, admin, super admin) is an agent. Supervisors and above see all; an agent sees itself. Filters status, available, team, skill; sorts created_at, status_changed_at, current_load; default created_at:desc.',
          },
        },
      )
      // Static paths before /:id so `me/login` is never read as an id.
      .post(
        '/me/login',
        async ({ ctx }) => {
          const { agent, session } = await loginAgent(ctx)
          return { agent: await agentOut(ctx, agent), session: session && agentSessionJson(session) }
        },
        {
          permission: 'agent:update',
          response: { 200: AgentWithSessionBody, ...protectedErrors('NOT_FOUND') },
          detail: {
            tags,
            operationId: 'loginAgent',
            summary: 'Log in as an agent',
            description:
              'Opens an agent session (ip, user agent) and makes the agent available (busy at once if its load is at capacity). Emits agent.logged_in, then agent.status_changed (offline to available, reason login). Logging in again while logged in changes nothing and answers the open session.',
          },
        },
      )
      .post(
        '/me/logout',
        async ({ ctx }) => {
          const { agent, session } = await logoutAgent(ctx)
          return { agent: await agentOut(ctx, agent), session: session && agentSessionJson(session) }
        },
        {
          permission: 'agent:update',
          response: { 200: AgentWithSessionBody, ...protectedErrors('NOT_FOUND') },
          detail: {
            tags,
            operationId: 'logoutAgent',
            summary: 'Log out as an agent',
            description:
              'Ends the agent session and makes the agent offline. Emits agent.logged_out (reason logout), then agent.status_changed. Logging out while logged out changes nothing (session null).',
          },
        },
      )
      .get('/:id', async ({ ctx, params }) => agentOut(ctx, await getVisibleAgent(ctx, params.id)), {
        permission: 'agent:read',
        params: AgentIdParams,
        response: { 200: AgentBody, ...protectedErrors('NOT_FOUND') },
        detail: { tags, operationId: 'getAgent', summary: 'Get an agent', description: SELF },
      })
      .patch('/:id', async ({ ctx, params, body }) => agentOut(ctx, await updateAgent(ctx, { id: params.id, changes: body })), {
        permission: 'agent:update',
        params: AgentIdParams,
        body: UpdateAgentBody,
        response: { 200: AgentBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
        detail: {
          tags,
          operationId: 'updateAgent',
          summary: "Change an agent's profile",
          description:
            'Capacity (max_concurrent), auto_offline, skills and teams, by supervisors and above; an agent changes only its own auto_offline (403 for any other field). A new capacity applies at once (agent.status_changed if the agent becomes busy or available).',
        },
      })
      .put('/:id/status', async ({ ctx, params, body }) => agentOut(ctx, await setAgentStatus(ctx, { id: params.id, ...body })), {
        permission: 'agent:update',
        params: AgentIdParams,
        body: SetStatusBody,
        response: { 200: AgentBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'setAgentStatus',
          summary: "Set an agent's status",
          description: `Follows the lifecycle: offline becomes available only by logging in; available and busy go to busy/available, break, wrap_up or a custom activity; break, wrap_up and custom activities go back to available; offline (from any) is a logout. Emits agent.status_changed with from, to and reason. ${SELF} Supervisors and above set anyone's.`,
        },
      })
      .get(
        '/:id/sessions',
        ({ ctx, params, query }) => {
          const { login_after, login_before } = query
          return listAgentSessions(ctx, {
            id: params.id,
            filters: { login_after, login_before },
            request: listRequest({ ...query, sort: query.sort ?? 'login_at:desc' }),
          })
        },
        {
          permission: 'agent:read',
          params: AgentIdParams,
          query: AgentSessionListQuery,
          response: { 200: t.NoValidate(AgentSessionList), ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_PAGE_TOKEN') },
          detail: {
            tags,
            operationId: 'listAgentSessions',
            summary: "List an agent's sessions",
            description: `Each login to logout (open while logged in), newest first by default (sort login_at). ${SELF}`,
          },
        },
      )
  )
}
