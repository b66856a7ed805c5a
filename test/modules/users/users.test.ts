// Users within the caller's organization: create, read, update, disable, /me, /roles and /permissions, with the
// management rules and the user.* events written alongside each change.
import { afterAll, describe, expect, test } from 'bun:test'
import { ALL_PERMISSIONS, ROLE_GRANTS } from '../../../src/modules/access/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const { users } = acme

const send = (method: string, path: string, auth: Record<string, string>, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const eventsFor = async (userId: string) =>
  (await app.context.db.raw.all<{ body: string }>('SELECT body FROM events WHERE organization_id = ? ORDER BY id', [acme.org.id]))
    .map(
      (e) =>
        JSON.parse(e.body) as {
          id: string
          type: string
          created_at: string
          organization_id: string
          data: { user: { id: string }; changed?: string[] }
        },
    )
    .filter((e) => e.data.user.id === userId)
let counter = 0
const newUser = async (role = 'agent', auth = users.admin.auth) => {
  const response = await send('POST', '/api/v1/users', auth, {
    email: `new${++counter}@acme.test`,
    name: `New ${counter}`,
    password: 'password-123',
    role,
  })
  expect(response.status).toBe(201)
  return json<{ id: string; email: string }>(response)
}

describe('POST /api/v1/users', () => {
  test('201 with the user; the e-mail is stored lowercased; user.created is written with the envelope', async () => {
    const response = await send('POST', '/api/v1/users', users.admin.auth, {
      email: 'Grace.Hopper@ACME.test',
      name: '  Grace Hopper ',
      password: 'password-123',
      role: 'supervisor',
    })
    expect(response.status).toBe(201)
    const user = await json(response)
    expect(Object.keys(user).sort()).toEqual(['created_at', 'email', 'id', 'name', 'organization_id', 'role', 'status', 'updated_at'])
    expect(user).toMatchObject({
      organization_id: acme.org.id,
      email: 'grace.hopper@acme.test',
      name: 'Grace Hopper',
      role: 'supervisor',
      status: 'active',
    })
    expect(user.id).toMatch(/^usr_[0-9A-Z]{26}$/)
    expect(user.created_at).toBe(new Date(app.clock.now()).toISOString())
    const [event] = await eventsFor(user.id as string)
    expect(Object.keys(event!)).toEqual(['id', 'type', 'created_at', 'organization_id', 'data'])
    expect(event).toMatchObject({ type: 'user.created', organization_id: acme.org.id, data: { user } })
    expect(event!.id).toMatch(/^evt_/)
    // The new user can sign in.
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'grace.hopper@acme.test', password: 'password-123' }),
    })
    expect(login.status).toBe(200)
  })

  test('an e-mail already used in any organization, in any case: 409', async () => {
    for (const email of ['ADMIN@acme.test', 'viewer@globex.test']) {
      const response = await send('POST', '/api/v1/users', users.admin.auth, {
        email,
        name: 'Dup',
        password: 'password-123',
        role: 'agent',
      })
      expect(response.status).toBe(409)
      expect(await json(response)).toMatchObject({ code: 'CONFLICT', message: 'A user with this e-mail already exists' })
    }
  })

  test('invalid fields: 400 naming each', async () => {
    const response = await send('POST', '/api/v1/users', users.admin.auth, { email: 'nope', name: '   ', password: 'short', role: 'owner' })
    expect(response.status).toBe(400)
    expect((await json<{ errors: { field: string }[] }>(response)).errors.map((e) => e.field).sort()).toEqual([
      'email',
      'name',
      'password',
      'role',
    ])
  })

  test('nobody hands out a role holding more than theirs', async () => {
    const response = await send('POST', '/api/v1/users', users.admin.auth, {
      email: 'boss@acme.test',
      name: 'Boss',
      password: 'password-123',
      role: 'super_admin',
    })
    expect(response.status).toBe(403)
    expect(await json(response)).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' })
    expect(
      (
        await send('POST', '/api/v1/users', users.super_admin.auth, {
          email: 'boss@acme.test',
          name: 'Boss',
          password: 'password-123',
          role: 'super_admin',
        })
      ).status,
    ).toBe(201)
  })
})

