// Plans and prices through the API: the operator's routes (an operator token only: none, a malformed,
// unknown or revoked one, a Super Admin's access token or a personal access token are 401), a plan's
// name, rates and public prices (a new price replaces the active one, which stays on record inactive),
// per-organization Enterprise prices (invisible to every other organization), withdrawing a price, the
// 400s, and what an organization sees at GET /api/v1/billing/plans. Audit records on the right chains.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { createOperatorToken, revokeOperatorToken } from '../../../../src/modules/operators/index.ts'
import { json, makeTestApp, type TestApp } from '../../../helpers/app.ts'
import { expectError } from '../../../helpers/errors.ts'
import { seedOrganization, type SeededOrg } from '../../../helpers/seed.ts'

interface Price {
  id: string
  plan: string
  organization_id: string | null
  currency: string
  interval: string
  unit_amount: number
  active: boolean
  created_at: string
}
interface Plan {
  id: string
  name: string
  rate_limit_per_minute: number
  rate_limit_per_day: number
  prices: Price[]
}

let app: TestApp
let acme: SeededOrg
let globex: SeededOrg
let operator: Record<string, string>

beforeAll(async () => {
  app = await makeTestApp()
  acme = await seedOrganization(app, 'acme')
  globex = await seedOrganization(app, 'globex')
  const { token } = await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 'billing desk' })
  operator = { authorization: `Bearer ${token}` }
})
afterAll(() => app.close())

function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return app.request(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}
const putPlan = (plan: string, body: unknown, headers = operator) => send('PUT', `/api/v1/operator/plans/${plan}`, headers, body)
const orgPrice = (orgId: string, body: unknown, headers = operator) =>
  send('POST', `/api/v1/operator/organizations/${orgId}/prices`, headers, body)
async function operatorPlans(): Promise<Plan[]> {
  const response = await send('GET', '/api/v1/operator/plans', operator)
  expect(response.status).toBe(200)
  return (await json<{ plans: Plan[] }>(response)).plans
}
async function offered(org: SeededOrg): Promise<Plan[]> {
  const response = await send('GET', '/api/v1/billing/plans', org.users.admin.auth)
  expect(response.status).toBe(200)
  return (await json<{ plans: Plan[] }>(response)).plans
}
const planOf = (plans: Plan[], id: string) => plans.find((p) => p.id === id)!
const amounts = (plan: Plan) => plan.prices.map((p) => [p.currency, p.interval, p.unit_amount, p.organization_id])

