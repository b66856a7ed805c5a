// Who may write which contact: agents read every contact, and create, change, delete and merge only
// those they own or nobody owns, making only themselves or nobody the owner; supervisors and above
// write any; a refusal changes nothing.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme } = await crmApp()
const { users } = acme
const agent = users.agent.auth
const { send, createContact, eventsOf } = crmClient(app, users.supervisor.auth)
const other = await json<{ id: string }>(
  await send(
    'POST',
    '/api/v1/users',
    { email: 'agent2@acme.test', name: 'Agent Two', password: 'password-123', role: 'agent' },
    users.admin.auth,
  ),
)
const stored = async (id: string) => json<Contact>(await send('GET', `/api/v1/contacts/${id}`))
const owners = {
  nobody: () => null,
  'the agent itself': () => users.agent.user.id,
  'another agent': () => other.id,
}

describe('an agent', () => {
  test('creates contacts owned by nobody or by itself, not by another user (403, nothing written)', async () => {
    expect((await createContact({}, agent)).owner_id).toBeNull()
    expect((await createContact({ owner_id: users.agent.user.id }, agent)).owner_id).toBe(users.agent.user.id)
    const before = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts')
    const body = await expectError(
      await send('POST', '/api/v1/contacts', { name: 'X', owner_id: other.id }, agent),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect(body.message).toContain('owner')
    expect(await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts')).toEqual(before!)
  })

  test('reads every contact, whoever owns it', async () => {
    const theirs = await createContact({ owner_id: other.id })
    expect((await send('GET', `/api/v1/contacts/${theirs.id}`, undefined, agent)).status).toBe(200)
    const listed = await json<{ contacts: Contact[] }>(await send('GET', `/api/v1/contacts?owner_id=${other.id}`, undefined, agent))
    expect(listed.contacts.map((c) => c.id)).toContain(theirs.id)
  })

  for (const [whose, owner] of Object.entries(owners)) {
    const allowed = whose !== 'another agent'
    test(`${allowed ? 'changes and deletes' : 'may neither change nor delete (403)'} a contact owned by ${whose}`, async () => {
      const contact = await createContact({ owner_id: owner() })
      const patched = await send('PATCH', `/api/v1/contacts/${contact.id}`, { name: 'Changed' }, agent)
      if (allowed) expect((await json<Contact>(patched)).name).toBe('Changed')
      else {
        await expectError(patched, 403, 'INSUFFICIENT_PERMISSIONS')
        expect(await stored(contact.id)).toMatchObject({ name: contact.name, owner_id: contact.owner_id })
      }
      const deleted = await send('DELETE', `/api/v1/contacts/${contact.id}`, undefined, agent)
      if (allowed) expect(deleted.status).toBe(204)
      else {
        await expectError(deleted, 403, 'INSUFFICIENT_PERMISSIONS')
        expect((await send('GET', `/api/v1/contacts/${contact.id}`)).status).toBe(200)
        expect((await eventsOf(contact.id)).map((e) => e.type)).toEqual(['crm.contact.created'])
      }
    })
  }

  test('takes an unowned contact and releases its own, but cannot hand one to another user', async () => {
    const contact = await createContact()
    const taken = await json<Contact>(await send('PATCH', `/api/v1/contacts/${contact.id}`, { owner_id: users.agent.user.id }, agent))
    expect(taken.owner_id).toBe(users.agent.user.id)
    await expectError(await send('PATCH', `/api/v1/contacts/${contact.id}`, { owner_id: other.id }, agent), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await stored(contact.id)).owner_id).toBe(users.agent.user.id)
    const released = await json<Contact>(await send('PATCH', `/api/v1/contacts/${contact.id}`, { owner_id: null }, agent))
    expect(released.owner_id).toBeNull()
  })

  test('merges only contacts it may write, both of them', async () => {
    const mine = await createContact({ owner_id: users.agent.user.id })
    const theirs = await createContact({ owner_id: other.id })
    const unowned = await createContact()
    await expectError(
      await send('POST', `/api/v1/contacts/${mine.id}/merge`, { other_id: theirs.id }, agent),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(
      await send('POST', `/api/v1/contacts/${theirs.id}/merge`, { other_id: mine.id }, agent),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect((await send('GET', `/api/v1/contacts/${theirs.id}`)).status).toBe(200)
    expect((await send('GET', `/api/v1/contacts/${mine.id}`)).status).toBe(200)
    expect((await send('POST', `/api/v1/contacts/${mine.id}/merge`, { other_id: unowned.id }, agent)).status).toBe(200)
  })

  test('may not write accounts at all (403), only read them', async () => {
    const account = await json<{ id: string }>(await send('POST', '/api/v1/accounts', { name: 'Acme' }))
    await expectError(await send('POST', '/api/v1/accounts', { name: 'Mine' }, agent), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await send('PATCH', `/api/v1/accounts/${account.id}`, { name: 'Mine' }, agent), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await send('GET', `/api/v1/accounts/${account.id}`, undefined, agent)).status).toBe(200)
  })
})

describe('supervisors, admins and super admins', () => {
  for (const role of ['supervisor', 'admin', 'super_admin'] as const)
    test(`a ${role} changes a contact another user owns and gives it to anyone`, async () => {
      const contact = await createContact({ owner_id: other.id })
      const changed = await send(
        'PATCH',
        `/api/v1/contacts/${contact.id}`,
        { owner_id: users.agent.user.id, name: 'Moved' },
        users[role].auth,
      )
      expect(await json<Contact>(changed)).toMatchObject({ owner_id: users.agent.user.id, name: 'Moved' })
      expect((await send('DELETE', `/api/v1/contacts/${contact.id}`, undefined, users[role].auth)).status).toBe(204)
    })
})
