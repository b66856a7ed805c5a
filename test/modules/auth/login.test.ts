// POST /api/v1/auth/login: the login response, and one indistinguishable 401 for every bad credential.
import { afterAll, describe, expect, test } from 'bun:test'
import { ROLE_GRANTS } from '../../../src/modules/access/permissions.ts'
import { dummyHash } from '../../../src/lib/password.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users, org } = await seedOrganization(app)

const login = (body: unknown, headers: Record<string, string> = {}) =>
  app.request('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

describe('success', () => {
  test('tokens, their lifetime and the user, never cached', async () => {
    const response = await login({ email: 'supervisor@acme.test', password: PASSWORD })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const body = await json(response)
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user'])
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    expect(body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(body.refresh_token).toMatch(/^rt_[\w-]{43}$/)
    expect(body.user).toEqual({
      id: users.supervisor.user.id,
      email: 'supervisor@acme.test',
      name: 'supervisor of acme',
      organization_id: org.id,
      role: 'supervisor',
      permissions: [...ROLE_GRANTS.supervisor],
    })
    const me = await app.request('/api/v1/me', { headers: { authorization: `Bearer ${body.access_token}` } })
    expect((await json(me)).id).toBe(users.supervisor.user.id)
  })

  test('the e-mail is matched without regard to case or surrounding spaces', async () => {
    expect((await login({ email: '  SUPERVISOR@Acme.Test ', password: PASSWORD })).status).toBe(200)
  })

  test('each login opens its own session, recording the user agent', async () => {
    const sessions = () => app.context.db.raw.all<Record<string, unknown>>('SELECT * FROM sessions ORDER BY id')
    const before = (await sessions()).length
    await login({ email: 'agent@acme.test', password: PASSWORD }, { 'user-agent': 'integration-test/1.0' })
    const after = await sessions()
    expect(after.length).toBe(before + 1)
    expect(after.at(-1)).toMatchObject({ user_id: users.agent.user.id, user_agent: 'integration-test/1.0', revoked_at: null })
  })
})

describe('failure', () => {
  const expected = { code: 'INVALID_CREDENTIALS', message: 'E-mail or password is incorrect' }

  test('wrong password, unknown e-mail and disabled user answer the same 401', async () => {
    const { users: other } = await seedOrganization(app, 'disabled')
    await app.request(`/api/v1/users/${other.viewer.user.id}`, { method: 'DELETE', headers: other.admin.auth })
    const attempts = [
      { email: 'admin@acme.test', password: 'wrong password' },
      { email: 'nobody@acme.test', password: PASSWORD },
      { email: 'viewer@disabled.test', password: PASSWORD },
      { email: 'not even an e-mail', password: PASSWORD },
      { email: '', password: '' },
    ]
    for (const attempt of attempts) {
      const response = await login(attempt)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="switchboard"')
      const body = await json(response)
      expect({ code: body.code, message: body.message }).toEqual(expected)
      expect(Object.keys(body).sort()).toEqual(['code', 'message', 'request_id'])
    }
  })

  test('an unknown e-mail is verified against a dummy hash made like real ones (same time, no enumeration)', async () => {
    const params = (hash: string) => hash.split('$').slice(1, 4).join('$')
    expect(params(await dummyHash())).toBe(params(users.admin.user.password_hash))
    expect(params(await dummyHash())).toBe('argon2id$v=19$m=19456,t=2,p=1')
  })

  test('malformed bodies: 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'admin@acme.test' }, 'password'],
      [{ password: PASSWORD }, 'email'],
      [{ email: 42, password: PASSWORD }, 'email'],
      [{ email: 'admin@acme.test', password: 'x'.repeat(1025) }, 'password'],
    ]
    for (const [body, field] of cases) {
      const response = await login(body)
      expect(response.status).toBe(400)
      expect((await json<{ errors: { field: string }[] }>(response)).errors.map((e) => e.field)).toEqual([field])
    }
  })
})
