// The operator's verbs on plans and prices (the operator API and `switchboard plan …`): read every plan
// with its active prices, change a plan's name and request rates (applied on each organization's next
// request) and its public prices, give an organization Enterprise prices of its own, withdraw a price.
// And what an organization sees: the plans with the prices offered to it.
import type { Ctx } from '../../../context.ts'
import { AppError, validationError, type FieldError } from '../../../errors.ts'
import { appendAudit, auditActorOf } from '../../audit/index.ts'
import { findOrganization } from '../../organizations/index.ts'
import { MAX_PER_DAY, MAX_PER_MINUTE } from '../../rate-limits/index.ts'
import { PLAN_IDS, type PlanId } from '../table.ts'
import { checkPrices, type PriceInput } from './price-input.ts'
import { offeredOnly } from './prices.ts'
import { deactivatePriceInTx, replacePriceInTx } from './replace-price.ts'
import {
  findPlanRow,
  findPriceRow,
  listActivePrices,
  listPlanRows,
  lockPlanRow,
  type PlanRow,
  type PriceRow,
  updatePlanRow,
} from './store.ts'

export interface PlansWithPrices {
  plans: PlanRow[]
  prices: PriceRow[]
}

export interface PlanChanges {
  name?: string
  rate_limit_per_minute?: number
  rate_limit_per_day?: number
  prices?: PriceInput[]
}

export const MAX_PLAN_NAME = 100

export const isPlanId = (id: string): id is PlanId => (PLAN_IDS as readonly string[]).includes(id)

const noSuchPlan = () => new AppError('NOT_FOUND', 'No such plan')

/** Every plan with every active price (public and each organization's): the operator's view. */
export async function listPlans(ctx: Ctx): Promise<PlansWithPrices> {
  const [plans, prices] = await Promise.all([listPlanRows(ctx.db), listActivePrices(ctx.db, 'all')])
  return { plans, prices }
}

/** Every plan with the active prices offered to the organization: public ones, and its own in their place. */
export async function listOfferedPlans(ctx: Ctx, organizationId: string): Promise<PlansWithPrices> {
  const [plans, prices] = await Promise.all([listPlanRows(ctx.db), listActivePrices(ctx.db, organizationId)])
  return { plans, prices: offeredOnly(prices, organizationId) }
}

/** One plan with every active price of it (the operator's view). */
export async function getPlan(ctx: Ctx, planId: string): Promise<PlansWithPrices> {
  const plan = isPlanId(planId) ? await findPlanRow(ctx.db, planId) : undefined
  if (!plan) throw noSuchPlan()
  return { plans: [plan], prices: (await listActivePrices(ctx.db, 'all')).filter((p) => p.plan_id === plan.id) }
}

function checkChanges(planId: PlanId, changes: PlanChanges) {
  const errors: FieldError[] = []
  const name = changes.name?.trim()
  if (name !== undefined && (name.length < 1 || name.length > MAX_PLAN_NAME))
    errors.push({ field: 'name', message: `must be 1 to ${MAX_PLAN_NAME} characters` })
  const rate = (field: 'rate_limit_per_minute' | 'rate_limit_per_day', max: number) => {
    const value = changes[field]
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1 || value > max))
      errors.push({ field, message: `must be a whole number from 1 to ${max}` })
  }
  rate('rate_limit_per_minute', MAX_PER_MINUTE)
  rate('rate_limit_per_day', MAX_PER_DAY)
  if (planId === 'free' && (changes.prices?.length ?? 0) > 0) errors.push({ field: 'prices', message: 'the free plan has no prices' })
  if (errors.length > 0) throw validationError(errors)
  return { name, prices: checkPrices('prices', changes.prices ?? []) }
}

/**
 * Changes a plan: its name and request rates (every organization on it, but for its own set-limits
 * rates, gets them on its next request) and its public prices (each replaces the active one of its
 * currency and interval; the same amount again changes nothing).
 */
export async function updatePlan(ctx: Ctx, planId: string, changes: PlanChanges): Promise<PlansWithPrices> {
  if (!isPlanId(planId)) throw noSuchPlan()
  const { name, prices } = checkChanges(planId, changes)
  if (name === undefined && changes.rate_limit_per_minute === undefined && changes.rate_limit_per_day === undefined && prices.length === 0)
    throw validationError([{ field: 'body', message: 'nothing to change' }])
  const now = ctx.clock.now()
  await ctx.db.write('plan.update', async (tx) => {
    // Locked: two changes at once are audited one after the other (each one's before is the other's after).
    const before = await lockPlanRow(tx, planId)
    if (!before) throw noSuchPlan()
    const patch = {
      ...(name === undefined || name === before.name ? {} : { name }),
      ...(changes.rate_limit_per_minute === undefined || changes.rate_limit_per_minute === before.rate_limit_per_minute
        ? {}
        : { rate_limit_per_minute: changes.rate_limit_per_minute }),
      ...(changes.rate_limit_per_day === undefined || changes.rate_limit_per_day === before.rate_limit_per_day
        ? {}
        : { rate_limit_per_day: changes.rate_limit_per_day }),
    }
    if (Object.keys(patch).length > 0) {
      const after = (await updatePlanRow(tx, planId, { ...patch, updated_at: now }))!
      const shown = (p: PlanRow) => ({ name: p.name, per_minute: p.rate_limit_per_minute, per_day: p.rate_limit_per_day })
      await appendAudit(tx, {
        organizationId: null,
        actor: auditActorOf(ctx.actor),
        event: 'plan.updated',
        target: { type: 'plan', id: planId },
        details: { before: shown(before), after: shown(after) },
        now,
      })
    }
    for (const price of prices) await replacePriceInTx(tx, ctx, { plan: planId, organizationId: null, price, keepSame: true, now })
  })
  return getPlan(ctx, planId)
}

/** Gives the organization Enterprise prices of its own (each replaces its active one of that currency and interval). */
export async function setOrganizationPrices(ctx: Ctx, organizationId: string, input: PriceInput[]): Promise<PriceRow[]> {
  const prices = checkPrices('prices', input)
  const now = ctx.clock.now()
  return ctx.db.write('plan_price.create', async (tx) => {
    if (!(await findOrganization(tx, organizationId))) throw new AppError('NOT_FOUND', 'No such organization')
    const rows: PriceRow[] = []
    for (const price of prices)
      rows.push(await replacePriceInTx(tx, ctx, { plan: 'enterprise', organizationId, price, keepSame: false, now }))
    return rows
  })
}

/** Withdraws a price: no new subscription may take it; the subscriptions on it keep it. An inactive price is 409. */
export async function deactivatePrice(ctx: Ctx, id: string): Promise<PriceRow> {
  const now = ctx.clock.now()
  return ctx.db.write('plan_price.deactivate', async (tx) => {
    const price = await findPriceRow(tx, id)
    if (!price) throw new AppError('NOT_FOUND', 'No such price')
    // One conditional UPDATE (WHERE deactivated_at IS NULL): of two withdrawals at once one changes the row, the other is 409.
    const row = await deactivatePriceInTx(tx, ctx, price, now)
    if (!row) throw new AppError('CONFLICT', 'The price is already inactive')
    return row
  })
}
