// The organization's activities: the built-in ones (unchangeable) and its own, created with a key, a
// name and an `available` flag that never changes afterwards (Twilio TaskRouter's rule); a custom
// activity is deleted only while no agent is in it (or would return to it after a capacity busy).
// Audited as agent_activity.created / agent_activity.deleted (the spec has no event for them).
import type { Ctx, UserActor } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { type Activity, BUILT_IN_STATUSES, builtInActivity, customActivity, isBuiltIn, MAX_CUSTOM_ACTIVITIES } from '../activities.ts'
import { agentsInActivity, customActivities, deleteActivityRow, findCustomActivity, insertActivity, lockCustomActivity } from '../store.ts'

export async function listActivities(ctx: Ctx<UserActor>): Promise<Activity[]> {
  const own = await customActivities(ctx.db, ctx.actor.organizationId)
  return [...BUILT_IN_STATUSES.map(builtInActivity), ...own.map(customActivity)]
}

async function audit(ctx: Ctx<UserActor>, tx: Parameters<typeof appendAudit>[0], event: string, key: string, now: number) {
  await appendAudit(tx, {
    organizationId: ctx.actor.organizationId,
    actor: auditActorOf(ctx.actor),
    event,
    target: { type: 'agent_activity', id: key },
    request: ctx.actor.request,
    now,
  })
}

export async function createActivity(ctx: Ctx<UserActor>, input: { key: string; name: string; available: boolean }): Promise<Activity> {
  const { organizationId } = ctx.actor
  const now = ctx.clock.now()
  if (isBuiltIn(input.key))
    throw new AppError('CONFLICT', `${input.key} is a built-in activity`, { errors: [{ field: 'key', message: 'is taken' }] })
  return ctx.db.write('agent_activity.create', async (tx) => {
    // At most MAX_CUSTOM_ACTIVITIES: creations in one organization count one after the other (the key's
    // uniqueness alone is the primary key's, whose violation re-runs this block into the 409 below).
    await tx.lock(`agent-activities:${organizationId}`)
    if (await findCustomActivity(tx, organizationId, input.key))
      throw new AppError('CONFLICT', `The organization has an activity ${input.key} already`, {
        errors: [{ field: 'key', message: 'is taken' }],
      })
    if ((await customActivities(tx, organizationId)).length >= MAX_CUSTOM_ACTIVITIES)
      throw new AppError('CONFLICT', `An organization has at most ${MAX_CUSTOM_ACTIVITIES} custom activities`)
    const row = {
      organization_id: organizationId,
      activity_key: input.key,
      name: input.name.trim(),
      available: input.available,
      created_at: now,
    }
    await insertActivity(tx, row)
    await audit(ctx, tx, 'agent_activity.created', input.key, now)
    return customActivity(row)
  })
}

export async function deleteActivity(ctx: Ctx<UserActor>, input: { key: string }): Promise<void> {
  const { organizationId } = ctx.actor
  const now = ctx.clock.now()
  if (isBuiltIn(input.key)) throw new AppError('CONFLICT', `${input.key} is a built-in activity: it cannot be deleted`)
  await ctx.db.write('agent_activity.delete', async (tx) => {
    // Locked before counting who is in it: an agent entering it meanwhile (it locks the row too) is counted.
    if (!(await lockCustomActivity(tx, organizationId, input.key))) throw new AppError('NOT_FOUND', 'No such activity')
    const inUse = await agentsInActivity(tx, organizationId, input.key)
    if (inUse > 0) throw new AppError('CONFLICT', `${inUse} agent(s) are in the activity ${input.key}: move them first`)
    await deleteActivityRow(tx, organizationId, input.key)
    await audit(ctx, tx, 'agent_activity.deleted', input.key, now)
  })
}
