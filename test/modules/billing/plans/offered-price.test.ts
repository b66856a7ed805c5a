// findOfferedPrice, what subscriptions build on: the active public prices and the organization's own
// Enterprise prices (its own winning over a public one of the same currency and interval), never
// another organization's or an inactive one; by id only when offered and of the plan asked; without a
// currency or interval, the one price that remains or nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { deactivatePrice, setOrganizationPrices, updatePlan } from '../../../../src/modules/billing/plans/operate-plans.ts'
import { findOfferedPrice } from '../../../../src/modules/billing/plans/prices.ts'
import { listActivePrices } from '../../../../src/modules/billing/plans/store.ts'
import { makeTestApp, type TestApp } from '../../../helpers/app.ts'
import { seedOrganization } from '../../../helpers/seed.ts'

let app: TestApp
let acme: string
let globex: string
const ids: Record<string, string> = {}

beforeAll(async () => {
  app = await makeTestApp()
  acme = (await seedOrganization(app, 'acme')).org.id
  globex = (await seedOrganization(app, 'globex')).org.id
  const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
  await updatePlan(ctx, 'starter', {
    prices: [
      { currency: 'usd', interval: 'month', unit_amount: 2900 },
      { currency: 'usd', interval: 'year', unit_amount: 29_000 },
      { currency: 'eur', interval: 'month', unit_amount: 2700 },
    ],
  })
  await updatePlan(ctx, 'enterprise', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 50_000 }] })
  const [own] = await setOrganizationPrices(ctx, acme, [{ currency: 'usd', interval: 'month', unit_amount: 40_000 }])
  const [eurOwn] = await setOrganizationPrices(ctx, acme, [{ currency: 'eur', interval: 'year', unit_amount: 400_000 }])
  ids.acmeUsd = own!.id
  ids.acmeEur = eurOwn!.id
  for (const price of await listActivePrices(app.context.db, null))
    ids[`${price.plan_id}:${price.currency}:${price.billing_interval}`] = price.id
  // A withdrawn price.
  await updatePlan(ctx, 'professional', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 9900 }] })
  const gone = (await listActivePrices(app.context.db, null)).find((p) => p.plan_id === 'professional')!
  ids.withdrawn = gone.id
  await deactivatePrice(ctx, gone.id)
})
afterAll(() => app.close())

const find = async (input: Omit<Parameters<typeof findOfferedPrice>[1], 'organizationId'> & { organizationId?: string }) =>
  (await findOfferedPrice(app.context.db, { organizationId: acme, ...input }))?.id

describe('findOfferedPrice', () => {
  test('by plan, currency and interval (the currency in any case)', async () => {
    expect(await find({ plan: 'starter', currency: 'usd', interval: 'month' })).toBe(ids['starter:usd:month'])
    expect(await find({ plan: 'starter', currency: 'USD', interval: 'year' })).toBe(ids['starter:usd:year'])
    expect(await find({ plan: 'starter', currency: 'gbp', interval: 'month' })).toBeUndefined()
  })

  test('without a currency: the only currency of that plan and interval, else undefined', async () => {
    expect(await find({ plan: 'starter', interval: 'year' })).toBe(ids['starter:usd:year'])
    expect(await find({ plan: 'starter', interval: 'month' })).toBeUndefined()
    expect(await find({ plan: 'starter', currency: 'eur' })).toBe(ids['starter:eur:month'])
    expect(await find({ plan: 'starter' })).toBeUndefined()
    expect(await find({ plan: 'free', interval: 'month' })).toBeUndefined()
  })

  test("the organization's own Enterprise price wins over the public one; another organization gets the public one", async () => {
    expect(await find({ plan: 'enterprise', currency: 'usd', interval: 'month' })).toBe(ids.acmeUsd)
    expect(await find({ plan: 'enterprise', currency: 'usd', interval: 'month', organizationId: globex })).toBe(ids['enterprise:usd:month'])
    expect(await find({ plan: 'enterprise', currency: 'eur', interval: 'year', organizationId: globex })).toBeUndefined()
    expect(await find({ plan: 'enterprise', interval: 'year' })).toBe(ids.acmeEur)
  })

  test('by id: only an active price of that plan offered to the organization', async () => {
    expect(await find({ plan: 'starter', priceId: ids['starter:eur:month'] })).toBe(ids['starter:eur:month'])
    expect(await find({ plan: 'enterprise', priceId: ids.acmeUsd })).toBe(ids.acmeUsd)
    // The public price its own replaces is not offered to it (as its list shows), to another organization it is.
    expect(await find({ plan: 'enterprise', priceId: ids['enterprise:usd:month'] })).toBeUndefined()
    expect(await find({ plan: 'enterprise', priceId: ids['enterprise:usd:month'], organizationId: globex })).toBe(
      ids['enterprise:usd:month'],
    )
    expect(await find({ plan: 'enterprise', priceId: ids.acmeUsd, organizationId: globex })).toBeUndefined()
    expect(await find({ plan: 'professional', priceId: ids['starter:usd:month'] })).toBeUndefined()
    expect(await find({ plan: 'professional', priceId: ids.withdrawn })).toBeUndefined()
    expect(await find({ plan: 'starter', priceId: 'price_nope' })).toBeUndefined()
  })
})
