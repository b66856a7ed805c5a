// The billing module's settings (assembled by src/config.ts): payment provider, dunning and expiry, invoice issuer, cron interval.
import { Type, type TSchema } from '@sinclair/typebox'
import { ConfigError, parseDurations, parseUrl, type SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  PAYMENT_PROVIDER: Type.Union([Type.Literal('manual'), Type.Literal('stripe')], {
    default: 'manual',
    description:
      '`manual`: invoices are sent and paid by bank transfer, recorded by the operator (or reported by the organization and confirmed by the operator); `stripe`: cards are charged through Stripe PaymentIntents.',
  }),
  STRIPE_SECRET_KEY: Type.String({
    minLength: 1,
    'x-default': '(none)',
    'x-secret': true,
    description: 'The Stripe secret key; required with `PAYMENT_PROVIDER=stripe`, refused without it. Never logged.',
  }),
  STRIPE_WEBHOOK_SECRET: Type.String({
    minLength: 1,
    'x-default': '(none)',
    'x-secret': true,
    description:
      'The signing secret (`whsec_…`) of the Stripe webhook endpoint `/api/v1/integrations/stripe/webhook`; required with `PAYMENT_PROVIDER=stripe`. Never logged.',
  }),
  STRIPE_API_URL: Type.String({
    default: 'https://api.stripe.com',
    description: "Base URL of Stripe's API; another only for a Stripe-compatible test server.",
  }),
  BILLING_RETRY_SCHEDULE: Type.String({
    default: '1d,3d,5d,7d',
    description:
      "When a failed renewal payment is retried, counted from the first failure: ascending durations with a unit (`s`, `m`, `h`, `d`), at most 10. After the last failure the subscription becomes `canceled` or `unpaid` (the organization's setting).",
  }),
  BILLING_INCOMPLETE_EXPIRY: Type.String({
    default: '23h',
    description:
      "How long a new subscription's first invoice may stay unpaid before the subscription becomes `incomplete_expired` and the invoice is voided (Stripe's 23 hours).",
  }),
  INVOICE_ISSUER: Type.String({
    minLength: 1,
    maxLength: 500,
    default: 'Switchboard',
    description:
      'Who issues the invoices, printed at the top of each PDF: a name, then address lines separated by `\\n` (up to 500 characters).',
  }),
  BILLING_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 60,
    description:
      'How often the cron loop renews subscriptions, retries payments and expires unpaid new subscriptions, in seconds (1–86400).',
  }),
} satisfies Record<string, TSchema>

export interface BillingConfig {
  readonly provider: 'manual' | 'stripe'
  /** Set when the provider is Stripe. */
  readonly stripe: { readonly secretKey: string; readonly webhookSecret: string; readonly apiUrl: string } | undefined
  /** Delays after the first failed renewal payment at which it is retried, ascending (ms). */
  readonly retryScheduleMs: readonly number[]
  readonly incompleteExpiryMs: number
  readonly intervalMs: number
  /** The issuer block of the invoices' PDFs, one line each. */
  readonly invoiceIssuer: readonly string[]
}

export interface BillingSlice {
  readonly billing: BillingConfig
}

export function billingSlice(values: SettingValues): BillingSlice {
  return { billing: parseBilling(values) }
}

function parseBilling(values: SettingValues): BillingConfig {
  const provider = values.PAYMENT_PROVIDER as BillingConfig['provider']
  const names = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const
  let stripe: BillingConfig['stripe']
  if (provider === 'stripe') {
    const missing = names.filter((name) => values[name] === undefined)
    if (missing.length > 0) throw new ConfigError(`${missing.join(' and ')} must be set when PAYMENT_PROVIDER is stripe`)
    stripe = Object.freeze({
      secretKey: values.STRIPE_SECRET_KEY as string,
      webhookSecret: values.STRIPE_WEBHOOK_SECRET as string,
      apiUrl: parseUrl('STRIPE_API_URL', values.STRIPE_API_URL as string),
    })
  } else {
    const stray = names.find((name) => values[name] !== undefined)
    if (stray) throw new ConfigError(`${stray} is set but PAYMENT_PROVIDER is not stripe`)
  }
  const schedule = parseDurations('BILLING_RETRY_SCHEDULE', values.BILLING_RETRY_SCHEDULE as string, 10)
  if (schedule.some((ms, i) => i > 0 && ms <= schedule[i - 1]!))
    throw new ConfigError(`BILLING_RETRY_SCHEDULE must be ascending (got ${JSON.stringify(values.BILLING_RETRY_SCHEDULE)})`)
  const [incompleteExpiryMs] = parseDurations('BILLING_INCOMPLETE_EXPIRY', values.BILLING_INCOMPLETE_EXPIRY as string, 1)
  return Object.freeze({
    provider,
    stripe,
    retryScheduleMs: Object.freeze(schedule),
    incompleteExpiryMs: incompleteExpiryMs!,
    intervalMs: (values.BILLING_INTERVAL as number) * 1000,
    invoiceIssuer: Object.freeze(
      (values.INVOICE_ISSUER as string)
        .split('\\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  })
}
