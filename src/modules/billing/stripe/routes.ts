// The stripe routes of the billing module (placeholder until built).
import { Elysia } from 'elysia'
import type { Config } from '../../../config.ts'
import type { AppContext } from '../../../context.ts'
import type { StreamedBody } from '../../../http/body.ts'

export function stripeRoutes(_app: AppContext) {
  return new Elysia()
}

/** Stripe's webhook body, read by the route itself (placeholder until built). */
export function stripeWebhookBodies(_config: Pick<Config, 'billing'>): StreamedBody[] {
  return []
}
