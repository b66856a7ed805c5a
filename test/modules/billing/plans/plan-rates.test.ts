// The request path reads each plan's rates from the plans table: an operator's change of a plan's
// rates shows in X-RateLimit-Limit on the very next request (access token and personal access token
// alike), an organization's own rates (org set-limits) win over its plan's, getOrganizationRates
// shows the table's rates, and a subscription's entitlement (entitledPlan, applyEntitlementInTx) moves
// the organization's plan and so its rates at once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { applyEntitlementInTx, entitledPlan } from '../../../../src/modules/billing/plans/entitlement.ts'
import { findPlanRates } from '../../../../src/modules/billing/plans/store.ts'
import { SUBSCRIPTION_STATUSES } from '../../../../src/modules/billing/table.ts'
import { createOperatorToken } from '../../../../src/modules/operators/index.ts'
import { changePlan, changeRates, getOrganizationRates } from '../../../../src/modules/rate-limits/index.ts'
import { json, makeTestApp, type TestApp } from '../../../helpers/app.ts'
import { seedOrganization, type SeededOrg } from '../../../helpers/seed.ts'

let app: TestApp
let org: SeededOrg
let operator: Record<string, string>
let pat: string
const cli = () => contextFor(app.context, { kind: 'system', id: 'cli' })

beforeAll(async () => {
  app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true' })
  org = await seedOrganization(app, 'acme')
  operator = { authorization: `Bearer ${(await createOperatorToken(cli(), { name: 'ops' })).token}` }
  const key = await app.request('/api/v1/api-keys', {
    method: 'POST',
    headers: { ...org.users.agent.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'script', expires_at: new Date(app.clock.now() + 86_400_000).toISOString() }),
  })
  pat = (await json<{ token: string }>(key)).token
})
afterAll(() => app.close())

/** X-RateLimit-Limit of one request by the agent (its minute window is the most constraining: few requests are made in it). */
async function limitOf(headers: Record<string, string>): Promise<string | null> {
  app.clock.advance(61_000)
  const response = await app.request('/api/v1/me', { headers })
  expect(response.status).toBe(200)
  return response.headers.get('x-ratelimit-limit')
}
const viaToken = () => limitOf(org.users.agent.auth)
const viaKey = () => limitOf({ 'x-api-key': pat })

async function setRates(plan: string, body: Record<string, number>) {
  const response = await app.request(`/api/v1/operator/plans/${plan}`, {
    method: 'PUT',
    headers: { ...operator, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
}

describe("the plans table drives each request's rates", () => {
  test('professional as seeded: 1000 a minute', async () => {
    expect(await viaToken()).toBe('1000')
    expect(await viaKey()).toBe('1000')
  })

  test("the operator's new rate applies on the very next request, through an access token and a personal access token", async () => {
    await setRates('professional', { rate_limit_per_minute: 700 })
    expect(await viaToken()).toBe('700')
    expect(await viaKey()).toBe('700')
    expect((await getOrganizationRates(cli(), org.org.id))!.effective).toEqual({ per_minute: 700, per_day: 100_000 })
  })

  test('a lower daily rate becomes the most constraining window at once', async () => {
    await setRates('professional', { rate_limit_per_day: 50 })
    expect(await viaToken()).toBe('50')
    await setRates('professional', { rate_limit_per_day: 100_000 })
    expect(await viaToken()).toBe('700')
  })

  test("the organization's own rates (org set-limits) win over its plan's; cleared, the plan's apply again", async () => {
    await changeRates(cli(), { organizationId: org.org.id, perMinute: 5_000 })
    expect(await viaToken()).toBe('5000')
    await setRates('professional', { rate_limit_per_minute: 800 })
    expect(await viaToken()).toBe('5000')
    const view = (await getOrganizationRates(cli(), org.org.id))!
    expect(view).toEqual({
      organization_id: org.org.id,
      plan: 'professional',
      rate_limit_per_minute: 5_000,
      rate_limit_per_day: null,
      effective: { per_minute: 5_000, per_day: 100_000 },
    })
    await changeRates(cli(), { organizationId: org.org.id, perMinute: null })
    expect(await viaToken()).toBe('800')
  })

  test("org set-plan moves the organization to another plan's table rates", async () => {
    await setRates('starter', { rate_limit_per_minute: 250 })
    const changed = (await changePlan(cli(), { organizationId: org.org.id, plan: 'starter' }))!
    expect(changed.after.effective).toEqual({ per_minute: 250, per_day: 10_000 })
    expect(await viaToken()).toBe('250')
    expect(await findPlanRates(app.context.db, 'starter')).toEqual({ rate_limit_per_minute: 250, rate_limit_per_day: 10_000 })
  })
})

describe('the entitlement of a subscription', () => {
  test('entitledPlan: the plan while trialing, active or past_due; Free otherwise', () => {
    const entitled = Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, entitledPlan(status, 'professional')]))
    expect(entitled).toEqual({
      incomplete: 'free',
      incomplete_expired: 'free',
      trialing: 'professional',
      active: 'professional',
      past_due: 'professional',
      canceled: 'free',
      unpaid: 'free',
      paused: 'free',
    })
  })

  test('applyEntitlementInTx moves the plan (rates on the next request) with an audit record naming the subscription; the same plan again records nothing', async () => {
    const ctx = cli()
    const apply = (plan: 'free' | 'enterprise') =>
      app.context.db.write('test.entitle', (tx) =>
        applyEntitlementInTx(tx, ctx, { organizationId: org.org.id, plan, now: app.clock.now() }),
      )
    await apply('free')
    expect(await viaToken()).toBe('60')
    await apply('free')
    await apply('enterprise')
    expect(await viaToken()).toBe('1000')
    const rows = await app.context.db.raw.all<{ details: string }>(
      "SELECT details FROM audit_logs WHERE organization_id = ? AND event = 'organization.plan_changed' ORDER BY seq",
      [org.org.id],
    )
    const reasons = rows.map((r) => JSON.parse(r.details) as { reason?: string; after: { plan: string } })
    expect(reasons.slice(-2).map((d) => [d.after.plan, d.reason])).toEqual([
      ['free', 'subscription'],
      ['enterprise', 'subscription'],
    ])
  })
})