describe('GET /api/v1/users/{id} and /me', () => {
  test('a user of the organization', async () => {
    const response = await send('GET', `/api/v1/users/${users.agent.user.id}`, users.viewer.auth)
    expect(response.status).toBe(200)
    expect(await json(response)).toMatchObject({ id: users.agent.user.id, email: 'agent@acme.test', role: 'agent' })
  })

  test('a user of another organization is exactly as missing as one that never existed', async () => {
    const foreign = await send('GET', `/api/v1/users/${globex.users.agent.user.id}`, users.super_admin.auth)
    const missing = await send('GET', '/api/v1/users/usr_00000000000000000000000000', users.super_admin.auth)
    expect([foreign.status, missing.status]).toEqual([404, 404])
    const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined })
    expect(strip(await json(foreign))).toEqual(strip(await json(missing)))
  })

  test('/me is the caller with the permissions of its current role', async () => {
    const body = await json(await send('GET', '/api/v1/me', users.viewer.auth))
    expect(body).toMatchObject({ id: users.viewer.user.id, role: 'viewer', permissions: [...ROLE_GRANTS.viewer] })
  })

  test('/roles lists the five roles, most privileged first', async () => {
    const body = await json<{ roles: { name: string; permissions: string[] }[] }>(await send('GET', '/api/v1/roles', users.viewer.auth))
    expect(body.roles.map((r) => r.name)).toEqual(['super_admin', 'admin', 'supervisor', 'agent', 'viewer'])
    expect(body.roles[0]!.permissions).toEqual(['*:*'])
  })

  test('/permissions lists every resource:action to any signed-in user (what `*:*` and `ticket:*` stand for)', async () => {
    const body = await json<{ permissions: string[] }>(await send('GET', '/api/v1/permissions', users.agent.auth))
    expect(body.permissions).toEqual([...ALL_PERMISSIONS])
    expect(body.permissions.filter((p) => p.startsWith('ticket:'))).toEqual([
      'ticket:read',
      'ticket:create',
      'ticket:update',
      'ticket:delete',
      'ticket:assign',
      'ticket:comment',
    ])
    expect((await send('GET', '/api/v1/permissions', {})).status).toBe(401)
  })
})

describe('PATCH /api/v1/users/{id}', () => {
  test('renames, records updated_at and the changed fields', async () => {
    const user = await newUser()
    app.clock.advance(1000)
    const response = await send('PATCH', `/api/v1/users/${user.id}`, users.admin.auth, { name: 'Renamed' })
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(body).toMatchObject({ name: 'Renamed', updated_at: new Date(app.clock.now()).toISOString() })
    expect((await eventsFor(user.id)).map((e) => [e.type, e.data.changed])).toEqual([
      ['user.created', undefined],
      ['user.updated', ['name']],
    ])
  })

  test('fields left out stay as they are (no schema default sneaks in), even for a Super Admin caller', async () => {
    const user = await newUser('viewer')
    const response = await send('PATCH', `/api/v1/users/${user.id}`, users.super_admin.auth, { name: 'Only the name' })
    expect(await json(response)).toMatchObject({ name: 'Only the name', role: 'viewer', status: 'active' })
  })

  test('a change to nothing new writes no event', async () => {
    const user = await newUser()
    expect((await send('PATCH', `/api/v1/users/${user.id}`, users.admin.auth, { role: 'agent' })).status).toBe(200)
    expect((await eventsFor(user.id)).map((e) => e.type)).toEqual(['user.created'])
  })

  test('an empty or unknown-only body: 400', async () => {
    expect((await send('PATCH', `/api/v1/users/${users.agent.user.id}`, users.admin.auth, {})).status).toBe(400)
    expect((await send('PATCH', `/api/v1/users/${users.agent.user.id}`, users.admin.auth, { email: 'x@y.z' })).status).toBe(400)
    expect((await send('PATCH', `/api/v1/users/${users.agent.user.id}`, users.admin.auth, { status: 'deleted' })).status).toBe(400)
  })

  test('an admin cannot raise anyone to super_admin nor touch a super_admin', async () => {
    const user = await newUser()
    expect((await send('PATCH', `/api/v1/users/${user.id}`, users.admin.auth, { role: 'super_admin' })).status).toBe(403)
    expect((await send('PATCH', `/api/v1/users/${users.super_admin.user.id}`, users.admin.auth, { name: 'Hijacked' })).status).toBe(403)
    expect((await send('DELETE', `/api/v1/users/${users.super_admin.user.id}`, users.admin.auth)).status).toBe(403)
  })

  test('role changes take effect at once, even for tokens issued before', async () => {
    const { users: team } = await seedOrganization(app, 'promo')
    expect((await send('GET', '/api/v1/users/' + team.viewer.user.id, team.agent.auth)).status).toBe(200)
    expect(
      (await send('POST', '/api/v1/users', team.agent.auth, { email: 'x@promo.test', name: 'X', password: 'password-123', role: 'viewer' }))
        .status,
    ).toBe(403)
    expect((await send('PATCH', `/api/v1/users/${team.agent.user.id}`, team.super_admin.auth, { role: 'admin' })).status).toBe(200)
    expect(
      (await send('POST', '/api/v1/users', team.agent.auth, { email: 'x@promo.test', name: 'X', password: 'password-123', role: 'viewer' }))
        .status,
    ).toBe(201)
  })
})

