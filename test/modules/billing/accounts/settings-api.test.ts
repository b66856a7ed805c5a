// Billing settings: the organization's GET (billing:read) and PATCH (billing:manage) of its details and
// dunning choice, the operator's GET and PATCH of every field (tax rate, days until due), the defaults
// before any change, the 400s and 404s, another organization untouched, and the audit records.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contextFor } from '../../../../src/context.ts'
import { addCreditInTx } from '../../../../src/modules/billing/accounts/account.ts'
import { createOperatorToken } from '../../../../src/modules/operators/index.ts'
import { json, makeTestApp, type TestApp } from '../../../helpers/app.ts'
import { expectError } from '../../../helpers/errors.ts'
import { seedOrganization, type SeededOrg } from '../../../helpers/seed.ts'

interface Settings {
  organization_id: string
  billing_email: string | null
  billing_name: string | null
  billing_address: string | null
  on_retries_exhausted: string
  tax_rate_bps: number
  days_until_due: number
  credit_balance: number
  balance_currency: string | null
  updated_at: string | null
}

let app: TestApp
let acme: SeededOrg
let globex: SeededOrg
let operator: Record<string, string>

beforeAll(async () => {
  app = await makeTestApp()
  acme = await seedOrganization(app, 'acme')
  globex = await seedOrganization(app, 'globex')
  operator = {
    authorization: `Bearer ${(await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 'ops' })).token}`,
  }
})
afterAll(() => app.close())

function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return app.request(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}
const patch = (org: SeededOrg, body: unknown, role: 'super_admin' | 'admin' = 'super_admin') =>
  send('PATCH', '/api/v1/billing/settings', org.users[role].auth, body)
const operatorPatch = (orgId: string, body: unknown) => send('PATCH', `/api/v1/operator/organizations/${orgId}/billing`, operator, body)
async function settingsOf(org: SeededOrg): Promise<Settings> {
  const response = await send('GET', '/api/v1/billing/settings', org.users.admin.auth)
  expect(response.status).toBe(200)
  return json<Settings>(response)
}

const defaults = (organizationId: string): Settings => ({
  organization_id: organizationId,
  billing_email: null,
  billing_name: null,
  billing_address: null,
  on_retries_exhausted: 'canceled',
  tax_rate_bps: 0,
  days_until_due: 30,
  credit_balance: 0,
  balance_currency: null,
  updated_at: null,
})

describe("the organization's billing settings", () => {
  test('before any change: the defaults, keys in order, nothing saved', async () => {
    const settings = await settingsOf(acme)
    expect(settings).toEqual(defaults(acme.org.id))
    expect(Object.keys(settings)).toEqual(Object.keys(defaults('')))
    expect(await app.context.db.raw.get('SELECT 1 AS x FROM billing_accounts WHERE organization_id = ?', [acme.org.id])).toBeUndefined()
  })

  test('GET needs billing:read (Super Admin, Admin); PATCH billing:manage (Super Admin)', async () => {
    for (const role of ['supervisor', 'agent', 'viewer'] as const)
      await expectError(await send('GET', '/api/v1/billing/settings', acme.users[role].auth), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('GET', '/api/v1/billing/settings', {}), 401, 'UNAUTHENTICATED')
    await expectError(await patch(acme, { billing_name: 'X' }, 'admin'), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('PATCH', '/api/v1/billing/settings', operator, { billing_name: 'X' }), 401, 'TOKEN_INVALID')
  })

  test('PATCH changes the fields sent (trimmed); the answer is the settings', async () => {
    app.clock.advance(1000)
    const response = await patch(acme, {
      billing_email: 'accounts@acme.example',
      billing_name: '  Acme Ltd ',
      billing_address: '1 Main Street\nLondon',
      on_retries_exhausted: 'unpaid',
    })
    expect(response.status).toBe(200)
    const expected = {
      ...defaults(acme.org.id),
      billing_email: 'accounts@acme.example',
      billing_name: 'Acme Ltd',
      billing_address: '1 Main Street\nLondon',
      on_retries_exhausted: 'unpaid',
      updated_at: new Date(app.clock.now()).toISOString(),
    }
    expect(await json<Settings>(response)).toEqual(expected)
    expect(await settingsOf(acme)).toEqual(expected)
    // Another organization keeps its defaults.
    expect(await settingsOf(globex)).toEqual(defaults(globex.org.id))
  })

  test('null or an empty text clears a detail', async () => {
    const settings = await json<Settings>(await patch(acme, { billing_address: null, billing_name: '  ' }))
    expect(settings).toMatchObject({ billing_address: null, billing_name: null, billing_email: 'accounts@acme.example' })
    await patch(acme, { billing_name: 'Acme Ltd' })
  })

  const refusals: [string, unknown, string | undefined][] = [
    ['an empty body', {}, undefined],
    ['a bad e-mail', { billing_email: 'not an e-mail' }, 'billing_email'],
    ['an address over 500 characters', { billing_address: 'x'.repeat(501) }, 'billing_address'],
    ['an unknown dunning choice', { on_retries_exhausted: 'paused' }, 'on_retries_exhausted'],
    ["the operator's tax rate", { tax_rate_bps: 0 }, undefined],
    ["the operator's days until due", { days_until_due: 10 }, undefined],
  ]
  test.each(refusals)('%s: 400, nothing changed', async (_, body, field) => {
    const before = await settingsOf(acme)
    await expectError(await patch(acme, body), 400, 'VALIDATION_FAILED', field)
    expect(await settingsOf(acme)).toEqual(before)
  })

  test('an address of exactly 500 characters is taken', async () => {
    expect((await json<Settings>(await patch(acme, { billing_address: 'y'.repeat(500) }))).billing_address).toHaveLength(500)
  })

  test('the credit balance shows what the organization is owed', async () => {
    await app.context.db.write('test.credit', (tx) =>
      addCreditInTx(tx, globex.org.id, { amount: 1234, currency: 'usd', now: app.clock.now() }),
    )
    expect(await settingsOf(globex)).toMatchObject({ credit_balance: 1234, balance_currency: 'usd' })
  })
})

