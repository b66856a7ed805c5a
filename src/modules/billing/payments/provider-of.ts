// The provider of a payment: `manual` (bank transfers) or `stripe`, refused when Stripe is not configured.
import type { Ctx } from '../../../context.ts'
import { AppError } from '../../../errors.ts'
import type { PaymentProvider } from '../table.ts'
import { manualProvider } from './manual.ts'
import type { PaymentProviderClient } from './provider.ts'
import { stripeProvider } from './stripe-provider.ts'

/** The provider that handles payments made through `provider` (a transfer's refund is the operator's, whatever the setting). */
export function paymentProviderOf(ctx: Ctx, provider: PaymentProvider): PaymentProviderClient {
  if (provider === 'manual') return manualProvider
  if (!ctx.config.billing.stripe)
    throw new AppError('CONFLICT', 'This payment was made through Stripe, which is not configured (PAYMENT_PROVIDER is not stripe)')
  return stripeProvider(ctx.config.billing.stripe)
}
