// Leads through the API: create and its validation, read, PATCH semantics, delete, another
// organization's lead, and the list's filters, sorts and pages.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { client, expectError, type Lead, leadsApp } from './leads-api.ts'

const { app, acme, globex } = await leadsApp()
const { users } = acme
const { send, create, patch, get } = client(app, users.admin.auth)
const iso = () => new Date(app.clock.now()).toISOString()
/** A user of the organization who was disabled: no owner of anything new. */
const disabledUser = await (async () => {
  const response = await send('POST', '/api/v1/users', users.admin.auth, {
    email: 'gone@acme.test',
    name: 'Gone',
    password: 'password-123',
    role: 'agent',
  })
  const { id } = await json<{ id: string }>(response)
  expect((await send('DELETE', `/api/v1/users/${id}`)).status).toBe(204)
  return id
})()

describe('POST /api/v1/leads', () => {
  test('201 with exactly the lead fields and the defaults', async () => {
    const response = await send('POST', '/api/v1/leads', users.agent.auth, { name: '  Grace Hopper  ' })
    expect(response.status).toBe(201)
    const lead = await json<Lead>(response)
    expect(lead.id).toMatch(/^lea_[0-9A-Z]{26}$/)
    expect(Object.keys(lead)).toEqual([
      'id',
      'name',
      'email',
      'phone',
      'company_name',
      'source',
      'score',
      'status',
      'owner_id',
      'converted_at',
      'converted_contact_id',
      'converted_account_id',
      'created_at',
      'updated_at',
    ])
    expect(lead).toEqual({
      id: lead.id,
      name: 'Grace Hopper',
      email: null,
      phone: null,
      company_name: null,
      source: null,
      score: 0,
      status: 'new',
      owner_id: null,
      converted_at: null,
      converted_contact_id: null,
      converted_account_id: null,
      created_at: iso(),
      updated_at: iso(),
    })
    expect(await get(lead.id)).toEqual(lead)
  })

  test('every field given is kept: e-mail lowercased, phone in E.164, source and company trimmed', async () => {
    const lead = await create({
      email: 'Grace.Hopper@EXAMPLE.com',
      phone: '+49 (151) 1234-5678',
      company_name: '  Example GmbH ',
      source: '  Trade show 2026 ',
      score: 72,
      status: 'qualified',
      owner_id: users.supervisor.user.id,
    })
    expect(lead).toMatchObject({
      email: 'grace.hopper@example.com',
      phone: '+4915112345678',
      company_name: 'Example GmbH',
      source: 'Trade show 2026',
      score: 72,
      status: 'qualified',
      owner_id: users.supervisor.user.id,
    })
    expect(await get(lead.id)).toEqual(lead)
  })

  test('an empty source or company name is stored as none', async () => {
    expect(await create({ source: '   ', company_name: '' })).toMatchObject({ source: null, company_name: null })
  })

  test('score 0 and 100 are accepted', async () => {
    expect((await create({ score: 0 })).score).toBe(0)
    expect((await create({ score: 100 })).score).toBe(100)
  })

  const invalid: [string, Record<string, unknown>, string][] = [
    ['no name', { name: undefined }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a whitespace-only name', { name: '  \t ' }, 'name'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a malformed e-mail', { email: 'not-an-email' }, 'email'],
    ['a phone number without its country code', { phone: '0151 12345678' }, 'phone'],
    ['a phone number too short for its country', { phone: '+49 151' }, 'phone'],
    ['a phone number of letters', { phone: 'call me' }, 'phone'],
    ['a phone number with an extension', { phone: '+1 415 555 2671 ext 12' }, 'phone'],
    ['an unknown country code', { phone: '+999 1234567' }, 'phone'],
    ['a score below 0', { score: -1 }, 'score'],
    ['a score above 100', { score: 101 }, 'score'],
    ['a fractional score', { score: 50.5 }, 'score'],
    ['a score as text', { score: 'high' }, 'score'],
    ['a source of 101 characters', { source: 's'.repeat(101) }, 'source'],
    ['status converted at creation', { status: 'converted' }, 'status'],
    ['an unknown status', { status: 'won' }, 'status'],
    ['an owner of another organization', { owner_id: globex.users.admin.user.id }, 'owner_id'],
    ['an owner that does not exist', { owner_id: 'usr_00000000000000000000000000' }, 'owner_id'],
    ['a disabled owner', { owner_id: disabledUser }, 'owner_id'],
    ['converted_at (read-only)', { converted_at: '2026-01-01T00:00:00.000Z' }, 'converted_at'],
    ['converted_contact_id (read-only)', { converted_contact_id: 'con_x' }, 'converted_contact_id'],
    ['converted_account_id (read-only)', { converted_account_id: 'acc_x' }, 'converted_account_id'],
  ]
  test.each(invalid)('%s: 400 VALIDATION_FAILED naming the field', async (_name, body, field) => {
    const before = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM leads')
    const response = await send('POST', '/api/v1/leads', users.admin.auth, { name: 'Valid name', ...body })
    const error = await expectError(response, 400, 'VALIDATION_FAILED', field)
    expect(Object.keys(error).sort()).toEqual(['code', 'errors', 'message', 'request_id'])
    expect(await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM leads')).toEqual(before)
  })

  test('the phone error says what is expected', async () => {
    const error = await expectError(
      await send('POST', '/api/v1/leads', users.admin.auth, { name: 'X', phone: '12345' }),
      400,
      'VALIDATION_FAILED',
    )
    expect(error.errors?.map((e) => e.field)).toEqual(['phone'])
    expect(error.errors?.[0]?.message).toStartWith('must be a valid phone number with its country code, e.g. +')
  })
})

describe('GET /api/v1/leads/{id}', () => {
  test("another organization's lead and a lead that does not exist are both 404 NOT_FOUND, alike", async () => {
    const theirs = await create({}, globex.users.admin.auth)
    const missing = await expectError(await send('GET', '/api/v1/leads/lea_00000000000000000000000000'), 404, 'NOT_FOUND')
    const other = await expectError(await send('GET', `/api/v1/leads/${theirs.id}`, users.super_admin.auth), 404, 'NOT_FOUND')
    expect(other.message).toBe(missing.message)
    await expectError(await patch(theirs.id, { score: 1 }, users.super_admin.auth), 404, 'NOT_FOUND')
    await expectError(await send('DELETE', `/api/v1/leads/${theirs.id}`, users.super_admin.auth), 404, 'NOT_FOUND')
    expect(await get(theirs.id, globex.users.admin.auth)).toEqual(theirs)
  })

  test('every role that reads leads reads every lead of its organization, whoever owns it', async () => {
    const lead = await create({ owner_id: users.supervisor.user.id })
    for (const role of ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const)
      expect(await get(lead.id, users[role].auth)).toEqual(lead)
  })
})

describe('PATCH /api/v1/leads/{id}', () => {
  const full = {
    name: 'Original',
    email: 'original@example.com',
    phone: '+442079460958',
    company_name: 'Original Ltd',
    source: 'web',
    score: 10,
    owner_id: users.supervisor.user.id,
  }

  test('only the given fields change; updated_at moves; null clears a field', async () => {
    const before = await create(full)
    app.clock.advance(5_000)
    const response = await patch(before.id, { score: 55, email: 'New@Example.com' })
    expect(response.status).toBe(200)
    const after = await json<Lead>(response)
    expect(after).toEqual({ ...before, score: 55, email: 'new@example.com', updated_at: iso() })
    expect(await get(before.id)).toEqual(after)

    app.clock.advance(5_000)
    const cleared = await json<Lead>(await patch(before.id, { email: null, phone: null, company_name: null, source: null, owner_id: null }))
    expect(cleared).toEqual({ ...after, email: null, phone: null, company_name: null, source: null, owner_id: null, updated_at: iso() })
  })

  test('a phone is stored in E.164 whatever its spelling; an invalid one is 400 naming phone and changes nothing', async () => {
    const lead = await create(full)
    expect((await json<Lead>(await patch(lead.id, { phone: '+1 (415) 555-2671' }))).phone).toBe('+14155552671')
    await expectError(await patch(lead.id, { phone: '555-2671' }), 400, 'VALIDATION_FAILED', 'phone')
    expect((await get(lead.id)).phone).toBe('+14155552671')
  })

  test('a PATCH that changes nothing answers 200 and leaves updated_at (and writes no audit record)', async () => {
    const lead = await create(full)
    const audits = await app.context.db.raw.all('SELECT id FROM audit_logs WHERE target_id = ?', [lead.id])
    app.clock.advance(5_000)
    const same = await patch(lead.id, {
      name: ' Original ',
      email: 'ORIGINAL@example.com',
      phone: '+44 20 7946 0958',
      status: 'new',
      score: 10,
    })
    expect(same.status).toBe(200)
    expect(await json<Lead>(same)).toEqual(lead)
    expect(await app.context.db.raw.all('SELECT id FROM audit_logs WHERE target_id = ?', [lead.id])).toEqual(audits)
  })

  test('an empty body, unknown values and read-only fields: 400 naming the field', async () => {
    const lead = await create(full)
    await expectError(await patch(lead.id, {}), 400, 'VALIDATION_FAILED')
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: null }, 'name'],
      [{ score: 101 }, 'score'],
      [{ score: null }, 'score'],
      [{ status: 'won' }, 'status'],
      [{ email: 'nope' }, 'email'],
      [{ owner_id: globex.users.agent.user.id }, 'owner_id'],
      [{ converted_at: null }, 'converted_at'],
      [{ converted_contact_id: 'con_x' }, 'converted_contact_id'],
    ]
    for (const [body, field] of cases) await expectError(await patch(lead.id, body), 400, 'VALIDATION_FAILED', field)
    expect(await get(lead.id)).toEqual(lead)
  })
})

