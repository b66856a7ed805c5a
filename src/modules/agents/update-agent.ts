// updateAgent: PATCH /agents/{id}, the profile: capacity (max_concurrent), auto_offline, skills and teams.
// Supervisors and above change anyone's; an agent only its own auto_offline (403 naming any other
// field). Audited as agent.updated with the changed fields (the spec has no event for it); a new
// capacity applies the capacity rule at once (agent.status_changed if the agent moves).
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { applyCapacity } from './move-status.ts'
import { agentIdOf, agentInTx, assertVisible, seesOnlyItself } from './profiles.ts'
import { type AgentRow, replaceLabels, saveAgent } from './store.ts'

export interface AgentChanges {
  max_concurrent?: number | null
  auto_offline?: boolean
  skills?: string[]
  teams?: string[]
}

const FIELDS = ['max_concurrent', 'auto_offline', 'skills', 'teams'] as const
/** What an agent may change of its own profile (Chatwoot lets agents turn auto-offline on and off). */
const SELF_FIELDS: readonly string[] = ['auto_offline']

/** Skills and teams are stored trimmed and lowercased, once each, in the order given. */
export function normalizeLabels(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim().toLowerCase()))]
}

export async function updateAgent(ctx: Ctx<UserActor>, input: { id: string; changes: AgentChanges }): Promise<AgentRow> {
  const { actor } = ctx
  const { changes } = input
  const userId = agentIdOf(actor, input.id)
  assertVisible(actor, userId)
  if (seesOnlyItself(actor)) {
    const refused = FIELDS.filter((field) => changes[field] !== undefined && !SELF_FIELDS.includes(field))
    if (refused.length > 0)
      throw new AppError('INSUFFICIENT_PERMISSIONS', `An agent may change only its own auto_offline, not ${refused.join(', ')}`)
  }
  const now = ctx.clock.now()
  return ctx.db.write('agent.update', async (tx) => {
    const before = await agentInTx(tx, actor.organizationId, userId, now)
    const after: AgentRow = {
      ...before,
      ...(changes.max_concurrent !== undefined && { max_concurrent: changes.max_concurrent }),
      ...(changes.auto_offline !== undefined && { auto_offline: changes.auto_offline }),
      ...(changes.skills !== undefined && { skills: JSON.stringify(normalizeLabels(changes.skills)) }),
      ...(changes.teams !== undefined && { teams: JSON.stringify(normalizeLabels(changes.teams)) }),
    }
    const differs: Record<(typeof FIELDS)[number], boolean> = {
      max_concurrent:
        (after.max_concurrent === null ? null : Number(after.max_concurrent)) !==
        (before.max_concurrent === null ? null : Number(before.max_concurrent)),
      auto_offline: Boolean(after.auto_offline) !== Boolean(before.auto_offline),
      skills: after.skills !== before.skills,
      teams: after.teams !== before.teams,
    }
    const changed = FIELDS.filter((field) => differs[field])
    if (changed.length === 0) return before
    const saved = { ...after, updated_at: now }
    await saveAgent(tx, saved)
    if (differs.skills) await replaceLabels(tx, saved, 'skill', JSON.parse(saved.skills) as string[])
    if (differs.teams) await replaceLabels(tx, saved, 'team', JSON.parse(saved.teams) as string[])
    await appendAudit(tx, {
      organizationId: saved.organization_id,
      actor: auditActorOf(actor),
      event: 'agent.updated',
      target: { type: 'agent', id: saved.id },
      details: { changed },
      request: actor.request,
      now,
    })
    return differs.max_concurrent ? applyCapacity(tx, ctx, saved, now) : saved
  })
}
