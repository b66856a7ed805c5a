// The billing module's public entry: plans and their prices (plans/), each organization's
// billing account (accounts/), its subscription (subscriptions/), invoices and their PDFs (invoices/),
// payments and refunds through a payment provider (payments/), and Stripe's webhooks (stripe/) — the
// organization's routes under /api/v1/billing, the operator's under /api/v1/operator — and the cron
// tasks that renew subscriptions, retry failed payments (dunning) and expire unpaid new subscriptions.
// The operator's plan verbs, for `switchboard plan …` (the CLI).
export { getPlan, listPlans, setOrganizationPrices, updatePlan } from './plans/operate-plans.ts'
export { plansJson } from './plans/plan-json.ts'
export { parsePrice } from './plans/price-input.ts'

export { INVOICE_EXAMPLE } from './invoices/model.ts'
export { PAYMENT_EXAMPLE } from './payments/model.ts'
export { SUBSCRIPTION_EXAMPLE } from './subscriptions/model.ts'

import { Elysia } from 'elysia'
import type { Config } from '../../config.ts'
import type { AppContext } from '../../context.ts'
import type { StreamedBody } from '../../http/body.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { billingAccountRoutes } from './accounts/routes.ts'
import { invoicesRoutes } from './invoices/routes.ts'
import { paymentsRoutes } from './payments/routes.ts'
import { plansRoutes } from './plans/routes.ts'
import { stripeRoutes, stripeWebhookBodies } from './stripe/routes.ts'
import { billingCronTasks } from './subscriptions/jobs.ts'
import { subscriptionsRoutes } from './subscriptions/routes.ts'

export function billingRoutes(app: AppContext) {
  return new Elysia()
    .use(plansRoutes(app))
    .use(billingAccountRoutes(app))
    .use(subscriptionsRoutes(app))
    .use(invoicesRoutes(app))
    .use(paymentsRoutes(app))
    .use(stripeRoutes(app))
}

/** The routes of this module that read their bodies themselves: Stripe's webhooks (the signature covers the exact bytes). */
export function billingStreamedBodies(config: Pick<Config, 'billing'>): StreamedBody[] {
  return stripeWebhookBodies(config)
}

/** This module's cron tasks. */
export function billingTasks(app: AppContext): TaskDefinition[] {
  return billingCronTasks(app)
}
