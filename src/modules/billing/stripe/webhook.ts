// Receiving one of Stripe's webhook events: the signature checked over the exact bytes with the
// official package (stripe.webhooks.constructEventAsync, Stripe-Signature, 300 s tolerance against our
// clock), then the event mapped onto ours in one transaction together with its stripe_events row (a
// replay finds the row and changes nothing). The actor is the system actor `stripe`.
import Stripe from 'stripe'
import { type AppContext, contextFor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { invoiceEffect, paymentIntentEffect, type Effect } from './effects.ts'
import { insertStripeEvent } from './store.ts'

/** Stripe's default: a signature older than this is refused (a replay of a captured request). */
export const SIGNATURE_TOLERANCE_S = 300

/** What became of an event: applied, referred to ours but changed nothing, already handled, or not ours / not mapped. */
export type WebhookResult = 'applied' | 'unchanged' | 'duplicate' | 'ignored'

export function stripeNotConfigured(): AppError {
  return new AppError('NOT_FOUND', 'Stripe is not the payment provider here')
}

async function verify(app: AppContext, raw: string, signature: string | null): Promise<Stripe.Event> {
  const settings = app.config.billing.stripe
  if (app.config.billing.provider !== 'stripe' || !settings) throw stripeNotConfigured()
  if (!signature) throw validationError([{ field: 'Stripe-Signature', message: 'is required' }], 'The Stripe-Signature header is missing')
  try {
    // The async form: Stripe's web build, which Bun loads, signs with Web Crypto (the sync constructEvent cannot).
    return await Stripe.webhooks.constructEventAsync(
      raw,
      signature,
      settings.webhookSecret,
      SIGNATURE_TOLERANCE_S,
      undefined,
      app.clock.now(),
    )
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw validationError([{ field: 'Stripe-Signature', message: error.message }], 'The Stripe signature does not verify')
    throw validationError([{ field: 'body', message: 'is not a Stripe event (JSON)' }], 'The body is not a Stripe event')
  }
}

function effectOf(event: Stripe.Event): ((tx: Parameters<Effect>[0]) => ReturnType<Effect>) | undefined {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
      return (tx) => paymentIntentEffect(tx, event.type, event.data.object)
    case 'invoice.paid':
    case 'invoice.payment_failed':
    case 'invoice.voided':
    case 'invoice.marked_uncollectible':
      return (tx) => invoiceEffect(tx, event.type, event.data.object)
    default:
      return undefined
  }
}

export async function receiveStripeEvent(app: AppContext, input: { raw: string; signature: string | null }): Promise<WebhookResult> {
  const event = await verify(app, input.raw, input.signature)
  const effect = effectOf(event)
  if (!effect) return 'ignored'
  const ctx = contextFor(app, { kind: 'system', id: 'stripe' })
  const now = ctx.clock.now()
  return ctx.db.write('stripe.event', async (tx): Promise<WebhookResult> => {
    const target = await effect(tx)
    if (!target) return 'ignored'
    const fresh = await insertStripeEvent(tx, { id: event.id, type: event.type, organization_id: target.organizationId, received_at: now })
    if (!fresh) return 'duplicate'
    return (await target.apply(ctx, now)) ? 'applied' : 'unchanged'
  })
}
