// Issue 16 item 4: POST /api/v1/leads/{id}/convert with an Idempotency-Key. The key replays the first
// answer, another body under it is refused, and concurrent converts under one key run once.
import { afterAll, expect, test } from 'bun:test'
import { json, makeTestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { admin } = (await seedOrganization(app, 'acme')).users

const post = (path: string, body: unknown, key?: string) =>
  app.request(path, {
    method: 'POST',
    headers: { ...admin.auth, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    body: JSON.stringify(body),
  })
const qualifiedLead = async (email: string) => {
  const response = await post('/api/v1/leads', { name: 'Grace Prospect', email, status: 'qualified' })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}
const contactsNamed = async (email: string) =>
  (await json<{ contacts: unknown[] }>(await app.request(`/api/v1/contacts?q=${encodeURIComponent(email)}`, { headers: admin.auth })))
    .contacts.length

test('a retry of a conversion with its key gets the first answer replayed; another body under the key is 409', async () => {
  const lead = await qualifiedLead('grace@prospect.test')
  const key = crypto.randomUUID()
  const body = { account: null, contact: { create: {} } }
  const first = await post(`/api/v1/leads/${lead}/convert`, body, key)
  expect(first.status).toBe(200)
  const firstBody = await first.text()
  expect(JSON.parse(firstBody)).toMatchObject({ lead: { id: lead, status: 'converted' }, contact: { email: 'grace@prospect.test' } })

  const retry = await post(`/api/v1/leads/${lead}/convert`, body, key)
  expect(retry.status).toBe(200)
  expect(retry.headers.get('idempotent-replayed')).toBe('true')
  expect(await retry.text()).toBe(firstBody)

  const other = await post(`/api/v1/leads/${lead}/convert`, { account: { create: { name: 'Prospect Inc' } }, contact: { create: {} } }, key)
  expect(other.status).toBe(409)
  expect(await json(other)).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' })
  expect(await contactsNamed('grace@prospect.test')).toBe(1)
})

test('10 concurrent converts under one key: one runs, the others are 409 IDEMPOTENCY_KEY_IN_USE or its replay; one contact', async () => {
  const lead = await qualifiedLead('ada@prospect.test')
  const key = crypto.randomUUID()
  const body = { account: null, contact: { create: {} } }
  const responses = await Promise.all(Array.from({ length: 10 }, () => post(`/api/v1/leads/${lead}/convert`, body, key)))
  const ran = responses.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null)
  expect(ran).toHaveLength(1)
  const first = await ran[0]!.clone().text()
  for (const response of responses)
    if (response.status !== 200) expect(await json(response)).toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' })
    else expect(await response.text()).toBe(first)
  expect(await contactsNamed('ada@prospect.test')).toBe(1)
})
