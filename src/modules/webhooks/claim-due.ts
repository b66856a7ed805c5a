// claimDue: the dispatcher's claim, inside the caller's write transaction: which webhooks have pending
// deliveries (a skip scan of the per-webhook due indexes, one index seek per such webhook), then, for
// the oldest due first, up to its free slots of its own due rows, read with their targets and leased.
// First attempts for every webhook before any retry, so one dead receiver's retries cannot starve
// the others; and no query walks another webhook's backlog, so a webhook that holds 100,000 due rows
// at its cap costs the others nothing. Several instances: on PostgreSQL the due rows are read FOR
// UPDATE SKIP LOCKED (store/dispatch.ts), so claims running at once take different rows; the claim of
// an instance that died is due again for any instance once its lease has run out.
import type { Tx } from '../../db/database.ts'
import { EventBodies } from './event-bodies.ts'
import {
  CLAIM_KINDS,
  type ClaimedDelivery,
  type DeliveryTarget,
  type DueDelivery,
  dueRowsOf,
  leaseDeliveries,
  webhooksWithDue,
} from './store/dispatch.ts'

export interface ClaimLimits {
  /** Deliveries to claim at most, in all. */
  free: number
  /** Deliveries to claim at most for this webhook. */
  freeFor(webhookId: string): number
}

/** Claims up to `limits.free` due deliveries, leased until `leaseUntil`. */
export async function claimDue(
  tx: Tx,
  now: number,
  leaseUntil: number,
  limits: ClaimLimits,
  bodies = new EventBodies(),
): Promise<DueDelivery[]> {
  const due: Array<ClaimedDelivery & Omit<DeliveryTarget, 'body'>> = []
  const taken = new Map<string, number>()
  for (const kind of CLAIM_KINDS) {
    if (due.length >= limits.free) break
    const waiting = (await webhooksWithDue(tx, kind)).filter((w) => w.due_at <= now).sort((a, b) => a.due_at - b.due_at)
    for (const webhook of waiting) {
      const room = Math.min(limits.free - due.length, limits.freeFor(webhook.id) - (taken.get(webhook.id) ?? 0))
      if (room <= 0) continue
      const target = {
        url: webhook.url,
        secret_sealed: webhook.secret_sealed,
        enabled: webhook.enabled,
        allowed_cidrs: webhook.allowed_cidrs,
      }
      const rows = await dueRowsOf(tx, kind, webhook.id, now, room)
      for (const row of rows) due.push(Object.assign(row, target))
      taken.set(webhook.id, (taken.get(webhook.id) ?? 0) + rows.length)
      if (due.length >= limits.free) break
    }
  }
  if (due.length === 0) return []
  const claimed = await bodies.fill(tx, due)
  await leaseDeliveries(
    tx,
    claimed.map((row) => row.id),
    leaseUntil,
  )
  return claimed
}
