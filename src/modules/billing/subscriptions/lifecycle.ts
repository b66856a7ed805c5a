// The subscription lifecycle (research §2.5, Stripe's statuses) as a table, and the check every verb
// applies before it moves one: canceled and incomplete_expired are final (the row is then ended).
import { AppError } from '../../../errors.ts'
import type { SubscriptionStatus } from '../table.ts'

/** Where each status may go. */
export const SUBSCRIPTION_TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  incomplete: ['active', 'incomplete_expired', 'canceled'],
  trialing: ['active', 'past_due', 'paused', 'canceled'],
  active: ['past_due', 'canceled'],
  past_due: ['active', 'canceled', 'unpaid'],
  unpaid: ['active', 'canceled'],
  paused: ['active', 'canceled'],
  canceled: [],
  incomplete_expired: [],
}

/** The statuses that end a subscription (ended_at set): it is then no longer the organization's current one. */
export const FINAL_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired']

/** The statuses in which the plan, price, quantity or interval may change. */
export const CHANGEABLE_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due']

export function canMove(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return SUBSCRIPTION_TRANSITIONS[from].includes(to)
}

/** 409 INVALID_STATE_TRANSITION naming both states unless `from -> to` is in the table. */
export function assertSubscriptionTransition(from: SubscriptionStatus, to: SubscriptionStatus): void {
  if (canMove(from, to)) return
  const next = SUBSCRIPTION_TRANSITIONS[from]
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    next.length === 0
      ? `A ${from} subscription has ended: it cannot become ${to}`
      : `A ${from} subscription cannot become ${to}; it can become ${next.join(', ')}`,
  )
}
