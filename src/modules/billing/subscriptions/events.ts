// The subscription events (catalog group `billing`), each recorded in the transaction of the change
// with the full subscription under data.subscription; and the entitlement that follows every change
// of status or plan (the organization's plan, so its request rates, on the very next request).
import type { Ctx } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { recordChange } from '../../events/index.ts'
import { applyEntitlementInTx, entitledPlan } from '../plans/entitlement.ts'
import { type SubscriptionJson, subscriptionView } from './subscription-json.ts'
import type { SubscriptionRow } from './store.ts'

export type SubscriptionEventType = 'subscription.created' | 'subscription.updated' | 'subscription.canceled'

/** Records the event (the full subscription in data) and applies the entitlement; returns the JSON. */
export async function recordSubscriptionEvent(
  tx: Tx,
  ctx: Ctx,
  type: SubscriptionEventType,
  row: SubscriptionRow,
  now: number,
): Promise<SubscriptionJson> {
  await applyEntitlementInTx(tx, ctx, { organizationId: row.organization_id, plan: entitledPlan(row.status, row.plan_id), now })
  const json = await subscriptionView(tx, row)
  await recordChange(tx, ctx, {
    type,
    organizationId: row.organization_id,
    target: { type: 'subscription', id: row.id },
    data: { subscription: json },
    details: { status: row.status, plan: row.plan_id },
    now,
  })
  return json
}
