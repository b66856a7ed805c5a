// Money and counts in billing bodies are JSON integers: a numeric string, a fraction or a float is 400,
// never coerced (Elysia's t.Integer would take "2900"), on the operator's and the organization's routes.
import { afterAll, test } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { createOperatorToken } from '../../../src/modules/operators/index.ts'
import { makeTestApp } from '../../helpers/app.ts'
import { expectError } from '../../helpers/errors.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { org, users } = await seedOrganization(app)
const { token } = await createOperatorToken(contextFor(app.context, { kind: 'system', id: 'cli' }), { name: 'numbers' })
const send = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
  app.request(path, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
const operator = { authorization: `Bearer ${token}` }

test.each([
  [
    'a price as a string',
    'PUT',
    '/api/v1/operator/plans/starter',
    { prices: [{ currency: 'usd', interval: 'month', unit_amount: '2900' }] },
  ],
  [
    'a price with cents as a fraction',
    'PUT',
    '/api/v1/operator/plans/starter',
    { prices: [{ currency: 'usd', interval: 'month', unit_amount: 29.5 }] },
  ],
  ['a rate as a string', 'PUT', '/api/v1/operator/plans/starter', { rate_limit_per_minute: '300' }],
  ['a tax rate as a string', 'PATCH', `/api/v1/operator/organizations/${org.id}/billing`, { tax_rate_bps: '2000' }],
  [
    'a line amount as a string',
    'POST',
    `/api/v1/operator/organizations/${org.id}/invoices`,
    { currency: 'usd', lines: [{ description: 'Setup', quantity: 1, unit_amount: '5000' }] },
  ],
  [
    'a line quantity as a float',
    'POST',
    `/api/v1/operator/organizations/${org.id}/invoices`,
    { currency: 'usd', lines: [{ description: 'Setup', quantity: 1.5, unit_amount: 5000 }] },
  ],
])('operator: %s is 400', async (_, method, path, body) => {
  await expectError(await send(method, path, body, operator), 400, 'VALIDATION_FAILED')
})

test('organization: seats as a string are 400', async () => {
  await expectError(
    await send('POST', '/api/v1/billing/subscription', { plan: 'starter', quantity: '2' }, users.super_admin.auth),
    400,
    'VALIDATION_FAILED',
  )
})
