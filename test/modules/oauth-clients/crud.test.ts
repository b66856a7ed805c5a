// OAuth clients through the API: register (a confidential client's secret shown once, kept as SHA-256), read, list, change, delete, rotate the secret, and the audit records.
import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { json } from '../../helpers/app.ts'
import { oauthClientsWorld, type OAuthClient, type WithSecret } from './helpers.ts'

const { app, acme, send, create } = await oauthClientsWorld()
const admin = acme.users.admin.auth
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const rowOf = (id: string) => app.context.db.raw.get<Record<string, unknown>>('SELECT * FROM oauth_clients WHERE id = ?', [id])
const auditOf = (id: string) =>
  app.context.db.raw.all<{ event: string; actor_id: string; details: string }>(
    'SELECT event, actor_id, details FROM audit_logs WHERE target_id = ? ORDER BY seq',
    [id],
  )

describe('POST /api/v1/oauth-clients', () => {
  test('a confidential client (the default): 201, no-store, the secret once (ocs_ + 43 characters), its SHA-256 kept and nothing else', async () => {
    const response = await send('POST', '/api/v1/oauth-clients', admin, {
      name: '  Dashboard ',
      redirect_uris: ['https://app.example.com/cb'],
    })
    expect(response.status).toBe(201)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const client = await json<WithSecret>(response)
    expect(client.id).toMatch(/^ocl_[0-9A-Z]{26}$/)
    expect(client.client_secret).toMatch(/^ocs_[A-Za-z0-9_-]{43}$/)
    expect(client).toMatchObject({
      client_id: client.id,
      name: 'Dashboard',
      client_type: 'confidential',
      redirect_uris: ['https://app.example.com/cb'],
      post_logout_redirect_uris: [],
      grant_types: ['authorization_code'],
      scopes: ['openid', 'profile', 'email'],
      secret_hint: client.client_secret!.slice(-4),
      created_by: acme.users.admin.user.id,
      created_at: new Date(app.clock.now()).toISOString(),
      secret_rotated_at: null,
    })
    const row = (await rowOf(client.id))!
    expect(row.secret_hash).toBe(sha256(client.client_secret!))
    expect(JSON.stringify(row)).not.toContain(client.client_secret!)
    const read = await json<Record<string, unknown>>(await send('GET', `/api/v1/oauth-clients/${client.id}`, admin))
    expect(read).not.toHaveProperty('client_secret')
    expect(read).toEqual({ ...client, client_secret: undefined } as unknown as Record<string, unknown>)
  })

  test('a public client has no secret; it may use loopback and private-use redirect URIs', async () => {
    const client = await create({
      client_type: 'public',
      redirect_uris: ['com.example.app:/cb', 'http://127.0.0.1/cb', 'http://[::1]/cb', 'http://localhost:8080/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'offline_access', 'tickets:read'],
    })
    expect(client).toMatchObject({ client_type: 'public', client_secret: null, secret_hint: null })
    expect((await rowOf(client.id))!.secret_hash).toBeNull()
  })

  test('a confidential client for client_credentials only needs no redirect URI; duplicates are dropped', async () => {
    const client = await create({
      redirect_uris: [],
      grant_types: ['client_credentials'],
      scopes: ['tickets:read', 'tickets:read', 'users:read'],
    })
    expect(client).toMatchObject({ redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read', 'users:read'] })
  })
})

describe('list, change, delete', () => {
  test('GET lists the organization’s clients newest first, page by page, never a secret', async () => {
    const made = [await create({ name: 'A' }), await create({ name: 'B' }), await create({ name: 'C' })]
    const first = await json<{ oauth_clients: OAuthClient[]; next_page_token: string }>(
      await send('GET', '/api/v1/oauth-clients?page_size=2', admin),
    )
    expect(first.oauth_clients.map((c) => c.name)).toEqual(['C', 'B'])
    const next = await json<{ oauth_clients: OAuthClient[] }>(
      await send('GET', `/api/v1/oauth-clients?page_size=2&page_token=${encodeURIComponent(first.next_page_token)}`, admin),
    )
    expect(next.oauth_clients[0]!.id).toBe(made[0]!.id)
    expect(JSON.stringify([first, next])).not.toContain('client_secret')
  })

  test('PATCH changes what it names and keeps the rest; DELETE removes the client (404 after); each audited', async () => {
    const client = await create({ name: 'Before' })
    app.clock.advance(1000)
    const response = await send('PATCH', `/api/v1/oauth-clients/${client.id}`, admin, { name: 'After', scopes: ['openid', 'users:read'] })
    expect(response.status).toBe(200)
    const changed = await json<OAuthClient>(response)
    expect(changed).toMatchObject({
      name: 'After',
      scopes: ['openid', 'users:read'],
      redirect_uris: client.redirect_uris,
      secret_hint: client.secret_hint,
    })
    expect(changed.updated_at).toBe(new Date(app.clock.now()).toISOString())
    expect((await send('DELETE', `/api/v1/oauth-clients/${client.id}`, admin)).status).toBe(204)
    expect((await send('GET', `/api/v1/oauth-clients/${client.id}`, admin)).status).toBe(404)
    const records = await auditOf(client.id)
    expect(records.map((r) => r.event)).toEqual(['oauth_client.created', 'oauth_client.updated', 'oauth_client.deleted'])
    expect(JSON.parse(records[1]!.details)).toEqual({ changed: ['name', 'scopes'] })
    expect(records.every((r) => r.actor_id === acme.users.admin.user.id)).toBe(true)
    expect(JSON.stringify(records)).not.toContain(client.client_secret!)
  })
})

describe('POST /api/v1/oauth-clients/{id}/rotate-secret', () => {
  test('a new secret once (no-store); the old hash is gone; audited without either secret', async () => {
    const client = await create()
    app.clock.advance(5000)
    const response = await send('POST', `/api/v1/oauth-clients/${client.id}/rotate-secret`, admin)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const rotated = await json<WithSecret>(response)
    expect(rotated.client_secret).toMatch(/^ocs_/)
    expect(rotated.client_secret).not.toBe(client.client_secret)
    expect(rotated).toMatchObject({
      id: client.id,
      secret_hint: rotated.client_secret!.slice(-4),
      secret_rotated_at: new Date(app.clock.now()).toISOString(),
    })
    expect((await rowOf(client.id))!.secret_hash).toBe(sha256(rotated.client_secret!))
    const records = await auditOf(client.id)
    expect(records.map((r) => r.event)).toEqual(['oauth_client.created', 'oauth_client.secret_rotated'])
    expect(JSON.parse(records[1]!.details)).toEqual({ previous_hint: client.secret_hint, secret_hint: rotated.secret_hint })
  })

  test('a public client has no secret to rotate: 409, nothing changed', async () => {
    const client = await create({ client_type: 'public' })
    const response = await send('POST', `/api/v1/oauth-clients/${client.id}/rotate-secret`, admin)
    expect(response.status).toBe(409)
    expect(await json(response)).toMatchObject({ code: 'CONFLICT' })
    expect((await rowOf(client.id))!.secret_hash).toBeNull()
  })
})
