// POST /api/v1/auth/password: needs the current password; the new one signs in; other sessions end.
import { afterAll, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { PASSWORD, seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)

const change = (auth: Record<string, string>, body: unknown) =>
  app.request('/api/v1/auth/password', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const login = (password: string) =>
  app.request('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'agent@acme.test', password }),
  })

test('a wrong current password: 400 naming it, nothing changes', async () => {
  const response = await change(users.agent.auth, { current_password: 'not it', new_password: 'a brand new password' })
  expect(response.status).toBe(400)
  expect((await json(response)).errors).toEqual([{ field: 'current_password', message: 'is not the current password' }])
  expect((await login(PASSWORD)).status).toBe(200)
})

test('a new password shorter than 8 characters: 400', async () => {
  const response = await change(users.agent.auth, { current_password: PASSWORD, new_password: 'short' })
  expect(response.status).toBe(400)
  expect((await json<{ errors: { field: string }[] }>(response)).errors.map((e) => e.field)).toEqual(['new_password'])
})

test('changed: the old password fails, the new one works, other sessions end, this one stays', async () => {
  const elsewhere = await signIn(app, users.agent.user)
  const response = await change(users.agent.auth, { current_password: PASSWORD, new_password: 'a brand new password' })
  expect(response.status).toBe(204)
  expect((await login(PASSWORD)).status).toBe(401)
  expect((await login('a brand new password')).status).toBe(200)
  expect((await app.request('/api/v1/me', { headers: elsewhere.auth })).status).toBe(401)
  expect((await app.request('/api/v1/me', { headers: users.agent.auth })).status).toBe(200)
})

test('requires authentication', async () => {
  expect((await change({}, { current_password: PASSWORD, new_password: 'whatever it is' })).status).toBe(401)
})
