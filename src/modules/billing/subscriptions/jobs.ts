// The billing cron tasks, every BILLING_INTERVAL, in bounded batches, each subscription or invoice in
// its own short transaction and any charge after commit. billing_renewals: subscriptions at their
// period's end (renew.ts; one period per run each). billing_dunning: open invoices whose next attempt
// is due — charged again (charge_automatically, with the subscription's payment method) or, past their
// due date (send_invoice), counted as a failed attempt `invoice_overdue` (the retry schedule goes on
// from there). billing_incomplete_expiry: subscriptions still incomplete BILLING_INCOMPLETE_EXPIRY
// after their creation become incomplete_expired, their open first invoice voided.
import { type AppContext, contextFor, type Ctx } from '../../../context.ts'
import type { TaskDefinition } from '../../../jobs/scheduler.ts'
import { isoTime } from '../../../lib/clock.ts'
import { type InvoiceRow, listDueInvoices, lockInvoiceInTx, recordInvoicePaymentFailureInTx, voidInvoiceInTx } from '../invoices/collect.ts'
import { collectInvoice } from '../payments/collect.ts'
import { recordSubscriptionEvent } from './events.ts'
import { withStatus } from './moves.ts'
import { renewSubscription } from './renew.ts'
import { findSubscriptionById, incompleteCreatedBefore, lockSubscription, renewalsDue, saveSubscription } from './store.ts'

const BATCH = 100

function cronContext(app: AppContext, now: number): Ctx {
  return contextFor({ ...app, clock: { now: () => now } }, { kind: 'system', id: 'cron' })
}

export function billingRenewalsTask(app: AppContext): TaskDefinition {
  return {
    name: 'billing_renewals',
    intervalMs: app.config.billing.intervalMs,
    async run({ now, signal }) {
      const ctx = cronContext(app, now)
      const rows = await renewalsDue(app.db, now, BATCH)
      const outcomes: Record<string, number> = { renewed: 0, canceled: 0, paused: 0, skipped: 0 }
      for (const row of rows) {
        if (signal.aborted) break
        const outcome = await renewSubscription(ctx, row.id, now)
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
      }
      return { worked: rows.length > 0, found: rows.length, ...outcomes }
    },
  }
}

/** A send_invoice invoice past its due date: a failed attempt `invoice_overdue`, when still due under its row lock. */
async function recordOverdue(ctx: Ctx, invoice: InvoiceRow, now: number): Promise<boolean> {
  return ctx.db.write('invoice.overdue', async (tx) => {
    // Locked: two runs at once count the overdue attempt once; the second finds the next attempt moved on.
    const current = await lockInvoiceInTx(tx, invoice.id)
    if (current?.status !== 'open' || current.next_payment_attempt === null || Number(current.next_payment_attempt) > now) return false
    const due = current.due_date === null ? 'its due date' : isoTime(Number(current.due_date))
    await recordInvoicePaymentFailureInTx(tx, ctx, {
      invoiceId: current.id,
      error: { code: 'invoice_overdue', message: `Invoice ${current.number} was due on ${due} and is not paid` },
      now,
    })
    return true
  })
}

export function billingDunningTask(app: AppContext): TaskDefinition {
  return {
    name: 'billing_dunning',
    intervalMs: app.config.billing.intervalMs,
    async run({ now, signal }) {
      const ctx = cronContext(app, now)
      const invoices = await listDueInvoices(app.db, now, BATCH)
      const outcomes: Record<string, number> = { overdue: 0, succeeded: 0, failed: 0, skipped: 0, in_progress: 0 }
      for (const invoice of invoices) {
        if (signal.aborted) break
        // Without a card provider (PAYMENT_PROVIDER switched from stripe to manual) nothing can be charged:
        // such an invoice is dunned as a sent one, instead of staying due at the head of every batch.
        if (invoice.collection_method === 'send_invoice' || app.config.billing.provider !== 'stripe') {
          if (await recordOverdue(ctx, invoice, now)) outcomes.overdue!++
          continue
        }
        const subscription = invoice.subscription_id === null ? undefined : await findSubscriptionById(app.db, invoice.subscription_id)
        const outcome = await collectInvoice(ctx, {
          invoiceId: invoice.id,
          paymentMethodId: subscription?.default_payment_method_id ?? null,
        })
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
      }
      return { worked: invoices.length > 0, found: invoices.length, ...outcomes }
    },
  }
}

export function billingIncompleteExpiryTask(app: AppContext): TaskDefinition {
  return {
    name: 'billing_incomplete_expiry',
    intervalMs: app.config.billing.intervalMs,
    async run({ now, signal }) {
      const ctx = cronContext(app, now)
      const before = now - app.config.billing.incompleteExpiryMs
      const rows = await incompleteCreatedBefore(app.db, before, BATCH)
      let expired = 0
      for (const found of rows) {
        if (signal.aborted) break
        const done = await ctx.db.write('subscription.expire', async (tx) => {
          // Locked: two runs at once expire it (and void its invoice) once; the second finds it moved.
          const row = await lockSubscription(tx, found.id)
          if (row?.status !== 'incomplete' || Number(row.created_at) > before) return false
          const invoice = row.latest_invoice_id === null ? undefined : await lockInvoiceInTx(tx, row.latest_invoice_id)
          if (invoice?.status === 'open') await voidInvoiceInTx(tx, ctx, invoice.id, now)
          const next = withStatus(row, 'incomplete_expired', now)
          await saveSubscription(tx, next)
          await recordSubscriptionEvent(tx, ctx, 'subscription.updated', next, now)
          return true
        })
        if (done) expired++
      }
      return { worked: rows.length > 0, found: rows.length, expired }
    },
  }
}

/** The billing module's cron tasks (registered by src/jobs/registry.ts through the module's index). */
export function billingCronTasks(app: AppContext): TaskDefinition[] {
  return [billingRenewalsTask(app), billingDunningTask(app), billingIncompleteExpiryTask(app)]
}
