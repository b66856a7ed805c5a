// What the contact centre's concurrency tests share (agents, calls, engagements): more agents made and
// logged in, an agent's profile as the API shows it, the events of one record and the audit records of
// one target, and a check that every response is one of the statuses a serial order could give.
import { expect } from 'bun:test'
import { contextFor } from '../../src/context.ts'
import { insertUser } from '../../src/modules/users/index.ts'
import { type Cluster, json } from '../helpers/cluster.ts'
import { type SeededUser, signIn } from '../helpers/seed.ts'

export interface AgentView {
  id: string
  status: string
  status_reason: string | null
  session_id: string | null
  max_concurrent: number | null
  current_load: number
}

let made = 0

/** `n` new users of role agent, signed in (no agent profile yet: it is made on first use). */
export async function newAgentUsers(cluster: Cluster, n: number): Promise<SeededUser[]> {
  const app = cluster.instances[0]!
  const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
  const rows = await ctx.db.write('test.agents', async (tx) => {
    const users = []
    for (let i = 0; i < n; i++) {
      const id = ++made
      const user = {
        organizationId: cluster.org.org.id,
        email: `agent${id}@acme.test`,
        name: `Agent ${id}`,
        role: 'agent' as const,
        passwordHash: 'x',
      }
      users.push(await insertUser(tx, ctx, user, app.clock.now()))
    }
    return users
  })
  return Promise.all(rows.map((row) => signIn(app, row)))
}

/** `capacities.length` new agents, logged in, each with its capacity. */
export async function newAgents(cluster: Cluster, capacities: (number | null)[]): Promise<SeededUser[]> {
  const agents = await newAgentUsers(cluster, capacities.length)
  for (const [i, agent] of agents.entries()) {
    expect((await cluster.send('POST', '/api/v1/agents/me/login', {}, agent.auth)).status).toBe(200)
    expect((await cluster.send('PATCH', `/api/v1/agents/${agent.user.id}`, { max_concurrent: capacities[i] })).status).toBe(200)
  }
  return agents
}

export async function agentOf(cluster: Cluster, id: string): Promise<AgentView> {
  const response = await cluster.send('GET', `/api/v1/agents/${id}`)
  expect(response.status).toBe(200)
  return json<AgentView>(response)
}

/** The event types recorded about one record (`data[key].id === id`), in order. */
export async function eventsAbout(cluster: Cluster, key: 'agent' | 'call' | 'engagement', id: string): Promise<string[]> {
  const rows = await cluster.instances[0]!.context.db.raw.all<{ type: string; body: string }>(
    'SELECT type, body FROM events WHERE organization_id = ? AND type LIKE ? ORDER BY created_at, id',
    [cluster.org.org.id, `${key}.%`],
  )
  return rows
    .filter((row) => (JSON.parse(row.body) as { data: Record<string, { id?: string }> }).data[key]?.id === id)
    .map((row) => row.type)
}

/** The events of one record, with their data, for an agent's status chain. */
export async function agentMoves(cluster: Cluster, id: string): Promise<{ from: string; to: string }[]> {
  const rows = await cluster.instances[0]!.context.db.raw.all<{ body: string }>(
    "SELECT body FROM events WHERE organization_id = ? AND type = 'agent.status_changed' ORDER BY created_at, id",
    [cluster.org.org.id],
  )
  return rows
    .map((row) => (JSON.parse(row.body) as { data: { agent: { id: string }; from: string; to: string } }).data)
    .filter((data) => data.agent.id === id)
    .map(({ from, to }) => ({ from, to }))
}

/** How many audit records of `event` name `targetId` (GET /api/v1/audit-logs, as the admin reads them). */
export async function audited(cluster: Cluster, event: string, targetId: string): Promise<number> {
  const response = await cluster.send('GET', `/api/v1/audit-logs?event=${event}&page_size=100`)
  expect(response.status).toBe(200)
  const body = await json<{ audit_logs: { target: { id: string | null } | null }[] }>(response)
  return body.audit_logs.filter((entry) => entry.target?.id === targetId).length
}

/** Each response's status, every one of them among `allowed` (no 500, no 503). */
export function statusesOf(responses: Response[], allowed: number[]): number[] {
  const statuses = responses.map((response) => response.status)
  for (const status of statuses) expect(allowed).toContain(status)
  return statuses
}

/** How many of `values` are `value`. */
export const count = <T>(values: readonly T[], value: T) => values.filter((v) => v === value).length

/** `items` split by `which(index)`: those it holds for, then the others. */
export function split<T>(items: readonly T[], which: (i: number) => boolean): [T[], T[]] {
  return [items.filter((_, i) => which(i)), items.filter((_, i) => !which(i))]
}
