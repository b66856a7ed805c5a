// The HTTP layer of the Stripe integration: POST /api/v1/integrations/stripe/webhook, where Stripe sends
// its events (no token of ours: the Stripe-Signature header, checked over the body's exact bytes, is the
// authentication). The body is read raw (a StreamedBody, at most 1 MiB) so that nothing reparses it first.
import { Elysia, t } from 'elysia'
import type { Config } from '../../../config.ts'
import type { AppContext } from '../../../context.ts'
import { cappedChunks, type StreamedBody } from '../../../http/body.ts'
import { errorResponses } from '../../../http/problem.ts'
import { receiveStripeEvent, stripeNotConfigured } from './webhook.ts'

export const STRIPE_WEBHOOK_PATH = '/api/v1/integrations/stripe/webhook'
export const STRIPE_WEBHOOK_MAX_BYTES = 1024 * 1024

/** Stripe's webhook body, read by the route itself: the signature covers the exact bytes. */
export function stripeWebhookBodies(_config: Pick<Config, 'billing'>): StreamedBody[] {
  return [{ method: 'POST', path: STRIPE_WEBHOOK_PATH, mediaTypes: ['application/json'], maxBytes: STRIPE_WEBHOOK_MAX_BYTES }]
}

async function rawText(request: Request): Promise<string> {
  const chunks: Uint8Array[] = []
  for await (const chunk of cappedChunks(request, STRIPE_WEBHOOK_MAX_BYTES)) chunks.push(chunk)
  return new TextDecoder().decode(Buffer.concat(chunks))
}

export function stripeRoutes(app: AppContext) {
  return new Elysia().post(
    STRIPE_WEBHOOK_PATH,
    async ({ request }) => {
      // Checked before the body is read: without Stripe this endpoint does not exist.
      if (app.config.billing.provider !== 'stripe') throw stripeNotConfigured()
      const raw = await rawText(request)
      return { received: true, result: await receiveStripeEvent(app, { raw, signature: request.headers.get('stripe-signature') }) }
    },
    {
      response: {
        200: t.Object(
          {
            received: t.Literal(true),
            result: t.Union([t.Literal('applied'), t.Literal('unchanged'), t.Literal('duplicate'), t.Literal('ignored')], {
              description:
                'applied: the event changed ours; unchanged: it names ours, which had already moved; duplicate: this event id was handled before (nothing changes); ignored: a type we do not map, or an object that is not ours',
            }),
          },
          { examples: [{ received: true, result: 'applied' }] },
        ),
        ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'),
      },
      detail: {
        tags: ['Billing'],
        operationId: 'receiveStripeWebhook',
        summary: "Stripe's webhook endpoint",
        description:
          "Called by Stripe, not by clients (PAYMENT_PROVIDER=stripe; 404 otherwise). Add this URL (PUBLIC_URL + path) as an endpoint in Stripe's dashboard with the events payment_intent.succeeded, payment_intent.payment_failed, invoice.paid, invoice.payment_failed, invoice.voided and invoice.marked_uncollectible, and set STRIPE_WEBHOOK_SECRET to its signing secret (whsec_…). The Stripe-Signature header is verified over the exact body (stripe.webhooks.constructEvent's check, 300 s tolerance): absent, forged or stale is 400. A PaymentIntent's outcome applies to our payment of that PaymentIntent (payment.succeeded or payment.failed, and the invoice paid or its failed attempt counted); a Stripe invoice whose metadata.switchboard_invoice_id names an invoice of the Stripe customer's organization pays, fails, voids or marks it uncollectible. Each event is handled once, by Stripe's event id: a replay answers 200 and changes nothing. Other types: 200, ignored.",
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: true },
              example: {
                id: 'evt_1PqR8sLkdIwHu7ix0Xa1b2c3',
                object: 'event',
                type: 'payment_intent.succeeded',
                data: { object: { id: 'pi_3PqR8sLkdIwHu7ix0Xa1b2c3', object: 'payment_intent', status: 'succeeded' } },
              },
            },
          },
        },
      },
    },
  )
}