describe('DELETE /api/v1/leads/{id}', () => {
  test('204, then 404; a second delete is 404', async () => {
    const lead = await create()
    expect((await send('DELETE', `/api/v1/leads/${lead.id}`)).status).toBe(204)
    await expectError(await send('GET', `/api/v1/leads/${lead.id}`), 404, 'NOT_FOUND')
    await expectError(await send('DELETE', `/api/v1/leads/${lead.id}`), 404, 'NOT_FOUND')
  })
})

// An organization of its own, so the lists hold exactly these five leads.
const lists = await seedOrganization(app, 'lists')
const admin = lists.users.admin.auth
const ownerId = lists.users.agent.user.id
const specs: Record<string, unknown>[] = [
  { name: 'l1 Émile Zola', email: 'emile@zola.example', source: 'web', score: 10 },
  { name: 'l2 Ada Lovelace', email: 'ada@engine.example', source: 'referral', score: 90, owner_id: ownerId },
  { name: 'l3 Alan Turing', email: 'alan@bletchley.example', source: 'web', score: 50, status: 'contacted' },
  { name: 'l4 Grace Hopper', email: 'grace@navy.example', source: 'Web', status: 'unqualified' },
  { name: 'l5 Adele Goldberg', email: 'adele@parc.example', score: 90, owner_id: ownerId, status: 'qualified' },
]
const made: Lead[] = []
for (const spec of specs) {
  app.clock.advance(1_000)
  made.push(await create(spec, admin))
}
const [l1, l2, , l4] = made as [Lead, Lead, Lead, Lead, Lead]

