// Accounts through the API: create and its validation (the domain's one spelling, unique per
// organization), PATCH semantics, read and delete (409 while contacts belong to it, or detach them), who
// may write, and the crm.account.* events with the full account.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type Account, type Contact, crmApp, crmClient, expectError } from './contacts-api.ts'

const { app, acme, globex } = await crmApp()
const { users } = acme
const { send, createAccount, createContact, eventsOf } = crmClient(app, users.supervisor.auth)
const iso = () => new Date(app.clock.now()).toISOString()
const getAccount = async (id: string) => json<Account>(await send('GET', `/api/v1/accounts/${id}`))

const member = await json<{ id: string }>(
  await send(
    'POST',
    '/api/v1/users',
    { email: 'member@acme.test', name: 'Member', password: 'password-123', role: 'agent' },
    users.admin.auth,
  ),
)
expect((await send('DELETE', `/api/v1/users/${member.id}`, undefined, users.admin.auth)).status).toBe(204)

describe('POST /api/v1/accounts', () => {
  test('201 with exactly the account fields and the defaults; GET answers the same', async () => {
    const response = await send('POST', '/api/v1/accounts', { name: '  Initech  ' })
    expect(response.status).toBe(201)
    const account = await json<Account>(response)
    expect(Object.keys(account)).toEqual([
      'id',
      'name',
      'domain',
      'industry',
      'size',
      'owner_id',
      'tags',
      'custom_fields',
      'created_at',
      'updated_at',
    ])
    expect(account.id).toMatch(/^acc_[0-9A-Z]{26}$/)
    expect(account).toEqual({
      id: account.id,
      name: 'Initech',
      domain: null,
      industry: null,
      size: null,
      owner_id: null,
      tags: [],
      custom_fields: {},
      created_at: iso(),
      updated_at: iso(),
    })
    expect(await getAccount(account.id)).toEqual(account)
  })

  test('every field given is kept: the domain reduced to its host, industry trimmed, tags lowercased once each', async () => {
    const account = await createAccount({
      name: 'Example Corp',
      domain: 'https://www.Example.COM./about?x=1',
      industry: '  Logistics ',
      size: '51-200',
      owner_id: users.agent.user.id,
      tags: ['VIP', 'vip', 'emea'],
      custom_fields: { region: 'emea', seats: 40, active: true },
    })
    expect(account).toMatchObject({
      name: 'Example Corp',
      domain: 'example.com',
      industry: 'Logistics',
      size: '51-200',
      owner_id: users.agent.user.id,
      tags: ['vip', 'emea'],
      custom_fields: { region: 'emea', seats: 40, active: true },
    })
  })

  const spellings: Array<[string, string]> = [
    ['ACME-Widgets.com', 'acme-widgets.com'],
    ['http://shop.widgets.io:8080/path/to', 'shop.widgets.io'],
    ['www.widgets.co.uk', 'widgets.co.uk'],
    ['widgets.net.', 'widgets.net'],
    ['ftp://files.widgets.org', 'files.widgets.org'],
    ['bücher.de', 'xn--bcher-kva.de'],
  ]
  for (const [typed, stored] of spellings)
    test(`domain ${typed} is stored as ${stored}`, async () => {
      expect((await createAccount({ domain: typed })).domain).toBe(stored)
    })

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['no name', { name: undefined }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a domain with spaces', { domain: 'not a domain' }, 'domain'],
    ['a single-label host', { domain: 'localhost' }, 'domain'],
    ['an IP address', { domain: '127.0.0.1' }, 'domain'],
    ['a label starting with a dash', { domain: '-acme.com' }, 'domain'],
    ['an empty label', { domain: 'acme..com' }, 'domain'],
    ['an e-mail address', { domain: 'sales@acme.com' }, 'domain'],
    ['a top-level label with digits', { domain: 'acme.c0m' }, 'domain'],
    ['a scheme alone', { domain: 'https://' }, 'domain'],
    ['an unknown size', { size: '10-20' }, 'size'],
    ['an owner of another organization', { owner_id: globex.users.admin.user.id }, 'owner_id'],
    ['an owner who does not exist', { owner_id: 'usr_00000000000000000000000000' }, 'owner_id'],
    ['a disabled owner', { owner_id: member.id }, 'owner_id'],
    ['21 tags', { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    ['a tag with a space', { tags: ['two words'] }, 'tags'],
    ['a custom field holding an object', { custom_fields: { a: { b: 1 } } }, 'custom_fields'],
    [
      'custom fields over 8 KiB as JSON',
      { custom_fields: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'x'.repeat(1000)])) },
      'custom_fields',
    ],
  ]
  for (const [what, body, field] of invalid)
    test(`${what}: 400 naming ${field}, nothing written`, async () => {
      const before = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM accounts')
      await expectError(await send('POST', '/api/v1/accounts', { name: 'Acme', ...body }), 400, 'VALIDATION_FAILED', field)
      expect(await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM accounts')).toEqual(before!)
    })

  test('an empty domain is none', async () => {
    expect((await createAccount({ domain: '' })).domain).toBeNull()
  })

  test('a domain another account of the organization has, in any spelling: 409 CONFLICT naming domain; another organization may have it', async () => {
    const first = await createAccount({ domain: 'globalcorp.com' })
    const body = await expectError(
      await send('POST', '/api/v1/accounts', { name: 'Copy', domain: 'HTTPS://WWW.GlobalCorp.com/' }),
      409,
      'CONFLICT',
      'domain',
    )
    expect(body.errors![0]!.message).toContain(first.id)
    const elsewhere = await createAccount({ domain: 'globalcorp.com' }, globex.users.admin.auth)
    expect(elsewhere.domain).toBe('globalcorp.com')
  })

  test('agents and viewers read accounts but may not create them: 403', async () => {
    for (const role of ['agent', 'viewer'] as const)
      await expectError(await send('POST', '/api/v1/accounts', { name: 'Nope' }, users[role].auth), 403, 'INSUFFICIENT_PERMISSIONS')
    const account = await createAccount()
    for (const role of ['agent', 'viewer'] as const)
      expect((await send('GET', `/api/v1/accounts/${account.id}`, undefined, users[role].auth)).status).toBe(200)
  })
})