describe('operator routes: an operator token and nothing else', () => {
  const routes: [string, string, unknown][] = [
    ['GET', '/api/v1/operator/plans', undefined],
    ['PUT', '/api/v1/operator/plans/starter', { name: 'Starter' }],
    ['DELETE', '/api/v1/operator/prices/price_nope', undefined],
    ['POST', '/api/v1/operator/organizations/org_nope/prices', { currency: 'usd', interval: 'month', unit_amount: 1 }],
    ['GET', '/api/v1/operator/organizations/org_nope/billing', undefined],
    ['PATCH', '/api/v1/operator/organizations/org_nope/billing', { tax_rate_bps: 1 }],
  ]

  test.each(routes)(
    '%s %s: 401 without a token, with a malformed or unknown one, a Super Admin access token or a personal access token',
    async (method, path, body) => {
      expect((await expectError(await send(method, path, {}, body), 401, 'UNAUTHENTICATED')).message).toContain('operator token')
      const key = await send('POST', '/api/v1/api-keys', acme.users.super_admin.auth, {
        name: 'k',
        expires_at: new Date(app.clock.now() + 86_400_000).toISOString(),
      })
      const pat = (await json<{ token: string }>(key)).token
      for (const headers of <Record<string, string>[]>[
        { authorization: 'Bearer sbo_short' },
        { authorization: `Bearer sbo_${'A'.repeat(43)}` },
        { authorization: 'Basic abc' },
        acme.users.super_admin.auth,
        { authorization: `Bearer ${pat}` },
        { 'x-api-key': pat },
      ])
        await expectError(await send(method, path, headers, body), 401, headers.authorization ? 'TOKEN_INVALID' : 'UNAUTHENTICATED')
    },
  )

  test('a revoked operator token is refused from its next request', async () => {
    const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
    const { token, operator_token } = await createOperatorToken(ctx, { name: 'soon revoked' })
    const headers = { authorization: `Bearer ${token}` }
    expect((await send('GET', '/api/v1/operator/plans', headers)).status).toBe(200)
    await revokeOperatorToken(ctx, operator_token.id)
    const refused = await expectError(await send('GET', '/api/v1/operator/plans', headers), 401, 'TOKEN_INVALID')
    expect(refused.message).toBe('The operator token is unknown or revoked')
  })

  test("the organization's list needs billing:read (Super Admin, Admin), not an operator token", async () => {
    for (const role of ['super_admin', 'admin'] as const)
      expect((await send('GET', '/api/v1/billing/plans', acme.users[role].auth)).status).toBe(200)
    for (const role of ['supervisor', 'agent', 'viewer'] as const)
      await expectError(await send('GET', '/api/v1/billing/plans', acme.users[role].auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('GET', '/api/v1/billing/plans', operator), 401, 'TOKEN_INVALID')
  })
})

describe('plans and public prices', () => {
  test('the four plans with the seeded rates, in order, no prices yet', async () => {
    expect((await operatorPlans()).map((p) => [p.id, p.name, p.rate_limit_per_minute, p.rate_limit_per_day, p.prices])).toEqual([
      ['free', 'Free', 60, 1_000, []],
      ['starter', 'Starter', 300, 10_000, []],
      ['professional', 'Professional', 1_000, 100_000, []],
      ['enterprise', 'Enterprise', 1_000, 100_000, []],
    ])
  })

  test('PUT sets the name, rates and prices (currency lowercased); the answer is the plan, keys in order', async () => {
    const response = await putPlan('starter', {
      name: 'Starter+',
      rate_limit_per_minute: 400,
      rate_limit_per_day: 20_000,
      prices: [
        { currency: 'USD', interval: 'month', unit_amount: 2900 },
        { currency: 'usd', interval: 'year', unit_amount: 29_000 },
        { currency: 'jpy', interval: 'month', unit_amount: 4000 },
      ],
    })
    expect(response.status).toBe(200)
    const plan = await json<Plan>(response)
    expect(Object.keys(plan)).toEqual(['id', 'name', 'rate_limit_per_minute', 'rate_limit_per_day', 'prices'])
    expect(plan).toMatchObject({ id: 'starter', name: 'Starter+', rate_limit_per_minute: 400, rate_limit_per_day: 20_000 })
    expect(amounts(plan)).toEqual([
      ['usd', 'month', 2900, null],
      ['usd', 'year', 29_000, null],
      ['jpy', 'month', 4000, null],
    ])
    const price = plan.prices[0]!
    expect(Object.keys(price)).toEqual(['id', 'plan', 'organization_id', 'currency', 'interval', 'unit_amount', 'active', 'created_at'])
    expect([price.id.slice(0, 6), price.plan, price.active]).toEqual(['price_', 'starter', true])
    expect(price.created_at).toBe(new Date(app.clock.now()).toISOString())
    expect(planOf(await operatorPlans(), 'starter')).toEqual(plan)
  })

  test('a new price replaces the active one of its currency and interval; the old one is deactivated, kept on record; the same amount again changes nothing', async () => {
    const before = planOf(await operatorPlans(), 'starter')
    const oldMonthly = before.prices.find((p) => p.currency === 'usd' && p.interval === 'month')!
    app.clock.advance(1000)
    const plan = await json<Plan>(await putPlan('starter', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 3900 }] }))
    expect(amounts(plan)).toEqual([
      ['usd', 'year', 29_000, null],
      ['jpy', 'month', 4000, null],
      ['usd', 'month', 3900, null],
    ])
    expect(plan.prices.map((p) => p.id)).not.toContain(oldMonthly.id)
    const old = await app.context.db.raw.get<{ deactivated_at: number; unit_amount: number }>(
      'SELECT deactivated_at, unit_amount FROM plan_prices WHERE id = ?',
      [oldMonthly.id],
    )
    expect({ deactivated_at: Number(old!.deactivated_at), unit_amount: Number(old!.unit_amount) }).toEqual({
      deactivated_at: app.clock.now(),
      unit_amount: 2900,
    })
    // Replayed: the same ids.
    const again = await json<Plan>(await putPlan('starter', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 3900 }] }))
    expect(again.prices.map((p) => p.id)).toEqual(plan.prices.map((p) => p.id))
  })

  test('DELETE a price withdraws it (200, active false); again is 409; an unknown id is 404', async () => {
    const jpy = planOf(await operatorPlans(), 'starter').prices.find((p) => p.currency === 'jpy')!
    const response = await send('DELETE', `/api/v1/operator/prices/${jpy.id}`, operator)
    expect(response.status).toBe(200)
    expect(await json<Price>(response)).toEqual({ ...jpy, active: false })
    expect(planOf(await operatorPlans(), 'starter').prices.map((p) => p.currency)).toEqual(['usd', 'usd'])
    await expectError(await send('DELETE', `/api/v1/operator/prices/${jpy.id}`, operator), 409, 'CONFLICT')
    await expectError(await send('DELETE', '/api/v1/operator/prices/price_nope', operator), 404, 'NOT_FOUND')
  })

  // [case, plan, body, status, code, field]
  const refusals: [string, string, unknown, number, string, string | undefined][] = [
    ['an unknown plan', 'platinum', { name: 'P' }, 404, 'NOT_FOUND', undefined],
    ['an empty body', 'starter', {}, 400, 'VALIDATION_FAILED', undefined],
    ['prices for free', 'free', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 100 }] }, 400, 'VALIDATION_FAILED', 'prices'],
    [
      'an unknown currency',
      'starter',
      { prices: [{ currency: 'xyz', interval: 'month', unit_amount: 100 }] },
      400,
      'VALIDATION_FAILED',
      'prices.0.currency',
    ],
    [
      'an unknown interval',
      'starter',
      { prices: [{ currency: 'usd', interval: 'week', unit_amount: 100 }] },
      400,
      'VALIDATION_FAILED',
      undefined,
    ],
    [
      'a negative amount',
      'starter',
      { prices: [{ currency: 'usd', interval: 'month', unit_amount: -1 }] },
      400,
      'VALIDATION_FAILED',
      undefined,
    ],
    [
      'a fractional amount',
      'starter',
      { prices: [{ currency: 'usd', interval: 'month', unit_amount: 29.5 }] },
      400,
      'VALIDATION_FAILED',
      undefined,
    ],
    [
      'two prices of one currency and interval',
      'starter',
      {
        prices: [
          { currency: 'usd', interval: 'month', unit_amount: 1 },
          { currency: 'USD', interval: 'month', unit_amount: 2 },
        ],
      },
      400,
      'VALIDATION_FAILED',
      'prices.1',
    ],
    ['a rate of 0', 'starter', { rate_limit_per_minute: 0 }, 400, 'VALIDATION_FAILED', undefined],
    ['a rate above the max', 'starter', { rate_limit_per_day: 100_000_001 }, 400, 'VALIDATION_FAILED', undefined],
    ['an empty name', 'starter', { name: '' }, 400, 'VALIDATION_FAILED', undefined],
    ['a blank name', 'starter', { name: '   ' }, 400, 'VALIDATION_FAILED', 'name'],
  ]
  test.each(refusals)('%s: %d %s, nothing changed', async (_, plan, body, status, code, field) => {
    const before = await operatorPlans()
    await expectError(await putPlan(plan, body), status, code, field)
    expect(await operatorPlans()).toEqual(before)
  })

  test('free takes a name and rates (no prices)', async () => {
    const plan = await json<Plan>(await putPlan('free', { rate_limit_per_minute: 61, prices: [] }))
    expect(plan).toMatchObject({ id: 'free', rate_limit_per_minute: 61, prices: [] })
    await putPlan('free', { rate_limit_per_minute: 60 })
  })
})