describe('the last Super Admin', () => {
  test('cannot be demoted or disabled; once a second exists, the first can be, and the second is then the last', async () => {
    const { users: team } = await seedOrganization(app, 'solo')
    const owner = team.super_admin
    const lastMessage = 'This is the last active Super Admin of the organization: it cannot be demoted or disabled'
    const demoteSelf = await send('PATCH', `/api/v1/users/${owner.user.id}`, owner.auth, { role: 'admin' })
    expect(demoteSelf.status).toBe(409)
    expect((await json(demoteSelf)).message).toBe(lastMessage)
    const disableSelf = await send('DELETE', `/api/v1/users/${owner.user.id}`, owner.auth)
    expect(disableSelf.status).toBe(409)

    const created = await send('POST', '/api/v1/users', owner.auth, {
      email: 'second@solo.test',
      name: 'Second',
      password: 'password-123',
      role: 'super_admin',
    })
    expect(created.status).toBe(201)
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'second@solo.test', password: 'password-123' }),
    })
    const second = { authorization: `Bearer ${(await json<{ access_token: string }>(login)).access_token}` }
    const secondId = (await json(created)).id as string

    expect((await send('DELETE', `/api/v1/users/${owner.user.id}`, second)).status).toBe(204)
    const demoteLast = await send('PATCH', `/api/v1/users/${secondId}`, second, { role: 'viewer' })
    expect(demoteLast.status).toBe(409)
    expect((await json(demoteLast)).message).toBe(lastMessage)
    // Counting only active Super Admins: enabling the first one again restores the pair.
    expect((await send('PATCH', `/api/v1/users/${owner.user.id}`, second, { status: 'active' })).status).toBe(200)
    expect((await send('PATCH', `/api/v1/users/${secondId}`, second, { role: 'viewer' })).status).toBe(200)
  })
})

describe('DELETE /api/v1/users/{id}', () => {
  test('disables (kept, with history), ends its sessions, writes user.deleted once', async () => {
    const user = await newUser()
    const response = await send('DELETE', `/api/v1/users/${user.id}`, users.admin.auth)
    expect(response.status).toBe(204)
    expect(await json(await send('GET', `/api/v1/users/${user.id}`, users.admin.auth))).toMatchObject({ id: user.id, status: 'disabled' })
    expect((await send('DELETE', `/api/v1/users/${user.id}`, users.admin.auth)).status).toBe(204)
    expect((await eventsFor(user.id)).map((e) => e.type)).toEqual(['user.created', 'user.deleted'])
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: 'password-123' }),
    })
    expect(login.status).toBe(401)
  })

  test('a disabled user can be enabled again and sign in', async () => {
    const user = await newUser()
    await send('DELETE', `/api/v1/users/${user.id}`, users.admin.auth)
    expect((await send('PATCH', `/api/v1/users/${user.id}`, users.admin.auth, { status: 'active' })).status).toBe(200)
    const login = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: 'password-123' }),
    })
    expect(login.status).toBe(200)
  })

  test('you cannot disable yourself', async () => {
    const response = await send('DELETE', `/api/v1/users/${users.admin.user.id}`, users.admin.auth)
    expect(response.status).toBe(409)
    expect((await json(response)).message).toBe('You cannot disable your own account')
  })

  test('a user of another organization: 404', async () => {
    expect((await send('DELETE', `/api/v1/users/${globex.users.agent.user.id}`, users.super_admin.auth)).status).toBe(404)
    expect(await json(await send('GET', '/api/v1/me', globex.users.agent.auth))).toMatchObject({ status: 'active' })
  })
})

test('the seeded password is the one users sign in with (the fixtures are sound)', async () => {
  const response = await app.request('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'viewer@globex.test', password: PASSWORD }),
  })
  expect(response.status).toBe(200)
})
