// The organization's subscription read, and POST /billing/subscription: subscribes when the
// organization has no current subscription, changes it otherwise — two requests at once never make two
// (the unique index of current subscriptions), two changes never start from the same old subscription
// (its row lock). The invoice it made is collected after commit, and the answer is
// the subscription as it is after that attempt.
import type { Ctx, UserActor } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import { changeSubscriptionInTx } from './change-subscription.ts'
import { createSubscriptionInTx } from './create-subscription.ts'
import type { SubscribeInput } from './fields.ts'
import { collectIssued } from './invoicing.ts'
import { findCurrentSubscription, findSubscriptionById, lockCurrentSubscription } from './store.ts'
import { type SubscriptionJson, subscriptionView } from './subscription-json.ts'

export const NO_SUBSCRIPTION =
  'The organization has no subscription: it is on the Free plan (or the plan the operator set). POST /api/v1/billing/subscription subscribes.'

export async function getSubscription(ctx: Ctx<UserActor>): Promise<SubscriptionJson> {
  const row = await findCurrentSubscription(ctx.db, ctx.actor.organizationId)
  if (!row) throw new AppError('NOT_FOUND', NO_SUBSCRIPTION)
  return subscriptionView(ctx.db, row)
}

/** The subscription by id as it is now (after a collection attempt), as JSON. */
export async function subscriptionNow(ctx: Ctx, id: string): Promise<SubscriptionJson> {
  return subscriptionView(ctx.db, (await findSubscriptionById(ctx.db, id))!)
}

export async function subscribe(ctx: Ctx<UserActor>, input: SubscribeInput): Promise<{ created: boolean; subscription: SubscriptionJson }> {
  const organizationId = ctx.actor.organizationId
  const now = ctx.clock.now()
  const saved = await ctx.db.write('subscription.save', async (tx) => {
    // Changes one after the other: the current row locked. None yet: two creations at once both insert,
    // subscriptions_org_current refuses the second (23505), whose block runs again and finds the first.
    const current = await lockCurrentSubscription(tx, organizationId)
    if (!current) return { created: true, ...(await createSubscriptionInTx(tx, ctx, organizationId, input, now)) }
    return { created: false, ...(await changeSubscriptionInTx(tx, ctx, current, input, now)) }
  })
  await collectIssued(ctx, saved.issued)
  return { created: saved.created, subscription: await subscriptionNow(ctx, saved.row.id) }
}
