// A real access token re-spelled with other unused trailing bits in its signature (same bytes) is
// refused with 401 TOKEN_INVALID and never reaches the verified-token cache (issue 12, item 14).
import { afterAll, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const me = (token: string) => app.request('/api/v1/auth/sessions', { headers: { authorization: `Bearer ${token}` } })

test('the twin of a cached token: 401 TOKEN_INVALID, the cache neither grows nor loses the original', async () => {
  const token = users.agent.accessToken
  expect((await me(token)).status).toBe(200)
  const cached = app.context.ports.verifiedTokens.size
  const last = token.at(-1)!
  const twin = token.slice(0, -1) + ALPHABET[ALPHABET.indexOf(last) + 1]
  // Same signature bytes: only the spelling differs.
  expect(Buffer.from(twin.split('.')[2]!, 'base64url').equals(Buffer.from(token.split('.')[2]!, 'base64url'))).toBe(true)
  const response = await me(twin)
  expect(response.status).toBe(401)
  expect((await json<{ code: string }>(response)).code).toBe('TOKEN_INVALID')
  expect(response.headers.get('www-authenticate')).toContain('invalid_token')
  expect(app.context.ports.verifiedTokens.size).toBe(cached)
  expect((await me(token)).status).toBe(200)
})

test('a twin never verified before is refused too (not only when the original is cached)', async () => {
  const token = users.viewer.accessToken
  const twin = token.slice(0, -1) + ALPHABET[ALPHABET.indexOf(token.at(-1)!) + 3]
  const before = app.context.ports.verifiedTokens.size
  expect((await me(twin)).status).toBe(401)
  expect(app.context.ports.verifiedTokens.size).toBe(before)
})
