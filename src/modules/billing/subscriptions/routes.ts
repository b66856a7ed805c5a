// The HTTP layer of the organization's subscription: read it (billing:read), subscribe or change it,
// cancel it, resume it (billing:manage). The Super Admin manages; an Admin only reads.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { cancelSubscription, resumeSubscription } from './cancel-subscription.ts'
import { CancelSubscriptionBody, ResumeSubscriptionBody, SaveSubscriptionBody, SubscriptionBody } from './model.ts'
import { getSubscription, subscribe } from './subscribe.ts'

const tags = ['Billing']
const LIFECYCLE =
  "Statuses as Stripe's: incomplete -> active | incomplete_expired | canceled; trialing -> active | past_due | paused | canceled; active -> past_due | canceled; past_due -> active | canceled | unpaid; unpaid -> active | canceled; paused -> active | canceled; canceled and incomplete_expired are final. Any other move is 409 INVALID_STATE_TRANSITION naming both states."
const ENTITLEMENT =
  "The organization's plan, so its request rates, follows at once: the subscription's plan while trialing, active or past_due (the grace period of the payment retries), Free otherwise."

export function subscriptionsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/billing/subscription' })
    .use(authMacros(app))
    .get('', ({ ctx }) => getSubscription(ctx), {
      permission: 'billing:read',
      response: { 200: SubscriptionBody, ...protectedErrors('NOT_FOUND') },
      detail: {
        tags,
        operationId: 'getSubscription',
        summary: "The organization's subscription",
        description: `Its current subscription (the one not ended); 404 when it has none (it is on Free). ${ENTITLEMENT}`,
      },
    })
    .post(
      '',
      async ({ ctx, body, set }) => {
        const { created, subscription } = await subscribe(ctx, body)
        set.status = created ? 201 : 200
        return subscription
      },
      {
        permission: 'billing:manage',
        body: SaveSubscriptionBody,
        response: {
          200: SubscriptionBody,
          201: SubscriptionBody,
          ...protectedErrors('VALIDATION_FAILED', 'INVALID_STATE_TRANSITION', 'CONFLICT'),
        },
        detail: {
          tags,
          operationId: 'saveSubscription',
          summary: 'Subscribe (201) or change the subscription (200)',
          description: `Without a current subscription, subscribes: with trial_days, trialing (no invoice until the trial ends; charge_automatically without a payment method is then paused); otherwise the first invoice (subscription_create, prorated to billing_cycle_anchor) is finalized and, charged automatically, collected at once: active when paid, else incomplete (incomplete_expired after BILLING_INCOMPLETE_EXPIRY); send_invoice is active at once, its invoice open until its due date. With one, changes its plan, price, quantity or interval (trialing, active or past_due; 409 otherwise): during a trial they are swapped; otherwise an invoice (subscription_update) credits the unused part of the old price × quantity and charges the rest of the period on the new one, to the millisecond, and is collected at once (a negative total pays first what the subscription still owes for the period, as those invoices' amount_credited; only the rest, time that was paid, becomes credit on the account); an interval change starts a new period now. The currency cannot change (400); price × quantity above 5,000,000,000,000 minor units per period is 400 naming quantity. The payment method, collection method and metadata change in any status. The answer is the subscription after the collection attempt. ${ENTITLEMENT} ${LIFECYCLE}`,
        },
      },
    )
    .post('/cancel', ({ ctx, body }) => cancelSubscription(ctx, body), {
      permission: 'billing:manage',
      body: CancelSubscriptionBody,
      response: { 200: SubscriptionBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags,
        operationId: 'cancelSubscription',
        summary: 'Cancel the subscription, at period end (default) or now',
        description: `at_period_end true (trialing, active or past_due): cancel_at_period_end is set (subscription.updated) and the renewal task ends it at the period's end. false: canceled now (subscription.canceled), the organization back on Free; an incomplete subscription's first invoice is voided, other open invoices stay owed. ${LIFECYCLE}`,
      },
    })
    .post('/resume', ({ ctx, body }) => resumeSubscription(ctx, body), {
      permission: 'billing:manage',
      body: ResumeSubscriptionBody,
      response: { 200: SubscriptionBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags,
        operationId: 'resumeSubscription',
        summary: 'Resume a paused subscription, or undo a cancellation at period end',
        description:
          'paused -> active with a new period from now, invoiced and charged at once (a payment method is needed to charge automatically: give default_payment_method_id); cancel_at_period_end is undone otherwise. Anything else is 409.',
      },
    })
}
