// Receiving one of Stripe's webhook events: the signature checked over the exact bytes with the
// official package (stripe.webhooks.constructEventAsync, Stripe-Signature, 300 s tolerance against our
// clock) and its shape (event-shape.ts: malformed is 400), then the event mapped onto ours in one
// transaction together with its stripe_events row (a replay finds the row and changes nothing). The
// actor is the system actor `stripe`.
import Stripe from 'stripe'
import { type AppContext, contextFor } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { invoiceEffect, paymentIntentEffect, type Effect } from './effects.ts'
import { checkedStripeEvent, type StripeEvent } from './event-shape.ts'
import { insertStripeEvent } from './store.ts'

/** Stripe's default: a signature older than this is refused (a replay of a captured request). */
export const SIGNATURE_TOLERANCE_S = 300

/** What became of an event: applied, referred to ours but changed nothing, already handled, or not ours / not mapped. */
export type WebhookResult = 'applied' | 'unchanged' | 'duplicate' | 'ignored'

export function stripeNotConfigured(): AppError {
  return new AppError('NOT_FOUND', 'Stripe is not the payment provider here')
}

/** The event whose signature verifies, its shape checked (400 otherwise). */
async function verify(app: AppContext, raw: string, signature: string | null): Promise<StripeEvent> {
  const settings = app.config.billing.stripe
  if (app.config.billing.provider !== 'stripe' || !settings) throw stripeNotConfigured()
  if (!signature) throw validationError([{ field: 'Stripe-Signature', message: 'is required' }], 'The Stripe-Signature header is missing')
  let event: unknown
  try {
    // The async form: Stripe's web build, which Bun loads, signs with Web Crypto (the sync constructEvent cannot).
    event = await Stripe.webhooks.constructEventAsync(
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
  return checkedStripeEvent(event)
}

function effectOf(event: StripeEvent): ((tx: Parameters<Effect>[0]) => ReturnType<Effect>) | undefined {
  switch (event.kind) {
    case 'payment_intent':
      return (tx) => paymentIntentEffect(tx, event.type, event.object)
    case 'invoice':
      return (tx) => invoiceEffect(tx, event.type, event.object)
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
