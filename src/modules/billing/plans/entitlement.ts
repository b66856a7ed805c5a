// What a subscription entitles its organization to: its plan while trialing, active or past_due (the
// grace period), Free otherwise; applied by moving the organization's plan (its request rates follow
// on the very next request).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { changePlanInTx } from '../../rate-limits/index.ts'
import type { PlanId, SubscriptionStatus } from '../table.ts'

const ENTITLED: ReadonlySet<SubscriptionStatus> = new Set(['trialing', 'active', 'past_due'])

/** The plan a subscription in `status` on `plan` gives its organization. */
export function entitledPlan(status: SubscriptionStatus, plan: PlanId): PlanId {
  return ENTITLED.has(status) ? plan : 'free'
}

/** Moves the organization to `plan` in the caller's transaction (nothing happens when it is already on it). */
export async function applyEntitlementInTx(tx: Tx, ctx: Ctx, input: { organizationId: string; plan: PlanId; now: number }): Promise<void> {
  await changePlanInTx(tx, ctx, { organizationId: input.organizationId, plan: input.plan, now: input.now, reason: 'subscription' })
}
