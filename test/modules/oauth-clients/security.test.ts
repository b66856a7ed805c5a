// Who may use each OAuth client route: 401 without a credential, 403 below Admin, 404 for another organization's client (exactly as for a missing one), and Admin and Super Admin allowed.
import { describe, expect, test } from 'bun:test'
import { oauthClientsWorld } from './helpers.ts'

const { acme, globex, send, create } = await oauthClientsWorld()
const mine = await create()
const theirs = await create({}, globex.users.admin.auth)

/** Every route: method, path with `:id`, body. */
const ROUTES: [string, string, unknown][] = [
  ['POST', '/api/v1/oauth-clients', { name: 'X', redirect_uris: ['https://x.example/cb'] }],
  ['GET', '/api/v1/oauth-clients', undefined],
  ['GET', '/api/v1/oauth-clients/:id', undefined],
  ['PATCH', '/api/v1/oauth-clients/:id', { name: 'Renamed' }],
  ['POST', '/api/v1/oauth-clients/:id/rotate-secret', undefined],
  ['DELETE', '/api/v1/oauth-clients/:id', undefined],
]
const at = (path: string, id: string) => path.replace(':id', id)

describe.each(ROUTES)('%s %s', (method, path, body) => {
  test('401 without a credential, or with a bad one', async () => {
    expect((await send(method, at(path, mine.id), {}, body)).status).toBe(401)
    expect((await send(method, at(path, mine.id), { authorization: 'Bearer nope' }, body)).status).toBe(401)
  })

  test('403 for supervisor, agent and viewer (before anything else: even for a missing client)', async () => {
    for (const role of ['supervisor', 'agent', 'viewer'] as const)
      for (const id of [mine.id, 'ocl_00000000000000000000000000']) {
        const response = await send(method, at(path, id), acme.users[role].auth, body)
        expect({ role, status: response.status }).toEqual({ role, status: 403 })
      }
  })

  if (path.includes(':id'))
    test("404 for another organization's client, as for a missing one, and it is unchanged", async () => {
      for (const id of [theirs.id, 'ocl_00000000000000000000000000', 'nope']) {
        const response = await send(method, at(path, id), acme.users.super_admin.auth, body)
        expect({ id, status: response.status }).toEqual({ id, status: 404 })
      }
      const response = await send('GET', `/api/v1/oauth-clients/${theirs.id}`, globex.users.admin.auth)
      expect(await response.json()).toMatchObject({ name: 'Dashboard', secret_hint: theirs.secret_hint })
    })

  test('Admin and Super Admin may (2xx)', async () => {
    for (const role of ['admin', 'super_admin'] as const) {
      const target = method === 'DELETE' || path.endsWith('rotate-secret') ? await create() : mine
      const response = await send(method, at(path, target.id), acme.users[role].auth, body)
      expect({ role, ok: response.ok }).toEqual({ role, ok: true })
    }
  })
})

test("the list holds only the caller's organization's clients", async () => {
  const response = await send('GET', '/api/v1/oauth-clients?page_size=100', acme.users.admin.auth)
  const ids = ((await response.json()) as { oauth_clients: { id: string }[] }).oauth_clients.map((c) => c.id)
  expect(ids).toContain(mine.id)
  expect(ids).not.toContain(theirs.id)
})
