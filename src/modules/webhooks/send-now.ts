// A delivery attempt made on request (test, manual retry): written already claimed by the caller's
// transaction, then sent through the real pipeline (SSRF check, signing, recording) by the app's
// delivery service, and returned once it has an outcome.
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { claimLeaseUntil, queueDelivery } from './queue-delivery.ts'
import { type DeliveryRow, findDelivery } from './store/deliveries.ts'
import type { ClaimedDelivery } from './store/dispatch.ts'
import type { DeliveryTrigger } from './table.ts'

export interface ManualAttempt {
  organizationId: string
  webhookId: string
  eventId: string
  eventType: string
  attempt: number
  trigger: Extract<DeliveryTrigger, 'test' | 'retry'>
}

/** Inserts the attempt, claimed by this request (inside the caller's transaction). */
export async function insertClaimedAttempt(tx: Tx, ctx: Ctx, attempt: ManualAttempt, now: number): Promise<ClaimedDelivery> {
  return queueDelivery(tx, {
    ...attempt,
    status: 'pending',
    nextAttemptAt: now,
    leaseUntil: claimLeaseUntil(ctx.config.webhooks.timeoutMs, now),
    now,
  })
}

/** Sends the claimed attempt (after its transaction committed) and returns its record. */
export async function sendClaimed(ctx: Ctx, claimed: ClaimedDelivery): Promise<DeliveryRow> {
  await ctx.deliveries.sendNow(claimed.id)
  const row = await findDelivery(ctx.db, claimed.id)
  if (!row) throw new AppError('NOT_FOUND', 'The webhook was deleted meanwhile')
  return row
}
