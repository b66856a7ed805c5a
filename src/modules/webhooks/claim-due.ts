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
  releaseClaims,
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
  // Statements started together go down one pipeline on PostgreSQL (a round trip for all, while the
  // writer lock is held). Both kinds' webhooks are read at once: plain reads, the retries' only wasted
  // when the first attempts fill every slot.
  const waitingOfKind = await Promise.all(CLAIM_KINDS.map((kind) => webhooksWithDue(tx, kind)))
  for (const [k, kind] of CLAIM_KINDS.entries()) {
    if (due.length >= limits.free) break
    const waiting = waitingOfKind[k]!.filter((w) => w.due_at <= now).sort((a, b) => a.due_at - b.due_at)
    const rooms = waiting.map((w) => Math.max(0, limits.freeFor(w.id) - (taken.get(w.id) ?? 0)))
    // When all of them fit in what is left in all, no webhook's share depends on what the ones before it
    // found: their claims are started together. Otherwise one after another, the oldest due first.
    const together = rooms.reduce((sum, room) => sum + room, 0) <= limits.free - due.length
    const found = together
      ? await Promise.all(waiting.map((webhook, i) => (rooms[i]! > 0 ? dueRowsOf(tx, kind, webhook.id, now, rooms[i]!) : [])))
      : undefined
    for (const [i, webhook] of waiting.entries()) {
      const room = Math.min(limits.free - due.length, rooms[i]!)
      if (room <= 0) continue
      const rows = found ? found[i]! : await dueRowsOf(tx, kind, webhook.id, now, room)
      const target = {
        url: webhook.url,
        secret_sealed: webhook.secret_sealed,
        enabled: webhook.enabled,
        allowed_cidrs: webhook.allowed_cidrs,
      }
      for (const row of rows) due.push(Object.assign(row, target))
      taken.set(webhook.id, (taken.get(webhook.id) ?? 0) + rows.length)
      if (due.length >= limits.free) break
    }
  }
  if (due.length === 0) return []
  // Leased together with reading the bodies; a row whose event is gone (it has no body) is given back.
  const ids = due.map((row) => row.id)
  const [claimed] = await Promise.all([bodies.fill(tx, due), leaseDeliveries(tx, ids, leaseUntil)])
  if (claimed.length < due.length) {
    const kept = new Set(claimed.map((row) => row.id))
    await releaseClaims(
      tx,
      ids.filter((id) => !kept.has(id)),
    )
  }
  return claimed
}
