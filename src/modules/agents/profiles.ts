// Which users are agents and who sees which: every active user whose role may change agent status
// (agent, supervisor, admin, super admin) has an agent profile, created on first use (its first login,
// a read or change of it, a list of the agents); an agent (SCOPES agent: 'self') sees only its own, and
// another's profile is 404 to it, exactly like one that does not exist.
import type { Ctx, UserActor } from '../../context.ts'
import type { Queries, Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { hasPermission, ROLES, roleGrants, SCOPES } from '../access/index.ts'
import { type AgentRow, countLoad, findAgent, insertAgentIfAbsent, lockAgent, userSummaries, usersWithoutProfile } from './store.ts'

/** The roles whose users are agents: those that may change an agent's status. */
export const AGENT_ROLES = ROLES.filter((role) => hasPermission(roleGrants(role), 'agent:update'))

/** Capacity of a new profile: open tickets plus active calls before the agent becomes busy. */
export const DEFAULT_MAX_CONCURRENT = 5

export function seesOnlyItself(actor: UserActor): boolean {
  return SCOPES[actor.role]?.agent === 'self'
}

/** `me` is the caller. */
export function agentIdOf(actor: UserActor, id: string): string {
  return id === 'me' ? actor.userId : id
}

const notFound = () => new AppError('NOT_FOUND', 'No such agent')

/** 404 for an id the actor may not see (another agent's, to an agent). */
export function assertVisible(actor: UserActor, userId: string): void {
  if (seesOnlyItself(actor) && userId !== actor.userId) throw notFound()
}

/** Whether the user may have a profile: an active user of the organization in an agent role. */
async function isEligible(db: Queries, organizationId: string, userId: string): Promise<boolean> {
  const user = (await userSummaries(db, organizationId, [userId])).get(userId)
  return user !== undefined && user.status === 'active' && (AGENT_ROLES as string[]).includes(user.role)
}

function newAgentRow(organizationId: string, userId: string, load: number, now: number): AgentRow {
  return {
    id: userId,
    organization_id: organizationId,
    status: 'offline',
    available: false,
    status_reason: null,
    resume_status: null,
    status_changed_at: now,
    session_id: null,
    max_concurrent: DEFAULT_MAX_CONCURRENT,
    current_load: load,
    auto_offline: true,
    skills: '[]',
    teams: '[]',
    last_seen_at: null,
    created_at: now,
    updated_at: now,
  }
}

/**
 * The user's profile in the transaction, locked, created (offline) if the user may be an agent; else 404.
 * Two first uses at once: one profile (the insert does nothing when another made it; that one is read).
 */
export async function agentInTx(tx: Tx, organizationId: string, userId: string, now: number): Promise<AgentRow> {
  // One status, one open session, one load per agent: its verbs take turns on its row.
  const found = await lockAgent(tx, organizationId, userId)
  if (found) return found
  if (!(await isEligible(tx, organizationId, userId))) throw notFound()
  const row = newAgentRow(organizationId, userId, await countLoad(tx, organizationId, userId), now)
  if (await insertAgentIfAbsent(tx, row)) return row
  return (await lockAgent(tx, organizationId, userId))!
}

/** The profile the actor asks for by id (or `me`), created on first use; 404 if it may not see it. */
export async function getVisibleAgent(ctx: Ctx<UserActor>, id: string): Promise<AgentRow> {
  const { actor } = ctx
  const userId = agentIdOf(actor, id)
  assertVisible(actor, userId)
  const found = await findAgent(ctx.db, actor.organizationId, userId)
  if (found) return found
  const now = ctx.clock.now()
  return ctx.db.write('agent.create', (tx) => agentInTx(tx, actor.organizationId, userId, now))
}

/** Gives every agent of the organization its profile before a list (one read when none is missing). */
export async function ensureProfiles(ctx: Ctx<UserActor>): Promise<void> {
  const { organizationId } = ctx.actor
  if ((await usersWithoutProfile(ctx.db, organizationId, AGENT_ROLES, 1)).length === 0) return
  const now = ctx.clock.now()
  await ctx.db.write('agent.create', async (tx) => {
    // One profile per user, whoever else makes them meanwhile (a read, another list): the insert skips theirs.
    for (const userId of await usersWithoutProfile(tx, organizationId, AGENT_ROLES, 10_000))
      await insertAgentIfAbsent(tx, newAgentRow(organizationId, userId, await countLoad(tx, organizationId, userId), now))
  })
}