describe("an organization's own Enterprise prices", () => {
  let acmePrice: Price
  test('POST makes a price of the organization (201), listed by the operator with its organization', async () => {
    await putPlan('enterprise', { prices: [{ currency: 'usd', interval: 'month', unit_amount: 50_000 }] })
    const response = await orgPrice(acme.org.id, { currency: 'USD', interval: 'month', unit_amount: 40_000 })
    expect(response.status).toBe(201)
    acmePrice = await json<Price>(response)
    expect(acmePrice).toMatchObject({
      plan: 'enterprise',
      organization_id: acme.org.id,
      currency: 'usd',
      unit_amount: 40_000,
      active: true,
    })
    expect(amounts(planOf(await operatorPlans(), 'enterprise'))).toEqual([
      ['usd', 'month', 50_000, null],
      ['usd', 'month', 40_000, acme.org.id],
    ])
  })

  test('the organization sees its own price in place of the public one; another organization never sees it', async () => {
    expect(amounts(planOf(await offered(acme), 'enterprise'))).toEqual([['usd', 'month', 40_000, acme.org.id]])
    expect(amounts(planOf(await offered(globex), 'enterprise'))).toEqual([['usd', 'month', 50_000, null]])
    expect(JSON.stringify(await offered(globex))).not.toContain(acme.org.id)
    // The other plans are the same for both.
    expect(planOf(await offered(acme), 'starter')).toEqual(planOf(await offered(globex), 'starter'))
  })

  test("a second price replaces the organization's own one of that currency and interval; another interval is added", async () => {
    const second = await json<Price>(await orgPrice(acme.org.id, { currency: 'usd', interval: 'month', unit_amount: 35_000 }))
    await orgPrice(acme.org.id, { currency: 'usd', interval: 'year', unit_amount: 350_000 })
    expect(amounts(planOf(await offered(acme), 'enterprise'))).toEqual([
      ['usd', 'month', 35_000, acme.org.id],
      ['usd', 'year', 350_000, acme.org.id],
    ])
    expect(planOf(await offered(acme), 'enterprise').prices[0]!.id).toBe(second.id)
    const old = await app.context.db.raw.get<{ deactivated_at: number | null }>('SELECT deactivated_at FROM plan_prices WHERE id = ?', [
      acmePrice.id,
    ])
    expect(old!.deactivated_at).not.toBeNull()
  })

  test('an unknown organization is 404; a bad price is 400', async () => {
    await expectError(await orgPrice('org_nope', { currency: 'usd', interval: 'month', unit_amount: 1 }), 404, 'NOT_FOUND')
    await expectError(await orgPrice(acme.org.id, { currency: 'usd', interval: 'month', unit_amount: -5 }), 400, 'VALIDATION_FAILED')
    await expectError(await orgPrice(acme.org.id, { currency: 'zzz', interval: 'month', unit_amount: 5 }), 400, 'VALIDATION_FAILED')
    await expectError(await orgPrice(acme.org.id, { currency: 'usd', unit_amount: 5 }), 400, 'VALIDATION_FAILED')
  })
})

