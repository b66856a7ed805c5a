// Request and response schemas of plans and prices (the Plan and Price components): the operator's
// routes and the organization's list of what it may subscribe to.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { oneOf } from '../../../http/schema.ts'
import { MAX_PER_DAY, MAX_PER_MINUTE } from '../../rate-limits/index.ts'
import { BILLING_INTERVALS, PLAN_IDS } from '../table.ts'
import { MAX_PLAN_NAME } from './operate-plans.ts'
import { MAX_PRICES_PER_REQUEST, MAX_UNIT_AMOUNT } from './price-input.ts'

export const PRICE_EXAMPLE = {
  id: 'price_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  plan: 'starter',
  organization_id: null,
  currency: 'usd',
  interval: 'month',
  unit_amount: 2900,
  active: true,
  created_at: '2026-01-15T09:30:00.000Z',
}

export const PLAN_EXAMPLE = {
  id: 'starter',
  name: 'Starter',
  rate_limit_per_minute: 300,
  rate_limit_per_day: 10000,
  prices: [PRICE_EXAMPLE, { ...PRICE_EXAMPLE, id: 'price_01KAX3M6W9P8T2V5G7H4J3C1R0', interval: 'year', unit_amount: 29000 }],
}

export const PriceBody = t.Object(
  {
    id: t.String(),
    plan: oneOf(PLAN_IDS),
    organization_id: t.Nullable(t.String({ description: "An Enterprise price of this organization only; null: every organization's" })),
    currency: t.String({ description: 'ISO 4217, lowercase (usd)' }),
    interval: oneOf(BILLING_INTERVALS),
    unit_amount: Type.Integer({ description: 'Per seat and interval, in minor units (2900 is 29.00 USD)' }),
    active: t.Boolean({ description: 'False once another price replaced it or the operator withdrew it' }),
    created_at: t.String({ format: 'date-time' }),
  },
  { title: 'Price', examples: [PRICE_EXAMPLE] },
)

export const PlanBody = t.Object(
  {
    id: oneOf(PLAN_IDS),
    name: t.String(),
    rate_limit_per_minute: Type.Integer({
      description: "Requests a minute per user (an organization's own rates, set by the operator, win)",
    }),
    rate_limit_per_day: Type.Integer({ description: 'Requests a day per user' }),
    prices: t.Array(PriceBody, { description: 'Its active prices' }),
  },
  { title: 'Plan', examples: [PLAN_EXAMPLE] },
)

export const PlanList = t.Object({ plans: t.Array(PlanBody) }, { examples: [{ plans: [PLAN_EXAMPLE] }] })

export const PriceInputBody = t.Object({
  currency: t.String({ minLength: 3, maxLength: 3, description: 'ISO 4217 (usd or USD; stored lowercase)' }),
  interval: oneOf(BILLING_INTERVALS),
  unit_amount: Type.Integer({ minimum: 0, maximum: MAX_UNIT_AMOUNT, description: 'Per seat and interval, in minor units' }),
})

export const UpdatePlanBody = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: MAX_PLAN_NAME })),
    rate_limit_per_minute: t.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_MINUTE })),
    rate_limit_per_day: t.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_DAY })),
    prices: t.Optional(
      t.Array(PriceInputBody, {
        maxItems: MAX_PRICES_PER_REQUEST,
        description: 'Each replaces the active public price of its currency and interval (the same amount again changes nothing)',
      }),
    ),
  },
  {
    minProperties: 1,
    examples: [{ rate_limit_per_minute: 400, prices: [{ currency: 'usd', interval: 'month', unit_amount: 2900 }] }],
  },
)

export const OrganizationPriceBody = t.Object(
  {
    currency: PriceInputBody.properties.currency,
    interval: PriceInputBody.properties.interval,
    unit_amount: PriceInputBody.properties.unit_amount,
  },
  { examples: [{ currency: 'usd', interval: 'year', unit_amount: 1200000 }] },
)

export const PlanParams = t.Object({ plan: t.String({ description: `One of: ${PLAN_IDS.join(', ')}` }) })
export const PriceParams = t.Object({ id: t.String() })
export const OrganizationParams = t.Object({ org_id: t.String() })
