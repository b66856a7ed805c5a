// sendNow: a delivery attempt made on request (test, manual retry): written already claimed, sent
// through the real pipeline (SSRF check, signing, recording), and returned once it has an outcome.
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../context.ts'
import { connectionOf, type Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { deliveryJson } from './delivery-json.ts'
import { claimLeaseUntil, queueDelivery } from './queue-delivery.ts'
import type { ClaimedDelivery } from './record-outcome.ts'
import { webhookDeliveries, type DeliveryTrigger } from './table.ts'

export interface ManualAttempt {
  organizationId: string
  webhookId: string
  eventId: string
  eventType: string
  attempt: number
  trigger: Extract<DeliveryTrigger, 'test' | 'retry'>
}

/** Inserts the attempt claimed by this request (inside the caller's transaction). */
export function insertClaimedAttempt(tx: Tx, deps: Pick<AppDeps, 'config'>, attempt: ManualAttempt, now: number): ClaimedDelivery {
  return queueDelivery(connectionOf(tx), { ...attempt, status: 'pending', nextAttemptAt: now, leaseUntil: claimLeaseUntil(deps.config.webhooks.timeoutMs, now), now })
}

export async function sendClaimed(deps: Pick<AppDeps, 'db' | 'webhooks'>, claimed: ClaimedDelivery) {
  await deps.webhooks.deliver(claimed)
  const row = deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, claimed.id)).get()
  if (!row) throw new AppError('NOT_FOUND', 'The webhook was deleted meanwhile')
  return deliveryJson(row)
}

