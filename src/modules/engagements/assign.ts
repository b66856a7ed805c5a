// Routing: assignInTx gives a session to a user, or with "auto" to the organization's available agent
// with the lowest load and the required skill (store.pickAgent, then the agent's place claimed on its
// locked row); a queued session becomes active. The assign verb (POST /engagements/{id}/assign) runs it
// in its own transaction; creation runs it too.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { claimRoomInTx } from '../agents/index.ts'
import { auditEngagement, refreshAgentsOf } from './events.ts'
import { assertActiveUser } from './fields.ts'
import { assertEngagementTransition } from './lifecycle.ts'
import { type EngagementRow, pickAgent, saveEngagement } from './store.ts'
import { assertMayTake, lockVisibleEngagement } from './visibility.ts'

/** The assignee given, or the routing's pick for "auto"; undefined when no agent is available. */
export async function assigneeFor(
  tx: Tx,
  row: Pick<EngagementRow, 'organization_id' | 'required_skill'>,
  given: string,
): Promise<string | undefined> {
  if (given === 'auto') return routeInTx(tx, row.organization_id, row.required_skill)
  await assertActiveUser(tx, row.organization_id, given)
  return given
}

/** The routing's pick, its place claimed: undefined when no agent has room. */
async function routeInTx(tx: Tx, organizationId: string, skill: string | null): Promise<string | undefined> {
  const passed: string[] = []
  for (;;) {
    const candidate = await pickAgent(tx, organizationId, skill, passed)
    if (candidate === undefined) return undefined
    // Never past capacity: the candidate's row is locked and checked again (another routing may have
    // taken its last place since the pick); the lock is held until this session and its load commit.
    if (await claimRoomInTx(tx, { organizationId, userId: candidate })) return candidate
    passed.push(candidate)
  }
}

/** The row given to `assigneeId` (queued -> active), saved, the loads recomputed, audited. */
export async function assignInTx(tx: Tx, ctx: Ctx, row: EngagementRow, assigneeId: string, now: number, how: 'auto' | 'manual') {
  if (row.status === 'closed') assertEngagementTransition('closed', 'active', 'assign')
  // queued -> active starts the inactivity clock (as every move into active does, move-engagement.ts).
  const after: EngagementRow =
    row.status === 'queued'
      ? { ...row, assignee_id: assigneeId, status: 'active', last_activity_at: now, updated_at: now }
      : { ...row, assignee_id: assigneeId, updated_at: now }
  await saveEngagement(tx, after)
  await refreshAgentsOf(tx, ctx, row, after, now)
  await auditEngagement(tx, ctx, 'assigned', after, now, { from: row.assignee_id, to: assigneeId, how })
  return after
}

export async function assignEngagement(ctx: Ctx<UserActor>, input: { id: string; assignee_id: string }): Promise<EngagementRow> {
  const { actor } = ctx
  assertMayTake(actor, input.assignee_id)
  const now = ctx.clock.now()
  return ctx.db.write('engagement.assign', async (tx) => {
    // Locked: two assignments at once hand the session over one after the other (one load counts it).
    const row = await lockVisibleEngagement(tx, actor, input.id)
    if (row.status === 'closed') assertEngagementTransition('closed', 'active', 'assign')
    const assigneeId = await assigneeFor(tx, row, input.assignee_id)
    if (assigneeId === undefined)
      throw new AppError(
        'CONFLICT',
        `No agent is available${row.required_skill ? ` with the skill ${row.required_skill}` : ''}: logged in, in an available activity and under capacity`,
      )
    if (assigneeId === row.assignee_id && row.status !== 'queued') return row
    return assignInTx(tx, ctx, row, assigneeId, now, input.assignee_id === 'auto' ? 'auto' : 'manual')
  })
}
