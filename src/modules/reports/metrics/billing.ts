// Billing metrics (`billing:read` besides `report:read`), from the subscriptions, payments and refunds
// themselves; amounts in minor units of one currency (`group_by=currency` when there are several).
import type { Agg, Fact } from '../facts.ts'
import type { MetricFamily } from '../metric.ts'
import { count } from './shared.ts'

/**
 * The MRR facts at `at`: each subscription as its last event before then described it, when active or
 * past due (a change later in the window or after it does not rewrite the figure).
 */
export function mrrFacts(bodies: readonly string[], at: number): Fact[] {
  // biome-ignore lint/suspicious/noExplicitAny: a Subscription of the event catalog.
  const last = new Map<string, any>()
  for (const body of bodies) {
    const subscription = (JSON.parse(body) as { data: { subscription: { id: string } } }).data.subscription
    last.set(subscription.id, subscription)
  }
  return [...last.values()]
    .filter((s) => s.status === 'active' || s.status === 'past_due')
    .map((s) => ({
      stream: 'subscription.active',
      at,
      recordType: 'subscription',
      recordId: s.id,
      seq: 0,
      value: (s.unit_amount * s.quantity) / (s.interval === 'year' ? 12 : 1),
      startedAt: null,
      dims: { currency: s.currency },
    }))
}

const sum = (stream: string) => (aggs: ReadonlyMap<string, Agg>) => Math.round(aggs.get(stream)?.total ?? 0)
const metric = { family: 'billing', version: 1, billing: true, dimensions: ['currency'] } as const

export const BILLING: MetricFamily = {
  metrics: [
    {
      ...metric,
      id: 'billing.mrr',
      name: 'MRR',
      unit: 'minor_units',
      definition:
        'Monthly recurring revenue at the end of the window: the subscriptions active or past due then, as they then were, unit amount × quantity, yearly ones divided by 12.',
      records: 'subscriptions',
      streams: ['subscription.active'],
      value: sum('subscription.active'),
    },
    {
      ...metric,
      id: 'billing.subscriptions_new',
      name: 'New subscriptions',
      unit: 'count',
      definition: 'Subscriptions created in the window.',
      records: 'subscriptions',
      streams: ['subscription.created'],
      value: count('subscription.created'),
    },
    {
      ...metric,
      id: 'billing.subscriptions_changed',
      name: 'Changed subscriptions',
      unit: 'count',
      definition: 'Changes of subscriptions in the window (plan, quantity, status…: each `subscription.updated`).',
      records: 'subscriptions',
      streams: ['subscription.changed'],
      value: count('subscription.changed'),
    },
    {
      ...metric,
      id: 'billing.subscriptions_canceled',
      name: 'Canceled subscriptions',
      unit: 'count',
      definition: 'Subscriptions canceled in the window.',
      records: 'subscriptions',
      streams: ['subscription.canceled'],
      value: count('subscription.canceled'),
    },
    {
      ...metric,
      id: 'billing.payments_succeeded',
      name: 'Payments succeeded',
      unit: 'count',
      definition: 'Payments that succeeded in the window.',
      records: 'payments',
      streams: ['payment.succeeded'],
      value: count('payment.succeeded'),
    },
    {
      ...metric,
      id: 'billing.payments_failed',
      name: 'Payments failed',
      unit: 'count',
      definition: 'Failed payment attempts in the window (each `payment.failed`).',
      records: 'payments',
      streams: ['payment.failed'],
      value: count('payment.failed'),
    },
    {
      ...metric,
      id: 'billing.revenue',
      name: 'Revenue',
      unit: 'minor_units',
      definition: 'The amounts of the payments that succeeded in the window.',
      records: 'payments',
      streams: ['payment.succeeded'],
      value: sum('payment.succeeded'),
    },
    {
      ...metric,
      id: 'billing.refunds',
      name: 'Refunds',
      unit: 'minor_units',
      definition: 'The amounts of the refunds made in the window.',
      records: 'refunds',
      streams: ['refund.created'],
      value: sum('refund.created'),
    },
  ],
  folders: {
    'subscription.updated': (event) => {
      const s = event.data.subscription
      return [
        {
          stream: 'subscription.changed',
          at: event.createdAt,
          recordType: 'subscription',
          recordId: s.id,
          seq: event.seq,
          value: null,
          startedAt: null,
          dims: { currency: s.currency },
        },
      ]
    },
    'payment.failed': (event) => {
      const p = event.data.payment
      return [
        {
          stream: 'payment.failed',
          at: event.createdAt,
          recordType: 'payment',
          recordId: p.id,
          seq: event.seq,
          value: p.amount,
          startedAt: null,
          dims: { currency: p.currency },
        },
      ]
    },
  },
}
