// The invoice lifecycle (Stripe's, research §2.5) as a table, and the check every verb applies: a draft
// is finalized (open) or deleted; an open invoice is paid, voided or marked uncollectible; an
// uncollectible one may still be paid or voided; paid and void are final.
import { AppError } from '../../../errors.ts'
import type { InvoiceStatus } from '../table.ts'

/** A status, or `deleted`: what a deleted draft becomes (its row is gone). */
export type InvoiceState = InvoiceStatus | 'deleted'

/** The operation that makes each move. */
export type InvoiceMove = 'finalize' | 'delete' | 'pay' | 'void' | 'mark_uncollectible'

export const INVOICE_TRANSITIONS: Record<InvoiceStatus, Partial<Record<InvoiceState, InvoiceMove>>> = {
  draft: { open: 'finalize', deleted: 'delete' },
  open: { paid: 'pay', void: 'void', uncollectible: 'mark_uncollectible' },
  uncollectible: { paid: 'pay', void: 'void' },
  paid: {},
  void: {},
}

/** 409 INVALID_STATE_TRANSITION naming both states unless `from -> to` is in the table. */
export function assertInvoiceTransition(from: InvoiceStatus, to: InvoiceState): void {
  if (INVOICE_TRANSITIONS[from][to] !== undefined) return
  const next = Object.keys(INVOICE_TRANSITIONS[from])
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    next.length === 0
      ? `A ${from} invoice is final: it cannot become ${to}`
      : `A ${from} invoice cannot become ${to}; it can become ${next.join(' or ')}`,
  )
}

/** Open or uncollectible: an invoice that can still take a payment (or a failed attempt). */
export function isCollectible(status: InvoiceStatus): boolean {
  return status === 'open' || status === 'uncollectible'
}

/** The lifecycle in one sentence, for the routes' descriptions. */
export const INVOICE_LIFECYCLE =
  'Lifecycle (Stripe): draft -> open (finalize) or deleted; open -> paid, void or uncollectible; uncollectible -> paid or void; paid and void are final. Any other move is 409 INVALID_STATE_TRANSITION naming both states.'