describe('PATCH /api/v1/accounts/{id}', () => {
  test('changes only what is given; updated_at moves; crm.account.updated names exactly the changed fields', async () => {
    const account = await createAccount({ name: 'Before', industry: 'Retail', tags: ['a'] })
    app.clock.advance(1000)
    const response = await send('PATCH', `/api/v1/accounts/${account.id}`, {
      name: 'After',
      industry: 'Retail',
      tags: ['A', 'b'],
      size: '1-10',
    })
    expect(response.status).toBe(200)
    const after = await json<Account>(response)
    expect(after).toEqual({ ...account, name: 'After', tags: ['a', 'b'], size: '1-10', updated_at: iso() })
    expect(await getAccount(account.id)).toEqual(after)
    const events = await eventsOf(account.id)
    expect(events.map((e) => [e.type, e.data.changed && [...e.data.changed].sort()])).toEqual([
      ['crm.account.created', undefined],
      ['crm.account.updated', ['name', 'size', 'tags']],
    ])
    expect(events[1]!.data.account).toEqual(after)
  })

  test('a PATCH that changes nothing (the same domain in another spelling) answers the account and writes nothing', async () => {
    const account = await createAccount({ domain: 'samedomain.com', size: '11-50' })
    app.clock.advance(1000)
    const response = await send('PATCH', `/api/v1/accounts/${account.id}`, { domain: 'https://www.SameDomain.com', size: '11-50' })
    expect(response.status).toBe(200)
    expect(await json<Account>(response)).toEqual(account)
    expect((await eventsOf(account.id)).map((e) => e.type)).toEqual(['crm.account.created'])
  })

  test("another account's domain: 409 naming domain, and nothing changes; null clears the domain", async () => {
    await createAccount({ domain: 'taken.com' })
    const account = await createAccount({ domain: 'mine.com' })
    await expectError(await send('PATCH', `/api/v1/accounts/${account.id}`, { domain: 'taken.com' }), 409, 'CONFLICT', 'domain')
    expect((await getAccount(account.id)).domain).toBe('mine.com')
    const cleared = await json<Account>(await send('PATCH', `/api/v1/accounts/${account.id}`, { domain: null }))
    expect(cleared.domain).toBeNull()
  })

  test('an empty body, a bad domain or an owner of another organization: 400', async () => {
    const account = await createAccount()
    await expectError(await send('PATCH', `/api/v1/accounts/${account.id}`, {}), 400, 'VALIDATION_FAILED')
    await expectError(await send('PATCH', `/api/v1/accounts/${account.id}`, { domain: 'nope' }), 400, 'VALIDATION_FAILED', 'domain')
    await expectError(
      await send('PATCH', `/api/v1/accounts/${account.id}`, { owner_id: globex.users.agent.user.id }),
      400,
      'VALIDATION_FAILED',
      'owner_id',
    )
  })

  test("another organization's account, or none: 404, even for its Super Admin", async () => {
    const theirs = await createAccount({}, globex.users.admin.auth)
    for (const id of [theirs.id, 'acc_00000000000000000000000000']) {
      await expectError(await send('GET', `/api/v1/accounts/${id}`, undefined, users.super_admin.auth), 404, 'NOT_FOUND')
      await expectError(await send('PATCH', `/api/v1/accounts/${id}`, { name: 'Mine' }, users.super_admin.auth), 404, 'NOT_FOUND')
      await expectError(await send('DELETE', `/api/v1/accounts/${id}`, undefined, users.super_admin.auth), 404, 'NOT_FOUND')
    }
    expect((await send('GET', `/api/v1/accounts/${theirs.id}`, undefined, globex.users.viewer.auth)).status).toBe(200)
  })
})

