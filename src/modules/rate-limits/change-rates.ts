// Operator verbs behind `switchboard org set-plan` and `org set-limits`: change an organization's plan
// or its own request rates (a subscription moves the plan too, changePlanInTx). The running server reads
// both, and the plan's rates in the plans table, on every request, so they apply at once.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { PLAN_RATES } from './plans.ts'
import { findOrgRates, lockOrgRates, type OrgRatesRow, updateOrgRates } from './store.ts'

export interface RatesView {
  organization_id: string
  plan: string
  /** Set by set-limits; null: the plan's. */
  rate_limit_per_minute: number | null
  rate_limit_per_day: number | null
  /** What one user gets (these, else the plan's in the plans table); the organization's budget is these times ORG_LIMIT_FACTOR. */
  effective: { per_minute: number; per_day: number }
}

function view(org: OrgRatesRow): RatesView {
  const perMinute = org.rate_limit_per_minute === null ? null : Number(org.rate_limit_per_minute)
  const perDay = org.rate_limit_per_day === null ? null : Number(org.rate_limit_per_day)
  // The plan's row, or (never the case: the four are seeded) Free's seeded rates.
  const planPerMinute = org.plan_rate_limit_per_minute === null ? PLAN_RATES.free.perMinute : Number(org.plan_rate_limit_per_minute)
  const planPerDay = org.plan_rate_limit_per_day === null ? PLAN_RATES.free.perDay : Number(org.plan_rate_limit_per_day)
  return {
    organization_id: org.id,
    plan: org.plan,
    rate_limit_per_minute: perMinute,
    rate_limit_per_day: perDay,
    effective: { per_minute: perMinute ?? planPerMinute, per_day: perDay ?? planPerDay },
  }
}

function changes(before: RatesView, after: RatesView): Record<string, unknown> {
  return { before: { plan: before.plan, ...before.effective }, after: { plan: after.plan, ...after.effective } }
}

/** An organization's plan and rates, undefined when there is no such organization. */
export async function getOrganizationRates(ctx: Ctx, organizationId: string): Promise<RatesView | undefined> {
  const org = await findOrgRates(ctx.db, organizationId)
  return org && view(org)
}

/**
 * Moves an organization to `plan`. Values set by set-limits are kept for Enterprise (whose rates they
 * are) and dropped for the other plans, whose own rates then apply.
 */
export async function changePlan(
  ctx: Ctx,
  input: { organizationId: string; plan: string },
): Promise<{ before: RatesView; after: RatesView } | undefined> {
  const now = ctx.clock.now()
  return ctx.db.write('organization.change_plan', (tx) => changePlanInTx(tx, ctx, { ...input, now }))
}

/**
 * changePlan in the caller's transaction (a subscription's change moves its organization's plan with it).
 * A plan that is already the organization's changes nothing and records nothing.
 */
export async function changePlanInTx(
  tx: Tx,
  ctx: Ctx,
  input: { organizationId: string; plan: string; now: number; reason?: string },
): Promise<{ before: RatesView; after: RatesView } | undefined> {
  const { organizationId, plan, now } = input
  // Locked: "already this plan" and the audit record's before are read, then written.
  const found = await lockOrgRates(tx, organizationId)
  if (!found) return undefined
  const before = view(found)
  if (input.reason !== undefined && found.plan === plan) return { before, after: before }
  const keep = plan === 'enterprise'
  const after = view((await updateOrgRates(tx, organizationId, { plan, ...(keep ? {} : { perMinute: null, perDay: null }) }, now))!)
  const target = { type: 'organization', id: organizationId }
  await appendAudit(tx, {
    organizationId,
    actor: auditActorOf(ctx.actor),
    event: 'organization.plan_changed',
    target,
    details: { ...changes(before, after), ...(input.reason === undefined ? {} : { reason: input.reason }) },
    now,
  })
  return { before, after }
}

/** Sets (a number), keeps (undefined) or clears (null: back to the plan's) each of the organization's rates. */
export async function changeRates(
  ctx: Ctx,
  input: { organizationId: string; perMinute?: number | null; perDay?: number | null },
): Promise<RatesView | undefined> {
  const now = ctx.clock.now()
  const { organizationId } = input
  return ctx.db.write('organization.change_rates', async (tx) => {
    // Locked: the audit record's before is what this change replaced.
    const found = await lockOrgRates(tx, organizationId)
    if (!found) return undefined
    const after = view((await updateOrgRates(tx, organizationId, { perMinute: input.perMinute, perDay: input.perDay }, now))!)
    const target = { type: 'organization', id: organizationId }
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'organization.rate_limits_changed',
      target,
      details: changes(view(found), after),
      now,
    })
    return after
  })
}
