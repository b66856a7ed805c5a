// A personal access token's stored key and owner, kept in memory between commits on SQLite
// (db/marked-cache.ts): a revocation, a disabled owner or a changed role is seen by the very next
// request, whether this process committed it amid concurrent requests or another process wrote the file.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { json, makeTestApp } from '../../helpers/app.ts'
import { TEST_ENGINE } from '../../helpers/engine.ts'
import { seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)
const owner = users.supervisor

// Straight to the app, without the helper's wait for the next event-loop turn: a change and the request
// after it run in the same turn, where only the writes' own move of the mark can tell.
const handle = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  app.app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
const newKey = async () => {
  const expires = new Date(app.clock.now() + 30 * 86_400_000).toISOString()
  const created = await handle('POST', '/api/v1/api-keys', owner.auth, { name: 'cached', expires_at: expires })
  expect(created.status).toBe(201)
  return json<{ id: string; token: string }>(created)
}
const withKey = (token: string) => handle('GET', '/api/v1/tickets?page_size=1', { 'x-api-key': token })

describe('changes through the API', () => {
  test('a revoked key is refused from the next request on, with requests of it running meanwhile', async () => {
    for (let round = 0; round < 10; round++) {
      const key = await newKey()
      expect((await withKey(key.token)).status).toBe(200)
      const meanwhile = Array.from({ length: 10 }, () => withKey(key.token))
      expect((await handle('DELETE', `/api/v1/api-keys/${key.id}`, owner.auth)).status).toBe(204)
      expect((await withKey(key.token)).status).toBe(401)
      await Promise.all(meanwhile)
      expect((await withKey(key.token)).status).toBe(401)
    }
  })
})

describe.skipIf(TEST_ENGINE !== 'sqlite')('changes by another process on the same SQLite file', () => {
  test('the owner disabled and enabled by another connection: refused, then let in, from the next request on', async () => {
    const key = await newKey()
    const other = new Database(join(app.dataDir, 'switchboard.db'))
    try {
      other.run('PRAGMA busy_timeout = 5000')
      const set = other.query('UPDATE users SET status = ? WHERE id = ?')
      for (let round = 0; round < 10; round++) {
        expect((await app.request('/api/v1/tickets?page_size=1', { headers: { 'x-api-key': key.token } })).status).toBe(200)
        set.run('disabled', owner.user.id)
        expect((await app.request('/api/v1/tickets?page_size=1', { headers: { 'x-api-key': key.token } })).status).toBe(401)
        set.run('active', owner.user.id)
      }
    } finally {
      other.close()
    }
  })
})
