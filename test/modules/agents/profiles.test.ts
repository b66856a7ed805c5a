// Agent profiles: every active user in an agent role is an agent (profile made on first use, offline,
// capacity 5, auto_offline on); PATCH of capacity, auto_offline, skills and teams (normalized, audited,
// a no-op writes nothing, bad values 400); the list's filters, sorts and keyset pages; custom activities.
import { describe, expect, test } from 'bun:test'
import { type Agent, agentsApp, client, expectError } from './agents-api.ts'

const { app, acme } = await agentsApp()
const { users } = acme
const admin = client(app, users.admin.auth)
const list = (query = '') =>
  admin.ok<{ agents: Agent[]; next_page_token: string; total_count?: number }>(admin.send('GET', `/api/v1/agents${query}`))
const ids = (agents: Agent[]) => agents.map((a) => a.id)

describe('profiles', () => {
  test('a new profile: offline, capacity 5, auto_offline on, with its user', async () => {
    const agent = await client(app, users.agent.auth).get('me')
    expect(agent).toEqual({
      id: users.agent.user.id,
      user: { id: users.agent.user.id, name: 'agent of acme', email: 'agent@acme.test', role: 'agent' },
      status: 'offline',
      available: false,
      status_reason: null,
      status_changed_at: new Date(app.clock.now()).toISOString(),
      session_id: null,
      max_concurrent: 5,
      current_load: 0,
      auto_offline: true,
      skills: [],
      teams: [],
      last_seen_at: null,
      created_at: new Date(app.clock.now()).toISOString(),
      updated_at: new Date(app.clock.now()).toISOString(),
    })
  })

  test('PATCH: skills and teams trimmed, lowercased, once each; audited; a no-op writes nothing', async () => {
    app.clock.advance(1000)
    const id = users.agent.user.id
    const changed = await admin.ok(admin.patch(id, { skills: [' Billing', 'billing', 'German '], teams: ['Tier 1'], max_concurrent: 8 }))
    expect(changed).toMatchObject({ skills: ['billing', 'german'], teams: ['tier 1'], max_concurrent: 8 })
    expect(changed.updated_at).toBe(new Date(app.clock.now()).toISOString())
    app.clock.advance(1000)
    expect(await admin.ok(admin.patch(id, { skills: ['billing', 'german'], max_concurrent: 8 }))).toEqual(changed)
    const audit = await app.context.db.raw.all<{ event: string; details: string }>(
      "SELECT event, details FROM audit_logs WHERE event = 'agent.updated' AND target_id = ?",
      [id],
    )
    expect(audit.map((r) => [r.event, JSON.parse(r.details)])).toEqual([
      ['agent.updated', { changed: ['max_concurrent', 'skills', 'teams'] }],
    ])
  })

  test('bad values are 400 naming the field', async () => {
    const id = users.agent.user.id
    for (const [body, field] of [
      [{ max_concurrent: 0 }, 'max_concurrent'],
      [{ max_concurrent: 1001 }, 'max_concurrent'],
      [{ max_concurrent: 2.5 }, 'max_concurrent'],
      [{ skills: [''] }, 'skills.0'],
      [{ teams: ['   '] }, 'teams.0'],
      [{ skills: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'skills'],
      [{ auto_offline: 'yes' }, 'auto_offline'],
    ] as const)
      await expectError(await admin.patch(id, body), 400, 'VALIDATION_FAILED', field)
    await expectError(await admin.patch(id, {}), 400, 'VALIDATION_FAILED')
  })
})

describe('the list', () => {
  test('every agent-role user, each once; filters status, available, team, skill', async () => {
    const all = await list('?include_total=true&page_size=100')
    expect(all.total_count).toBe(4)
    expect(all.agents.map((a) => a.user.role).sort()).toEqual(['admin', 'agent', 'super_admin', 'supervisor'])
    await client(app, users.agent.auth).login()
    await client(app, users.supervisor.auth).login()
    await admin.ok(admin.setStatus(users.supervisor.user.id, 'break'))
    await admin.ok(admin.patch(users.supervisor.user.id, { skills: ['german'], teams: ['tier 2'] }))
    expect(ids((await list('?status=available')).agents)).toEqual([users.agent.user.id])
    expect(ids((await list('?available=true')).agents)).toEqual([users.agent.user.id])
    expect(ids((await list('?available=false&status=break')).agents)).toEqual([users.supervisor.user.id])
    expect(ids((await list('?skill=German')).agents).sort()).toEqual([users.agent.user.id, users.supervisor.user.id].sort())
    expect(ids((await list('?team=tier%201')).agents)).toEqual([users.agent.user.id])
    expect(ids((await list('?team=none&skill=german')).agents)).toEqual([])
    expect((await list('?status=offline&page_size=100')).agents.length).toBe(2)
    await expectError(await admin.send('GET', '/api/v1/agents?status=Not-A-Key'), 400, 'VALIDATION_FAILED', 'status')
  })

  test('keyset pages in each sort; a page token replayed with other filters is refused', async () => {
    for (const sort of ['created_at', 'status_changed_at', 'current_load'])
      for (const direction of ['asc', 'desc']) {
        const whole = ids((await list(`?sort=${sort}:${direction}&page_size=100`)).agents)
        const paged: string[] = []
        let token = ''
        do {
          const page = await list(`?sort=${sort}:${direction}&page_size=1${token ? `&page_token=${encodeURIComponent(token)}` : ''}`)
          paged.push(...ids(page.agents))
          token = page.next_page_token
        } while (token)
        expect(paged).toEqual(whole)
      }
    const first = await list('?page_size=1')
    await expectError(
      await admin.send('GET', `/api/v1/agents?page_size=1&status=offline&page_token=${encodeURIComponent(first.next_page_token)}`),
      400,
      'INVALID_PAGE_TOKEN',
    )
  })

  test('a user made later is listed; a disabled one, or one out of the agent roles, leaves the list but keeps its profile', async () => {
    const created = await admin.ok<{ id: string }>(
      admin.send('POST', '/api/v1/users', undefined, {
        email: 'new@acme.test',
        name: 'New Agent',
        role: 'agent',
        password: 'a long enough password',
      }),
      201,
    )
    expect(ids((await list('?page_size=100')).agents)).toContain(created.id)
    expect((await admin.get(created.id)).user).toEqual({ id: created.id, name: 'New Agent', email: 'new@acme.test', role: 'agent' })
    await admin.ok(admin.send('PATCH', `/api/v1/users/${created.id}`, undefined, { status: 'disabled' }))
    expect(ids((await list('?page_size=100')).agents)).not.toContain(created.id)
    expect((await admin.get(created.id)).id).toBe(created.id)
    // Moved out of the agent roles: likewise.
    await admin.ok(admin.send('PATCH', `/api/v1/users/${users.agent.user.id}`, undefined, { role: 'viewer' }))
    expect(ids((await list('?page_size=100')).agents)).not.toContain(users.agent.user.id)
    await admin.ok(admin.send('PATCH', `/api/v1/users/${users.agent.user.id}`, undefined, { role: 'agent' }))
  })
})

describe('activities', () => {
  const activities = async () =>
    (await admin.ok<{ activities: Record<string, unknown>[] }>(admin.send('GET', '/api/v1/agent-activities'))).activities
  const create = (body: unknown) => admin.send('POST', '/api/v1/agent-activities', undefined, body)

  test('the built-in ones first, then the organization’s own', async () => {
    expect((await activities()).map((a) => [a.key, a.available, a.built_in])).toEqual([
      ['offline', false, true],
      ['available', true, true],
      ['busy', false, true],
      ['break', false, true],
      ['wrap_up', false, true],
    ])
    const made = await admin.ok<Record<string, unknown>>(create({ key: 'training', name: ' Training ', available: false }), 201)
    expect(made).toEqual({
      key: 'training',
      name: 'Training',
      available: false,
      built_in: false,
      created_at: new Date(app.clock.now()).toISOString(),
    })
    expect((await activities()).at(-1)).toEqual(made)
  })

  test('keys: unique, not built in, well-formed; the available flag is fixed (no route changes it)', async () => {
    await expectError(await create({ key: 'training', name: 'Again', available: true }), 409, 'CONFLICT', 'key')
    await expectError(await create({ key: 'break', name: 'Break', available: true }), 409, 'CONFLICT', 'key')
    for (const key of ['Training', '1st', 'with-dash', 'a'.repeat(41), ''])
      await expectError(await create({ key, name: 'X', available: true }), 400, 'VALIDATION_FAILED', 'key')
    await expectError(await create({ key: 'x', name: 'X' }), 400, 'VALIDATION_FAILED', 'available')
    for (const method of ['PATCH', 'PUT'])
      expect((await admin.send(method, '/api/v1/agent-activities/training', undefined, { available: true })).status).toBeOneOf([404, 405])
  })

  test('deleted only when no agent is in it; built-in ones never; unknown 404', async () => {
    const agent = client(app, users.agent.auth)
    await agent.ok(agent.setStatus('me', 'training'))
    const inUse = await expectError(await admin.send('DELETE', '/api/v1/agent-activities/training'), 409, 'CONFLICT')
    expect(inUse.message).toContain('training')
    await agent.ok(agent.setStatus('me', 'available'))
    expect((await admin.send('DELETE', '/api/v1/agent-activities/training')).status).toBe(204)
    await expectError(await admin.send('DELETE', '/api/v1/agent-activities/training'), 404, 'NOT_FOUND')
    await expectError(await admin.send('DELETE', '/api/v1/agent-activities/break'), 409, 'CONFLICT')
    await expectError(await agent.setStatus('me', 'training'), 400, 'VALIDATION_FAILED', 'status')
  })

  test('at most 50 of its own', async () => {
    for (let i = 0; i < 50; i++) await admin.ok(create({ key: `a${i}`, name: `A${i}`, available: i % 2 === 0 }), 201)
    await expectError(await create({ key: 'one_more', name: 'One more', available: true }), 409, 'CONFLICT')
  })
})
