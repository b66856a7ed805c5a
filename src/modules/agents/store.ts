// The agents module's SQL: profiles, their labels (skills, teams), custom activities, agent sessions,
// the keyset lists, and the reads of other modules' tables it is allowed (documented in the README):
// users (the profile's user summary, who may be an agent), tickets and calls (the load), sessions and
// api_keys (the last request, for the idle logout).
import type { Queries, SqlValue, Tx } from '../../db/database.ts'
import { defineList } from '../../db/list.ts'
import type { AgentActivitiesTable, AgentSessionsTable, AgentsTable } from './table.ts'

export type AgentRow = AgentsTable
export type AgentSessionRow = AgentSessionsTable

// Each sort has its index on (organization_id, column, id) in 0017_agents.sql.
export const AGENT_LIST = defineList('agents', { sorts: ['created_at', 'status_changed_at', 'current_load'] })
export const AGENT_SESSION_LIST = defineList('agent_sessions', { sorts: ['login_at'] })

export function findAgent(db: Queries, organizationId: string, userId: string): Promise<AgentRow | undefined> {
  return db.raw.get<AgentRow>('SELECT * FROM agents WHERE organization_id = ? AND id = ?', [organizationId, userId])
}

/**
 * The profile, its row locked until the transaction ends (PostgreSQL): every read-modify-write of an
 * agent (status, session, profile, load, capacity) reads it this way, so two never interleave.
 */
export function lockAgent(tx: Tx, organizationId: string, userId: string): Promise<AgentRow | undefined> {
  return tx.raw.get<AgentRow>(`SELECT * FROM agents WHERE organization_id = ? AND id = ?${tx.forUpdate}`, [organizationId, userId])
}

/**
 * Locks the profile only if it may take one more piece of work (logged in, in an available activity,
 * under capacity), checked on the row as it is once locked: a waiter sees the load its predecessor left.
 */
export async function lockAgentWithRoom(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  const row = await tx.raw.get<{ id: string }>(
    `SELECT id FROM agents WHERE organization_id = ? AND id = ? AND session_id IS NOT NULL AND available = ?
      AND (max_concurrent IS NULL OR current_load < max_concurrent)${tx.forUpdate}`,
    [organizationId, userId, true],
  )
  return row !== undefined
}

/**
 * Inserts the profile unless the user has one: false when another transaction made it first (PostgreSQL
 * waits for that one to commit). One statement, so first uses at once never fail on the primary key.
 */
