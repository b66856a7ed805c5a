// What other modules' records do when the contact or ticket they name is deleted or merged away. The
// referred module (the CRM, tickets) must not import its referrers (they import it), so each referring
// module brings its Referrer and runtime.ts lists them once, as it lists the event subscribers.
import type { Ctx } from './context.ts'
import type { Tx } from './db/database.ts'
import { AppError } from './errors.ts'

/** Every record naming `from` in the organization is to name `to` instead (null: none), at `now`. */
export interface Repoint {
  readonly organizationId: string
  readonly from: string
  readonly to: string | null
  readonly now: number
  /** What caused it, for the audit records of the referring records. */
  readonly cause: 'contact.deleted' | 'contact.merged' | 'ticket.deleted'
}

interface Referring {
  /** A referring record as a refusal names it ("engagement session": "2 engagement sessions"). */
  readonly record: string
  /** Every record naming `change.from` names `change.to` instead, recorded as its module records that change. */
  repoint(tx: Tx, ctx: Ctx, change: Repoint): Promise<void>
}

/**
 * A module's records naming another's. What deleting the named record does to them: `detach`, its
 * reference becomes null (the record means as much without it); `refuse`, 409 while one names it (it
 * cannot exist without it), with advice on what to do `instead`.
 */
export type Referrer = Referring &
  (
    | { readonly onDelete: 'detach' }
    | { readonly onDelete: 'refuse'; readonly instead: string; count(tx: Tx, organizationId: string, id: string): Promise<number> }
  )

/** The referrers of each kind of record that can be deleted while others name it. */
export interface Referrers {
  readonly contact: readonly Referrer[]
  readonly ticket: readonly Referrer[]
}

/** The table of each kind of record that referrers name. */
const TABLES: Record<keyof Referrers, string> = { contact: 'contacts', ticket: 'tickets' }

/**
 * Before `what` (e.g. "contact") is deleted, in the deleting transaction: 409 CONFLICT naming every kind
 * of record that refuses while some name it; otherwise every detaching referrer lets go of it.
 */
export async function releaseReferences(
  tx: Tx,
  ctx: Ctx,
  referrers: readonly Referrer[],
  what: keyof Referrers,
  change: Omit<Repoint, 'to'>,
): Promise<void> {
  // Invariant: the count and the repoints see every record naming it. Its row is locked first, so a record
  // whose insert holds it (the foreign key's check, or its module's own key-share read) commits before the
  // count goes on; one that comes after waits for the DELETE (and is refused by its module or the key).
  await tx.raw.get(`SELECT id FROM ${TABLES[what]} WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [
    change.from,
    change.organizationId,
  ])
  const refusing: string[] = []
  const advice = new Set<string>()
  for (const referrer of referrers) {
    if (referrer.onDelete !== 'refuse') continue
    const count = await referrer.count(tx, change.organizationId, change.from)
    if (count === 0) continue
    refusing.push(`${count} ${referrer.record}${count === 1 ? '' : 's'}`)
    advice.add(referrer.instead)
  }
  if (refusing.length > 0)
    throw new AppError('CONFLICT', `The ${what} has ${refusing.join(' and ')} that cannot exist without it: ${[...advice].join('; ')}`)
  for (const referrer of referrers) if (referrer.onDelete === 'detach') await referrer.repoint(tx, ctx, { ...change, to: null })
}

/** A merge: every referrer's records move from the merged-away record to the survivor. */
export async function moveReferences(tx: Tx, ctx: Ctx, referrers: readonly Referrer[], change: Repoint): Promise<void> {
  for (const referrer of referrers) await referrer.repoint(tx, ctx, change)
}
