// Cancellation and resumption. Cancel at period end sets cancel_at_period_end (the renewal task ends
// it then); cancel now ends it at once (canceled, the organization back on Free; an incomplete one's
// unpaid first invoice is voided, other open invoices stay owed). Resume undoes a cancel at period end,
// or restarts a paused subscription with a new period from now, invoiced and charged.
import type { Ctx, UserActor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { lockInvoiceInTx, voidInvoiceInTx } from '../invoices/collect.ts'
import { periodEnd } from '../money.ts'
import { recordSubscriptionEvent } from './events.ts'
import { billedOf, collectIssued, invoiceSubscriptionInTx } from './invoicing.ts'
import { CHANGEABLE_STATUSES } from './lifecycle.ts'
import { periodLine } from './lines.ts'
import { withStatus } from './moves.ts'
import { lockCurrentSubscription, saveSubscription } from './store.ts'
import { NO_SUBSCRIPTION, subscriptionNow } from './subscribe.ts'
import type { SubscriptionJson } from './subscription-json.ts'

export async function cancelSubscription(ctx: Ctx<UserActor>, input: { at_period_end?: boolean }): Promise<SubscriptionJson> {
  const now = ctx.clock.now()
  const atPeriodEnd = input.at_period_end ?? true
  const id = await ctx.db.write('subscription.cancel', async (tx) => {
    // Locked: a cancel racing a change or another cancel moves the subscription once, from what it is now.
    const row = await lockCurrentSubscription(tx, ctx.actor.organizationId)
    if (!row) throw new AppError('NOT_FOUND', NO_SUBSCRIPTION)
    if (atPeriodEnd) {
      if (!CHANGEABLE_STATUSES.includes(row.status)) {
        const article = /^[aeiou]/.test(row.status) ? 'An' : 'A'
        throw new AppError(
          'INVALID_STATE_TRANSITION',
          `${article} ${row.status} subscription cannot become canceled at period end: it has no period to run to its end; cancel it now (at_period_end false)`,
        )
      }
      if (row.cancel_at_period_end) return row.id
      const next = { ...row, cancel_at_period_end: true, canceled_at: now, updated_at: now }
      await saveSubscription(tx, next)
      await recordSubscriptionEvent(tx, ctx, 'subscription.updated', next, now)
      return row.id
    }
    const ended = withStatus(row, 'canceled', now, 'requested')
    if (row.status === 'incomplete' && row.latest_invoice_id !== null) {
      const invoice = await lockInvoiceInTx(tx, row.latest_invoice_id)
      if (invoice?.status === 'open') await voidInvoiceInTx(tx, ctx, invoice.id, now)
    }
    await saveSubscription(tx, ended)
    await recordSubscriptionEvent(tx, ctx, 'subscription.canceled', ended, now)
    return row.id
  })
  return subscriptionNow(ctx, id)
}

export async function resumeSubscription(ctx: Ctx<UserActor>, input: { default_payment_method_id?: string }): Promise<SubscriptionJson> {
  const now = ctx.clock.now()
  const saved = await ctx.db.write('subscription.resume', async (tx) => {
    // Locked: two resumes at once invoice the new period once.
    const row = await lockCurrentSubscription(tx, ctx.actor.organizationId)
    if (!row) throw new AppError('NOT_FOUND', NO_SUBSCRIPTION)
    const paymentMethod = input.default_payment_method_id ?? row.default_payment_method_id
    if (row.status === 'paused') {
      if (row.collection_method === 'charge_automatically' && paymentMethod === null)
        throw validationError([{ field: 'default_payment_method_id', message: 'is needed to resume: the new period is charged at once' }])
      const end = periodEnd(now, row.billing_interval, 1)
      const next = {
        ...withStatus(row, 'active', now),
        default_payment_method_id: paymentMethod,
        current_period_start: now,
        current_period_end: end,
        billing_cycle_anchor: now,
      }
      const issued = await invoiceSubscriptionInTx(tx, ctx, next, {
        event: 'subscription.updated',
        billingReason: 'subscription_cycle',
        lines: [periodLine(await billedOf(tx, next), now, end)],
        periodStart: now,
        periodEnd: end,
        now,
      })
      return { id: row.id, issued }
    }
    if (!row.cancel_at_period_end)
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A ${row.status} subscription is neither paused nor set to cancel at period end: there is nothing to resume`,
      )
    const next = { ...row, cancel_at_period_end: false, canceled_at: null, default_payment_method_id: paymentMethod, updated_at: now }
    await saveSubscription(tx, next)
    await recordSubscriptionEvent(tx, ctx, 'subscription.updated', next, now)
    return { id: row.id, issued: null }
  })
  await collectIssued(ctx, saved.issued)
  return subscriptionNow(ctx, saved.id)
}