export async function insertAgentIfAbsent(tx: Tx, row: AgentRow): Promise<boolean> {
  const result = await tx.kysely
    .insertInto('agents')
    .values(row)
    .onConflict((conflict) => conflict.columns(['organization_id', 'id']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return result !== undefined
}

export async function saveAgent(tx: Tx, row: AgentRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('agents').set(columns).where('organization_id', '=', organization_id).where('id', '=', id).execute()
}

/** Only the last-seen time: no profile change (updated_at stays). */
export async function touchAgent(tx: Tx, agent: Pick<AgentRow, 'id' | 'organization_id'>, at: number): Promise<void> {
  await tx.raw.run(
    'UPDATE agents SET last_seen_at = ? WHERE organization_id = ? AND id = ? AND (last_seen_at IS NULL OR last_seen_at < ?)',
    [at, agent.organization_id, agent.id, at],
  )
}

export async function replaceLabels(tx: Tx, agent: Pick<AgentRow, 'id' | 'organization_id'>, kind: 'skill' | 'team', values: string[]) {
  await tx.raw.run('DELETE FROM agent_labels WHERE agent_id = ? AND kind = ?', [agent.id, kind])
  if (values.length === 0) return
  await tx.kysely
    .insertInto('agent_labels')
    .values(values.map((value) => ({ agent_id: agent.id, organization_id: agent.organization_id, kind, value })))
    .execute()
}

/** List condition: agents holding `value` as a skill or team. */
export function labelCondition(kind: 'skill' | 'team', value: string) {
  return {
    sql: 'agents.id IN (SELECT agent_id FROM agent_labels WHERE organization_id = agents.organization_id AND kind = ? AND value = ?)',
    params: [kind, value] as SqlValue[],
  }
}

/** List condition: agents whose user is active and in one of `roles`. */
export function agentRoleCondition(roles: readonly string[]) {
  return {
    sql: `agents.id IN (SELECT id FROM users WHERE organization_id = agents.organization_id AND status = 'active' AND role IN (${roles.map(() => '?').join(', ')}))`,
    params: [...roles] as SqlValue[],
  }
}

export interface UserSummary {
  id: string
  name: string
  email: string
  role: string
  status: string
}

/** The users behind `ids` (the users module's table, read for the agent's user summary). */
export async function userSummaries(db: Queries, organizationId: string, ids: readonly string[]): Promise<Map<string, UserSummary>> {
  if (ids.length === 0) return new Map()
  const rows = await db.raw.all<UserSummary>(
    `SELECT id, name, email, role, status FROM users WHERE organization_id = ? AND id IN (${ids.map(() => '?').join(', ')})`,
    [organizationId, ...ids],
  )
  return new Map(rows.map((row) => [row.id, row]))
}

/** Active users of `roles` without an agent profile (at most `limit`). */
export async function usersWithoutProfile(db: Queries, organizationId: string, roles: readonly string[], limit: number): Promise<string[]> {
  const rows = await db.raw.all<{ id: string }>(
    `SELECT id FROM users WHERE organization_id = ? AND status = 'active' AND role IN (${roles.map(() => '?').join(', ')})
      AND NOT EXISTS (SELECT 1 FROM agents WHERE agents.organization_id = users.organization_id AND agents.id = users.id) LIMIT ?`,
    [organizationId, ...roles, limit],
  )
  return rows.map((row) => row.id)
}

// The tickets module's open statuses are all but solved and closed; the calls module's active ones are
// queued, ringing and in_progress; the engagements module's sessions count while active or in wrap-up.
// Each count is served by an index on (organization_id, person, status).
const LOAD = `SELECT
  (SELECT count(*) FROM tickets WHERE organization_id = ? AND assignee_id = ? AND status NOT IN ('solved', 'closed'))
  + (SELECT count(*) FROM calls WHERE organization_id = ? AND agent_id = ? AND status IN ('queued', 'ringing', 'in_progress'))
  + (SELECT count(*) FROM engagements WHERE organization_id = ? AND assignee_id = ? AND status IN ('active', 'wrap_up')) AS n`

/** Open tickets assigned to the user plus its active calls and its active and wrap-up sessions. */
export async function countLoad(db: Queries, organizationId: string, userId: string): Promise<number> {
  const row = await db.raw.get<{ n: number | string }>(LOAD, [organizationId, userId, organizationId, userId, organizationId, userId])
  return Number(row?.n ?? 0)
}

// Custom activities.

export function findCustomActivity(db: Queries, organizationId: string, key: string): Promise<AgentActivitiesTable | undefined> {
  return db.raw.get<AgentActivitiesTable>('SELECT * FROM agent_activities WHERE organization_id = ? AND activity_key = ?', [
    organizationId,
    key,
  ])
}

export function customActivities(db: Queries, organizationId: string): Promise<AgentActivitiesTable[]> {
  return db.raw.all<AgentActivitiesTable>('SELECT * FROM agent_activities WHERE organization_id = ? ORDER BY created_at, activity_key', [
    organizationId,
  ])
}

/** The custom activity, its row locked: an agent entering it and its deletion never interleave. */
export function lockCustomActivity(tx: Tx, organizationId: string, key: string): Promise<AgentActivitiesTable | undefined> {
  return tx.raw.get<AgentActivitiesTable>(`SELECT * FROM agent_activities WHERE organization_id = ? AND activity_key = ?${tx.forUpdate}`, [
    organizationId,
    key,
  ])
}

export async function insertActivity(tx: Tx, row: AgentActivitiesTable): Promise<void> {
  await tx.kysely.insertInto('agent_activities').values(row).execute()
}

export async function deleteActivityRow(tx: Tx, organizationId: string, key: string): Promise<void> {
  await tx.raw.run('DELETE FROM agent_activities WHERE organization_id = ? AND activity_key = ?', [organizationId, key])
}

/** How many agents are in the activity, or return to it after a capacity busy. */
export async function agentsInActivity(db: Queries, organizationId: string, key: string): Promise<number> {
  const row = await db.raw.get<{ n: number | string }>(
    'SELECT count(*) AS n FROM agents WHERE organization_id = ? AND (status = ? OR resume_status = ?)',
    [organizationId, key, key],
  )
  return Number(row?.n ?? 0)
}

// Agent sessions.

export async function insertAgentSession(tx: Tx, row: AgentSessionRow): Promise<void> {
  await tx.kysely.insertInto('agent_sessions').values(row).execute()
}

export function findAgentSession(db: Queries, organizationId: string, id: string): Promise<AgentSessionRow | undefined> {
  return db.raw.get<AgentSessionRow>('SELECT * FROM agent_sessions WHERE organization_id = ? AND id = ?', [organizationId, id])
}

export async function endAgentSession(tx: Tx, session: AgentSessionRow): Promise<void> {
  await tx.raw.run('UPDATE agent_sessions SET logout_at = ?, logout_reason = ? WHERE organization_id = ? AND id = ?', [
    session.logout_at,
    session.logout_reason,
    session.organization_id,
    session.id,
  ])
}

// The idle logout.

/** Logged-in agents of every organization after `afterId`, by id (the cron loop's walk). */
export function loggedInAgents(db: Queries, afterId: string, limit: number): Promise<AgentRow[]> {
  return db.raw.all<AgentRow>('SELECT * FROM agents WHERE session_id IS NOT NULL AND id > ? ORDER BY id LIMIT ?', [afterId, limit])
}

/**
 * The latest request time of each user, as the auth module records it: the last use of its sessions
 * (sign-ins, OAuth) and of its personal access tokens, each written at most once per throttle interval.
 */
export async function lastRequestTimes(db: Queries, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map()
  const marks = userIds.map(() => '?').join(', ')
  const rows = await db.raw.all<{ user_id: string; at: number | string | null }>(
    `SELECT user_id, max(last_used_at) AS at FROM sessions WHERE user_id IN (${marks}) GROUP BY user_id
      UNION ALL SELECT user_id, max(last_used_at) AS at FROM api_keys WHERE user_id IN (${marks}) GROUP BY user_id`,
    [...userIds, ...userIds],
  )
  const latest = new Map<string, number>()
  for (const row of rows) {
    if (row.at === null) continue
    const at = Number(row.at)
    if (at > (latest.get(row.user_id) ?? 0)) latest.set(row.user_id, at)
  }
  return latest
}
