// sendNow: a delivery attempt made on request (test, manual retry): written already claimed, sent
// through the real pipeline (SSRF check, signing, recording), and returned once it has an outcome.
import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../context.ts'
import type { Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { deliveryJson } from './delivery-json.ts'
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
  const row = {
    id: prefixedId('dlv'),
    organization_id: attempt.organizationId,
    webhook_id: attempt.webhookId,
    event_id: attempt.eventId,
    event_type: attempt.eventType,
    attempt: attempt.attempt,
    trigger: attempt.trigger,
    status: 'pending' as const,
    next_attempt_at: now,
    lease_until: now + 2 * deps.config.webhooks.timeoutMs + 5_000,
    created_at: now,
  }
  tx.insert(webhookDeliveries).values(row).run()
  return row
}

export async function sendClaimed(deps: Pick<AppDeps, 'db' | 'webhooks'>, claimed: ClaimedDelivery) {
  await deps.webhooks.deliver(claimed)
  const row = deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, claimed.id)).get()
  if (!row) throw new AppError('NOT_FOUND', 'The webhook was deleted meanwhile')
  return deliveryJson(row)
}