describe('audit records', () => {
  interface Row {
    organization_id: string | null
    event: string
    actor_type: string
    actor_id: string
    credential_id: string | null
    target_type: string
    details: string
  }
  test('plan changes and public prices in the installation chain, an organization price in its own chain, by the operator and its token', async () => {
    const rows = await app.context.db.raw.all<Row>(
      "SELECT organization_id, event, actor_type, actor_id, credential_id, target_type, details FROM audit_logs WHERE event LIKE 'plan%' ORDER BY created_at, seq",
    )
    expect(rows.length).toBeGreaterThan(5)
    for (const row of rows)
      expect(row).toMatchObject({ actor_type: 'system', actor_id: 'operator', credential_id: expect.stringMatching(/^opt_/) })
    expect(rows.filter((r) => r.event === 'plan.updated').every((r) => r.organization_id === null)).toBe(true)
    const created = rows.filter((r) => r.event === 'plan_price.created')
    expect(new Set(created.map((r) => r.organization_id))).toEqual(new Set([null, acme.org.id]))
    const first = rows.find((r) => r.event === 'plan.updated')!
    expect(JSON.parse(first.details)).toEqual({
      before: { name: 'Starter', per_minute: 300, per_day: 10_000 },
      after: { name: 'Starter+', per_minute: 400, per_day: 20_000 },
    })
    expect(rows.some((r) => r.event === 'plan_price.deactivated')).toBe(true)
  })
})