describe('GET /api/v1/leads filters, sorts and pages', () => {
  const list = async (query: string) => {
    const response = await send('GET', `/api/v1/leads?${query}`, admin)
    expect(response.status).toBe(200)
    return (await json<{ leads: Lead[] }>(response)).leads.map((l) => l.name.slice(0, 2))
  }

  test.each([
    ['', ['l5', 'l4', 'l3', 'l2', 'l1']],
    ['status=new', ['l2', 'l1']],
    ['status=qualified', ['l5']],
    ['status=converted', []],
    [`owner_id=${ownerId}`, ['l5', 'l2']],
    ['owner_id=none', ['l4', 'l3', 'l1']],
    ['owner_id=usr_00000000000000000000000000', []],
    ['source=web', ['l3', 'l1']],
    ['source=Web', ['l4']],
    ['source=%20web%20', ['l3', 'l1']],
    ['source=fair', []],
    ['q=ad', ['l5', 'l2']],
    ['q=AD', ['l5', 'l2']],
    ['q=l3', ['l3']],
    ['q=emile', ['l1']],
    ['q=L1%20%C3%89MILE', ['l1']],
    ['q=alan%40', ['l3']],
    ['q=grace%40navy', ['l4']],
    ['q=%25', []],
    ['q=_', []],
    ['q=zola', []],
    ['score_min=50', ['l5', 'l3', 'l2']],
    ['score_max=10', ['l4', 'l1']],
    ['score_min=50&score_max=50', ['l3']],
    ['score_min=0&score_max=100', ['l5', 'l4', 'l3', 'l2', 'l1']],
    ['status=new&source=web', ['l1']],
    [`q=a&owner_id=${ownerId}&score_min=90`, ['l5', 'l2']],
  ])('?%s', async (query, expected) => {
    expect(await list(query)).toEqual(expected)
  })

  test('created_after and created_before are exclusive bounds, and combine', async () => {
    expect(await list(`created_after=${l2.created_at}`)).toEqual(['l5', 'l4', 'l3'])
    expect(await list(`created_before=${l4.created_at}`)).toEqual(['l3', 'l2', 'l1'])
    expect(await list(`created_after=${l2.created_at}&created_before=${l4.created_at}`)).toEqual(['l3'])
    expect(await list(`created_after=${l1.created_at}&source=web`)).toEqual(['l3'])
  })

  test('invalid filters: 400 naming them', async () => {
    const cases: [string, string][] = [
      ['created_after=yesterday', 'created_after'],
      ['created_before=2026-02-30T00:00:00Z', 'created_before'],
      ['status=won', 'status'],
      ['score_min=-1', 'score_min'],
      ['score_max=101', 'score_max'],
      ['score_min=ten', 'score_min'],
      ['score_min=60&score_max=40', 'score_min'],
      ['sort=name:asc', 'sort'],
      ['page_size=101', 'page_size'],
    ]
    for (const [query, field] of cases)
      await expectError(await send('GET', `/api/v1/leads?${query}`, admin), 400, 'VALIDATION_FAILED', field)
  })

  test('sort by score (0 until scored), with the id breaking ties in the sort direction', async () => {
    const tied = [l2, made[4]!].sort((a, b) => (a.id < b.id ? -1 : 1)).map((l) => l.name.slice(0, 2))
    expect(await list('sort=score:desc')).toEqual([...tied].reverse().concat(['l3', 'l1', 'l4']))
    expect(await list('sort=score:asc')).toEqual(['l4', 'l1', 'l3', ...tied])
  })

  test('sort by created_at ascending, and by updated_at following the latest change', async () => {
    expect(await list('sort=created_at:asc')).toEqual(['l1', 'l2', 'l3', 'l4', 'l5'])
    app.clock.advance(10_000)
    expect((await patch(l2.id, { score: 91 }, admin)).status).toBe(200)
    app.clock.advance(10_000)
    expect((await patch(l1.id, { status: 'contacted' }, admin)).status).toBe(200)
    expect(await list('sort=updated_at:desc')).toEqual(['l1', 'l2', 'l5', 'l4', 'l3'])
    expect(await list('sort=updated_at:asc')).toEqual(['l3', 'l4', 'l5', 'l2', 'l1'])
  })

  test('pages of 2 walk the whole filtered list once, with its total; a token is refused under another filter', async () => {
    const seen: string[] = []
    let token = ''
    for (let page = 0; page < 5; page++) {
      const body = await json<{ leads: Lead[]; next_page_token: string; total_count: number }>(
        await send('GET', `/api/v1/leads?sort=score:desc&page_size=2&include_total=true${token ? `&page_token=${token}` : ''}`, admin),
      )
      expect(body.total_count).toBe(5)
      seen.push(...body.leads.map((l) => l.id))
      token = body.next_page_token
      if (!token) break
    }
    expect(seen.sort()).toEqual(made.map((l) => l.id).sort())
    const first = await json<{ next_page_token: string }>(await send('GET', '/api/v1/leads?source=web&page_size=1', admin))
    expect(first.next_page_token).not.toBe('')
    await expectError(
      await send('GET', `/api/v1/leads?source=referral&page_size=1&page_token=${first.next_page_token}`, admin),
      400,
      'INVALID_PAGE_TOKEN',
    )
  })

  test("another organization's leads never appear", async () => {
    const ids = (await json<{ leads: Lead[] }>(await send('GET', '/api/v1/leads?page_size=100', acme.users.admin.auth))).leads.map(
      (l) => l.id,
    )
    expect(ids.length).toBeGreaterThan(0)
    for (const lead of made) expect(ids).not.toContain(lead.id)
  })
})
