// The crm.account.* and crm.contact.* events reach a real HTTPS receiver subscribed to them: each body
// is the stored event byte for byte, signed, with the full object under data.account or data.contact; a
// receiver subscribed to contacts only gets those; a refused change leaves no event to deliver.
import { createHmac } from 'node:crypto'
import { afterAll, expect, test } from 'bun:test'
import { WebhookDispatcher } from '../../../src/modules/webhooks/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from '../webhooks/allow.ts'
import { type Account, type Contact, type CrmEvent, crmClient } from './contacts-api.ts'

const SECRET = 'a-secret-of-16-chars-or-more'
const receiver = await startReceiver()
// A fake clock starting now: the receiver's side checks signed timestamps against its own clock.
const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400' }, { clock: new FakeClock(Date.now()) })
const acme = await seedOrganization(app, 'acme')
await allowWebhookCidrs(app, acme.org.id, '127.0.0.0/8')
const dispatcher = new WebhookDispatcher(app.context, { extraCa: receiver.ca })
afterAll(async () => {
  await dispatcher.stop(0)
  await app.close()
  receiver.stop()
})
const { send, createAccount, createContact } = crmClient(app, acme.users.admin.auth)

async function register(path: string, events: string[]): Promise<void> {
  const response = await send('POST', '/api/v1/webhooks', { url: receiver.url(path), events, secret: SECRET })
  expect(response.status).toBe(201)
}

test('every change of an account or a contact is delivered, signed, with the full object', async () => {
  await register('/all', ['crm.*'])
  await register('/contacts', ['crm.contact.*'])

  const account = await createAccount({ name: 'Delivered Corp', domain: 'delivered.com' })
  const contact = await createContact({ name: 'Dee Livered', email: 'dee@delivered.com', account_id: account.id })
  const renamed = await json<Contact>(await send('PATCH', `/api/v1/contacts/${contact.id}`, { name: 'Dee Renamed' }))
  // Refused (the account has a contact): nothing is recorded, so nothing is sent.
  expect((await send('DELETE', `/api/v1/accounts/${account.id}`)).status).toBe(409)
  expect((await send('DELETE', `/api/v1/accounts/${account.id}?cascade=detach`)).status).toBe(204)
  expect((await send('DELETE', `/api/v1/contacts/${contact.id}`)).status).toBe(204)
  await dispatcher.pump()
  await dispatcher.settled()

  const stored = await app.context.db.raw.all<{ id: string; body: string }>(
    "SELECT id, body FROM events WHERE type LIKE 'crm.%' ORDER BY id",
  )
  const bodiesAt = (path: string) =>
    receiver.received
      .filter((r) => r.path === path)
      .map((r) => r.body)
      .sort()
  expect(bodiesAt('/all')).toEqual(stored.map((e) => e.body).sort())
  const events = stored.map((e) => JSON.parse(e.body) as CrmEvent)
  expect(events.map((e) => e.type)).toEqual([
    'crm.account.created',
    'crm.contact.created',
    'crm.contact.updated',
    'crm.contact.updated',
    'crm.account.deleted',
    'crm.contact.deleted',
  ])
  expect(bodiesAt('/contacts')).toEqual(
    stored
      .filter((_, i) => events[i]!.type.startsWith('crm.contact.'))
      .map((e) => e.body)
      .sort(),
  )

  expect(events[0]!.data).toEqual({ account: account satisfies Account })
  expect(events[1]!.data).toEqual({ contact })
  expect(events[2]!.data).toEqual({ contact: renamed, changed: ['name'] })
  expect(events[3]!.data).toMatchObject({ contact: { id: contact.id, account_id: null }, changed: ['account_id'] })
  expect(events[4]!.data).toEqual({ account })
  expect(events[5]!.data.contact).toMatchObject({ id: contact.id, name: 'Dee Renamed', account_id: null })

  for (const request of receiver.received) {
    const expected = `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`
    expect(request.headers['x-service-signature']).toBe(expected)
    expect(request.headers['webhook-id']).toBe((JSON.parse(request.body) as CrmEvent).id)
  }
})