describe('DELETE /api/v1/accounts/{id}', () => {
  test('204; the account is gone; crm.account.deleted carries its last state', async () => {
    const account = await createAccount({ domain: 'goner.com', tags: ['x'] })
    expect((await send('DELETE', `/api/v1/accounts/${account.id}`)).status).toBe(204)
    await expectError(await send('GET', `/api/v1/accounts/${account.id}`), 404, 'NOT_FOUND')
    const events = await eventsOf(account.id)
    expect(events.map((e) => e.type)).toEqual(['crm.account.created', 'crm.account.deleted'])
    expect(events[1]!.data).toEqual({ account })
    // Its domain is free again.
    expect((await createAccount({ domain: 'goner.com' })).domain).toBe('goner.com')
  })

  test('with contacts: 409 CONFLICT, and the account and its contacts stay as they were', async () => {
    const account = await createAccount()
    const contact = await createContact({ account_id: account.id })
    const body = await expectError(await send('DELETE', `/api/v1/accounts/${account.id}`), 409, 'CONFLICT')
    expect(body.message).toContain('cascade=detach')
    expect(await getAccount(account.id)).toEqual(account)
    expect((await json<Contact>(await send('GET', `/api/v1/contacts/${contact.id}`))).account_id).toBe(account.id)
  })

  test('?cascade=detach: the contacts stay without the account, each with crm.contact.updated naming account_id', async () => {
    const account = await createAccount()
    const contacts = [await createContact({ account_id: account.id }), await createContact({ account_id: account.id })]
    const unrelated = await createContact()
    app.clock.advance(1000)
    expect((await send('DELETE', `/api/v1/accounts/${account.id}?cascade=detach`)).status).toBe(204)
    await expectError(await send('GET', `/api/v1/accounts/${account.id}`), 404, 'NOT_FOUND')
    for (const before of contacts) {
      const after = await json<Contact & { account: unknown }>(await send('GET', `/api/v1/contacts/${before.id}`))
      expect(after).toEqual({ ...before, account_id: null, updated_at: iso(), account: null })
      const events = await eventsOf(before.id)
      expect(events.map((e) => [e.type, e.data.changed])).toEqual([
        ['crm.contact.created', undefined],
        ['crm.contact.updated', ['account_id']],
      ])
      const { account: _account, ...contactOnly } = after
      expect(events[1]!.data.contact).toEqual(contactOnly)
    }
    expect((await eventsOf(unrelated.id)).map((e) => e.type)).toEqual(['crm.contact.created'])
    expect((await eventsOf(account.id)).map((e) => e.type)).toEqual(['crm.account.created', 'crm.account.deleted'])
  })

  test('a contact merged away does not hold its account back', async () => {
    const [kept, other] = [await createAccount(), await createAccount()]
    const survivor = await createContact({ account_id: kept.id })
    const merged = await createContact({ account_id: other.id })
    expect((await send('POST', `/api/v1/contacts/${survivor.id}/merge`, { other_id: merged.id })).status).toBe(200)
    expect((await send('DELETE', `/api/v1/accounts/${other.id}`)).status).toBe(204)
  })

  test('an unknown cascade: 400 naming it; agents and viewers may not delete: 403', async () => {
    const account = await createAccount()
    await expectError(await send('DELETE', `/api/v1/accounts/${account.id}?cascade=all`), 400, 'VALIDATION_FAILED', 'cascade')
    for (const role of ['agent', 'viewer'] as const)
      await expectError(
        await send('DELETE', `/api/v1/accounts/${account.id}`, undefined, users[role].auth),
        403,
        'INSUFFICIENT_PERMISSIONS',
      )
    expect(await getAccount(account.id)).toEqual(account)
  })
})

test('crm.account.created carries the account as the API answered it, with an audit record', async () => {
  const account = await createAccount({ domain: 'audited.com', custom_fields: { tier: 1 } })
  const [event] = await eventsOf(account.id)
  expect(event).toMatchObject({ type: 'crm.account.created', organization_id: acme.org.id, data: { account } })
  const audit = await app.context.db.raw.get<{ event: string; target_id: string }>(
    "SELECT event, target_id FROM audit_logs WHERE target_id = ? AND event = 'crm.account.created'",
    [account.id],
  )
  expect(audit).toEqual({ event: 'crm.account.created', target_id: account.id })
})