describe("the operator's billing settings of an organization", () => {
  test('GET and PATCH every field; the organization sees the change', async () => {
    const before = await json<Settings>(await send('GET', `/api/v1/operator/organizations/${acme.org.id}/billing`, operator))
    expect(before).toEqual(await settingsOf(acme))
    app.clock.advance(1000)
    const response = await operatorPatch(acme.org.id, { tax_rate_bps: 2000, days_until_due: 14, billing_name: 'Acme Group' })
    expect(response.status).toBe(200)
    const after = await json<Settings>(response)
    expect(after).toEqual({
      ...before,
      tax_rate_bps: 2000,
      days_until_due: 14,
      billing_name: 'Acme Group',
      updated_at: new Date(app.clock.now()).toISOString(),
    })
    expect(await settingsOf(acme)).toEqual(after)
  })

  test('the bounds: tax 0..10000 bps, days 0..365', async () => {
    expect(await json<Settings>(await operatorPatch(globex.org.id, { tax_rate_bps: 10_000, days_until_due: 365 }))).toMatchObject({
      tax_rate_bps: 10_000,
      days_until_due: 365,
    })
    expect(await json<Settings>(await operatorPatch(globex.org.id, { tax_rate_bps: 0, days_until_due: 0 }))).toMatchObject({
      tax_rate_bps: 0,
      days_until_due: 0,
    })
    for (const body of [
      { tax_rate_bps: 10_001 },
      { tax_rate_bps: -1 },
      { tax_rate_bps: 12.5 },
      { days_until_due: 366 },
      { days_until_due: -1 },
      {},
    ])
      await expectError(await operatorPatch(globex.org.id, body), 400, 'VALIDATION_FAILED')
  })

  test('an unknown organization is 404 for both', async () => {
    await expectError(await send('GET', '/api/v1/operator/organizations/org_nope/billing', operator), 404, 'NOT_FOUND')
    await expectError(await operatorPatch('org_nope', { tax_rate_bps: 100 }), 404, 'NOT_FOUND')
  })
})

describe('audit records', () => {
  test("each change in the organization's chain, by its actor: the fields changed, the values of the non-personal ones", async () => {
    const rows = await app.context.db.raw.all<{ actor_type: string; actor_id: string; details: string }>(
      "SELECT actor_type, actor_id, details FROM audit_logs WHERE organization_id = ? AND event = 'organization.billing_settings_updated' ORDER BY seq",
      [acme.org.id],
    )
    const seen: Record<string, unknown>[] = rows.map((r) => ({ actor: `${r.actor_type}:${r.actor_id}`, ...JSON.parse(r.details) }))
    expect(seen[0]).toEqual({
      actor: `user:${acme.users.super_admin.user.id}`,
      changed: ['billing_email', 'billing_name', 'billing_address', 'on_retries_exhausted'],
      before: { on_retries_exhausted: 'canceled' },
      after: { on_retries_exhausted: 'unpaid' },
    })
    expect(seen.at(-1)).toEqual({
      actor: 'system:operator',
      changed: ['billing_name', 'tax_rate_bps', 'days_until_due'],
      before: { tax_rate_bps: 0, days_until_due: 30 },
      after: { tax_rate_bps: 2000, days_until_due: 14 },
    })
  })
})
