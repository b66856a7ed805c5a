// The Stripe payment provider, through the official `stripe` package: the organization's customer (made
// once, kept as provider_customer_id), the payment method attached to it, then a PaymentIntent created
// and confirmed off-session with an idempotency key per attempt; refunds through Stripe's refunds.
// Errors sort into a definite failure (a card declined, a request refused: nothing was charged) and an
// unknown outcome (no answer, Stripe's 5xx, our credentials refused). The secret key is never logged.
import Stripe from 'stripe'
import type { BillingConfig } from '../../../config.ts'
import type { Ctx } from '../../../context.ts'
import { findOrganization } from '../../organizations/index.ts'
import { ensureBillingAccountInTx } from '../accounts/account.ts'
import { findBillingAccount, updateBillingAccountRow } from '../accounts/store.ts'
import type { RefundStatus } from '../table.ts'
import type { PaymentError, StoredPaymentMethod } from './payment-json.ts'
import type { ChargeInput, ChargeResult, PaymentProviderClient, RefundInput, RefundResult } from './provider.ts'

type StripeSettings = NonNullable<BillingConfig['stripe']>

const clients = new WeakMap<StripeSettings, Stripe>()

/** One client per configuration: STRIPE_API_URL's protocol, host and port, the secret key. */
export function stripeClient(settings: StripeSettings): Stripe {
  let client = clients.get(settings)
  if (!client) {
    const url = new URL(settings.apiUrl)
    const protocol = url.protocol === 'http:' ? 'http' : 'https'
    client = new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port || (protocol === 'http' ? '80' : '443'),
      protocol,
      // The package retries a lost answer with the same Idempotency-Key.
      maxNetworkRetries: 2,
      timeout: 30_000,
      telemetry: false,
      appInfo: { name: 'Switchboard' },
    })
    clients.set(settings, client)
  }
  return client
}

/** Stripe's reasons for a refund; any other reason is kept by us only. */
const STRIPE_REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const

function methodOf(pm: Stripe.PaymentMethod | string | null | undefined, fallbackId: string | null): StoredPaymentMethod | null {
  if (!pm) return fallbackId === null ? null : { type: 'card', last4: null, brand: null, id: fallbackId }
  if (typeof pm === 'string') return { type: 'card', last4: null, brand: null, id: pm }
  return { type: pm.type, last4: pm.card?.last4 ?? null, brand: pm.card?.brand ?? null, id: pm.id }
}

/** A card declined or a request refused: nothing was charged. Anything else may have reached Stripe or not. */
function isDefinite(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError
}

function errorOf(error: unknown): PaymentError {
  if (error instanceof Stripe.errors.StripeError) {
    // The most precise of Stripe's codes: insufficient_funds rather than card_declined.
    const code = (error.decline_code || error.code || error.type || 'stripe_error').toString()
    return { code, message: error.message || 'Stripe refused the payment' }
  }
  return { code: 'stripe_unreachable', message: 'Stripe could not be reached' }
}

/** The organization's Stripe customer: the billing account's, or made now (one per organization, by idempotency key) and kept. */
async function customerOf(ctx: Ctx, client: Stripe, organizationId: string): Promise<string> {
  const account = await findBillingAccount(ctx.db, organizationId)
  if (account?.provider_customer_id) return account.provider_customer_id
  const organization = await findOrganization(ctx.db, organizationId)
  const customer = await client.customers.create(
    {
      name: account?.billing_name ?? organization?.name,
      email: account?.billing_email ?? undefined,
      metadata: { switchboard_organization_id: organizationId },
    },
    { idempotencyKey: `customer-${organizationId}` },
  )
  return ctx.db.write('billing_account.set_customer', async (tx) => {
    const now = ctx.clock.now()
    const current = await ensureBillingAccountInTx(tx, organizationId, now)
    if (current.provider_customer_id) return current.provider_customer_id
    await updateBillingAccountRow(tx, organizationId, { provider_customer_id: customer.id, updated_at: now })
    return customer.id
  })
}

