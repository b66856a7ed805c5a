// One subscription at its period's end, in its own short transaction (the renewal task's unit):
// cancel_at_period_end → canceled (ended at the period's end); a trial ending → paused when it would
// be charged without a payment method, else active with its first invoiced period; active or past_due
// → the next period (subscription_cycle, ends from the billing_cycle_anchor) drafted, finalized and
// the period advanced. One period per call: a subscription several periods behind catches up one
// period per run. Collection comes after commit.
import type { Ctx } from '../../../context.ts'
import { nextPeriodEnd } from '../money.ts'
import { recordSubscriptionEvent } from './events.ts'
import { billedOf, collectIssued, invoiceSubscriptionInTx, type IssuedInvoice } from './invoicing.ts'
import { CHANGEABLE_STATUSES } from './lifecycle.ts'
import { periodLine } from './lines.ts'
import { withStatus } from './moves.ts'
import { lockSubscription, type SubscriptionRow, saveSubscription } from './store.ts'

export type RenewalOutcome = 'skipped' | 'canceled' | 'paused' | 'renewed'

export async function renewSubscription(ctx: Ctx, id: string, now: number): Promise<RenewalOutcome> {
  const done = await ctx.db.write('subscription.renew', async (tx): Promise<{ outcome: RenewalOutcome; issued: IssuedInvoice | null }> => {
    // Read again under its row lock: a request may have changed or canceled it since the probe, and two
    // runs at once (a leader's slow run, its successor's) renew a period once: the second finds it moved.
    const row = await lockSubscription(tx, id)
    if (!row || row.ended_at !== null || !CHANGEABLE_STATUSES.includes(row.status) || Number(row.current_period_end) > now)
      return { outcome: 'skipped', issued: null }
    const end = Number(row.current_period_end)
    if (row.cancel_at_period_end) {
      const ended: SubscriptionRow = { ...withStatus(row, 'canceled', now, 'requested'), ended_at: end }
      await saveSubscription(tx, ended)
      await recordSubscriptionEvent(tx, ctx, 'subscription.canceled', ended, now)
      return { outcome: 'canceled', issued: null }
    }
    if (row.status === 'trialing' && row.collection_method === 'charge_automatically' && row.default_payment_method_id === null) {
      const paused = withStatus(row, 'paused', now)
      await saveSubscription(tx, paused)
      await recordSubscriptionEvent(tx, ctx, 'subscription.updated', paused, now)
      return { outcome: 'paused', issued: null }
    }
    const nextEnd = nextPeriodEnd(Number(row.billing_cycle_anchor), row.billing_interval, end)
    const moved = row.status === 'trialing' ? withStatus(row, 'active', now) : row
    const next: SubscriptionRow = { ...moved, current_period_start: end, current_period_end: nextEnd, updated_at: now }
    const issued = await invoiceSubscriptionInTx(tx, ctx, next, {
      event: 'subscription.updated',
      billingReason: 'subscription_cycle',
      lines: [periodLine(await billedOf(tx, next), end, nextEnd)],
      periodStart: end,
      periodEnd: nextEnd,
      now,
    })
    return { outcome: 'renewed', issued }
  })
  await collectIssued(ctx, done.issued)
  return done.outcome
}