async function charge(ctx: Ctx, client: Stripe, input: ChargeInput): Promise<ChargeResult> {
  let method = methodOf(null, input.paymentMethodId)
  try {
    const customer = await customerOf(ctx, client, input.organizationId)
    const attached = await client.paymentMethods.attach(input.paymentMethodId, { customer })
    method = methodOf(attached, input.paymentMethodId)
    const intent = await client.paymentIntents.create(
      {
        amount: input.amount,
        currency: input.currency,
        customer,
        payment_method: attached.id,
        confirm: true,
        off_session: true,
        description: input.description,
        expand: ['payment_method'],
        metadata: {
          switchboard_organization_id: input.organizationId,
          switchboard_invoice_id: input.invoiceId,
          switchboard_payment_id: input.paymentId,
          switchboard_attempt: String(input.attempt),
        },
      },
      { idempotencyKey: `${input.paymentId}-${input.attempt}` },
    )
    method = methodOf(intent.payment_method, input.paymentMethodId) ?? method
    if (intent.status === 'succeeded') return { outcome: 'succeeded', providerPaymentId: intent.id, paymentMethod: method }
    const last = intent.last_payment_error
    return {
      outcome: 'failed',
      providerPaymentId: intent.id,
      paymentMethod: method,
      error: last
        ? { code: last.decline_code || last.code || 'payment_failed', message: last.message ?? 'The payment failed' }
        : { code: intent.status, message: `Stripe left the payment ${intent.status.replaceAll('_', ' ')}` },
    }
  } catch (error) {
    if (!isDefinite(error)) {
      ctx.log.warn('stripe: no definite answer to a charge', {
        payment_id: input.paymentId,
        attempt: input.attempt,
        error_type: error instanceof Stripe.errors.StripeError ? error.type : 'network',
        message: error instanceof Error ? error.message : String(error),
      })
      return { outcome: 'unknown', error: errorOf(error) }
    }
    const intent = error.payment_intent
    const pm = (error.payment_method ?? intent?.payment_method) as Stripe.PaymentMethod | string | undefined
    return { outcome: 'failed', providerPaymentId: intent?.id ?? null, paymentMethod: methodOf(pm, null) ?? method, error: errorOf(error) }
  }
}

async function refund(ctx: Ctx, client: Stripe, input: RefundInput): Promise<RefundResult> {
  if (input.providerPaymentId === null)
    return {
      outcome: 'refused',
      error: { code: 'no_payment_intent', message: 'Stripe never confirmed this payment: there is nothing to refund' },
    }
  const reason = STRIPE_REFUND_REASONS.find((r) => r === input.reason)
  try {
    const made = await client.refunds.create(
      {
        payment_intent: input.providerPaymentId,
        amount: input.amount,
        ...(reason ? { reason } : {}),
        metadata: { switchboard_refund_id: input.refundId, switchboard_payment_id: input.paymentId },
      },
      { idempotencyKey: `refund-${input.refundId}` },
    )
    const status: RefundStatus =
      made.status === 'succeeded' || made.status === 'failed' || made.status === 'canceled' ? made.status : 'pending'
    return { outcome: 'done', status, providerRefundId: made.id }
  } catch (error) {
    if (isDefinite(error)) return { outcome: 'refused', error: errorOf(error) }
    ctx.log.warn('stripe: no definite answer to a refund', {
      refund_id: input.refundId,
      message: error instanceof Error ? error.message : String(error),
    })
    return { outcome: 'unknown', error: errorOf(error) }
  }
}

const providers = new WeakMap<StripeSettings, PaymentProviderClient>()

export function stripeProvider(settings: StripeSettings): PaymentProviderClient {
  let provider = providers.get(settings)
  if (!provider) {
    const client = stripeClient(settings)
    provider = {
      name: 'stripe',
      charge: (ctx, input) => charge(ctx, client, input),
      refund: (ctx, input) => refund(ctx, client, input),
    }
    providers.set(settings, provider)
  }
  return provider
}
