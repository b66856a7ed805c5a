// Webhook registration end to end: the created body (never the secret, which is sealed at rest),
// every refusal of a bad url, events or secret naming its field, the 50-per-organization cap, list,
// read, change (turning it off and back on, clearing the failure state), delete, and the audit trail.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { seedOrganization, type SeededOrg } from '../../helpers/seed.ts'
import { allowWebhookCidrs } from './allow.ts'

const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((a) => a.close())))

async function setUp(settings: Record<string, string> = {}) {
  const app = await makeTestApp(settings)
  apps.push(app)
  const org = await seedOrganization(app, 'acme')
  const send = (method: string, path: string, body?: unknown, who: keyof SeededOrg['users'] = 'admin') =>
    app.request(path, {
      method,
      headers: { ...org.users[who].auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return { app, org, send }
}

const HOOK = { url: 'https://hooks.example.com/in', events: ['ticket.*'], secret: 'sixteen-chars-ok!' }
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

async function fieldErrors(response: Response): Promise<Record<string, string>> {
  expect(response.status).toBe(400)
  const body = await json<{ code: string; errors: { field: string; message: string }[] }>(response)
  expect(body.code).toBe('VALIDATION_FAILED')
  return Object.fromEntries(body.errors.map((e) => [e.field, e.message]))
}

describe('POST /api/v1/webhooks', () => {
  test('201 with the webhook, never its secret, which is stored sealed', async () => {
    const { app, send } = await setUp()
    const response = await send('POST', '/api/v1/webhooks', { ...HOOK, description: 'CRM sync' })
    expect(response.status).toBe(201)
    const body = await json(response)
    expect(body).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-Z]{26}$/),
      url: HOOK.url,
      events: ['ticket.*'],
      description: 'CRM sync',
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      consecutive_failures: 0,
      last_success_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    })
    expect(JSON.stringify(body)).not.toContain(HOOK.secret)
    const stored = (await app.context.db.raw.get<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE id = ?', [
      body.id as string,
    ]))!
    expect(stored.secret_sealed).not.toContain(HOOK.secret)
    expect(Buffer.from(stored.secret_sealed, 'base64').toString('latin1')).not.toContain(HOOK.secret)
  })

  test.each([
    ['http://hooks.example.com/in', 'must use https'],
    ['https://user:pw@hooks.example.com/in', 'must not carry credentials'],
    ['https://hooks.example.com/in#frag', 'must not have a fragment'],
    ['not a url', 'must be an absolute URL'],
    ['https://127.0.0.1/in', 'loopback'],
    ['https://10.1.2.3/in', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::1]/in', 'loopback'],
    ['https://[::ffff:10.0.0.1]/in', 'private'],
    ['https://0x7f.1/in', 'loopback'],
    ['https://100.64.0.1/in', 'carrier-grade NAT'],
  ])('url %s -> 400 naming url (%s)', async (url, message) => {
    const { send } = await setUp()
    const errors = await fieldErrors(await send('POST', '/api/v1/webhooks', { ...HOOK, url }))
    expect(errors.url).toContain(message)
  })

  test('ranges the operator allowed one organization let it register internal receivers; another organization is still refused', async () => {
    const { app, org, send } = await setUp()
    const other = await seedOrganization(app, 'other')
    expect(await allowWebhookCidrs(app, org.org.id, '10.0.0.0/8, fd00::/8')).toEqual(['10.0.0.0/8', 'fd00::/8'])
    expect((await send('POST', '/api/v1/webhooks', { ...HOOK, url: 'https://10.1.2.3:8443/in' })).status).toBe(201)
    expect((await send('POST', '/api/v1/webhooks', { ...HOOK, url: 'https://[fd00::1]/in' })).status).toBe(201)
    expect((await fieldErrors(await send('POST', '/api/v1/webhooks', { ...HOOK, url: 'https://192.168.1.1/in' }))).url).toContain('private')
    const fromOther = await app.request('/api/v1/webhooks', {
      method: 'POST',
      headers: { ...other.users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ...HOOK, url: 'https://10.1.2.3:8443/in' }),
    })
    expect((await fieldErrors(fromOther)).url).toBe('must not point at a private address')
    // Cleared, the organization is back to public addresses; what it registered stays (each send checks again).
    expect(await allowWebhookCidrs(app, org.org.id, '')).toEqual([])
    expect((await send('POST', '/api/v1/webhooks', { ...HOOK, url: 'https://10.1.2.3:8443/in' })).status).toBe(400)
  })

  test('events: names of the catalog, * and group prefixes; unknown ones are named', async () => {
    const { send } = await setUp()
    for (const events of [['*'], ['ticket.created', 'user.deleted'], ['crm.contact.*', 'ticket.comment.*'], ['ticket.*', 'ticket.*']]) {
      const response = await send('POST', '/api/v1/webhooks', { ...HOOK, events })
      expect(response.status).toBe(201)
      expect((await json<{ events: string[] }>(response)).events).toEqual([...new Set(events)])
    }
    const errors = await fieldErrors(
      await send('POST', '/api/v1/webhooks', { ...HOOK, events: ['ticket.created', 'ticket.exploded', 'foo.*', '.*', 'ticket'] }),
    )
    expect(errors.events).toContain('ticket.exploded, foo.*, .*, ticket')
    expect(errors.events).not.toContain('ticket.created')
    expect(Object.keys(await fieldErrors(await send('POST', '/api/v1/webhooks', { ...HOOK, events: [] })))).toEqual(['events'])
  })

  test('secret: 16 to 256 characters; url and events errors come together', async () => {
    const { send } = await setUp()
    expect(Object.keys(await fieldErrors(await send('POST', '/api/v1/webhooks', { ...HOOK, secret: 'x'.repeat(15) })))).toEqual(['secret'])
    expect(Object.keys(await fieldErrors(await send('POST', '/api/v1/webhooks', { ...HOOK, secret: 'x'.repeat(257) })))).toEqual(['secret'])
    expect((await send('POST', '/api/v1/webhooks', { ...HOOK, secret: 'x'.repeat(256) })).status).toBe(201)
    expect(
      Object.keys(await fieldErrors(await send('POST', '/api/v1/webhooks', { ...HOOK, url: 'http://a.example', events: ['nope'] }))).sort(),
    ).toEqual(['events', 'url'])
    const { secret: _, ...withoutSecret } = HOOK
    expect(Object.keys(await fieldErrors(await send('POST', '/api/v1/webhooks', withoutSecret)))).toEqual(['secret'])
  })

  test('at most 50 a organization: the 51st is 409 LIMIT_REACHED; another organization is not affected', async () => {
    const { app, send } = await setUp()
    for (let i = 0; i < 50; i++) expect((await send('POST', '/api/v1/webhooks', HOOK)).status).toBe(201)
    const refused = await send('POST', '/api/v1/webhooks', HOOK)
    expect(refused.status).toBe(409)
    expect((await json(refused)).code).toBe('LIMIT_REACHED')
    const other = await seedOrganization(app, 'globex')
    const response = await app.request('/api/v1/webhooks', {
      method: 'POST',
      headers: { ...other.users.admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify(HOOK),
    })
    expect(response.status).toBe(201)
  })
})

describe('list, read, change, delete', () => {
  test('list newest first and paginated; read one', async () => {
    const { app, send } = await setUp()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      ids.push((await json<{ id: string }>(await send('POST', '/api/v1/webhooks', { ...HOOK, description: `hook ${i}` }))).id)
      app.clock.advance(1000)
    }
    const first = await json<{ webhooks: { id: string }[]; next_page_token: string }>(await send('GET', '/api/v1/webhooks?page_size=2'))
    expect(first.webhooks.map((w) => w.id)).toEqual([ids[2]!, ids[1]!])
    const second = await json<{ webhooks: { id: string }[]; next_page_token: string }>(
      await send('GET', `/api/v1/webhooks?page_size=2&page_token=${encodeURIComponent(first.next_page_token)}`),
    )
    expect([second.webhooks.map((w) => w.id), second.next_page_token]).toEqual([[ids[0]!], ''])
    const one = await json(await send('GET', `/api/v1/webhooks/${ids[1]}`))
    expect([one.id, one.description, one.enabled]).toEqual([ids[1], 'hook 1', true])
    expect((await send('GET', '/api/v1/webhooks/whk_01KAX3M6W9P8T2V5G7H4J3C1QZ')).status).toBe(404)
  })

  test('PATCH changes each field; off is manual; back on clears the failure state; the secret stays hidden and is re-sealed', async () => {
    const { app, send } = await setUp()
    const { id } = await json<{ id: string }>(await send('POST', '/api/v1/webhooks', HOOK))
    const sealed = async () =>
      (await app.context.db.raw.get<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE id = ?', [id]))!.secret_sealed
    const before = await sealed()
    app.clock.advance(5000)
    const changed = await json(
      await send('PATCH', `/api/v1/webhooks/${id}`, {
        url: 'https://other.example.com/x',
        events: ['user.created'],
        description: 'new',
        secret: 'another-secret-of-16',
      }),
    )
    expect(changed).toMatchObject({ url: 'https://other.example.com/x', events: ['user.created'], description: 'new', enabled: true })
    expect(changed.updated_at).not.toBe(changed.created_at)
    expect(await sealed()).not.toBe(before)
    expect(JSON.stringify(changed)).not.toContain('another-secret')
    expect((await json(await send('PATCH', `/api/v1/webhooks/${id}`, { description: null }))).description).toBeNull()

    const off = await json(await send('PATCH', `/api/v1/webhooks/${id}`, { enabled: false }))
    expect([off.enabled, off.disabled_reason, off.disabled_at]).toEqual([false, 'manual', expect.stringMatching(ISO)])
    await app.context.db.raw.run(
      "UPDATE webhooks SET disabled_reason = 'exhausted', consecutive_failures = 6, failing_since = 1 WHERE id = ?",
      [id],
    )
    const on = await json(await send('PATCH', `/api/v1/webhooks/${id}`, { enabled: true }))
    expect([on.enabled, on.disabled_reason, on.disabled_at, on.consecutive_failures]).toEqual([true, null, null, 0])

    expect(Object.keys(await fieldErrors(await send('PATCH', `/api/v1/webhooks/${id}`, { url: 'https://10.0.0.1/' })))).toEqual(['url'])
    expect((await send('PATCH', `/api/v1/webhooks/${id}`, {})).status).toBe(400)
  })

  test('DELETE removes it and its delivery records; the audit log has each change and never the secret', async () => {
    const { app, org, send } = await setUp()
    const { id } = await json<{ id: string }>(await send('POST', '/api/v1/webhooks', HOOK))
    expect((await send('POST', '/api/v1/tickets', { subject: 'Printer on fire' })).status).toBe(201)
    const deliveries = async () =>
      (await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?', [id]))!.n
    expect(await deliveries()).toBe(1)
    await send('PATCH', `/api/v1/webhooks/${id}`, { secret: 'rotated-secret-value' })
    expect((await send('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204)
    expect((await send('GET', `/api/v1/webhooks/${id}`)).status).toBe(404)
    expect((await send('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(404)
    expect(await deliveries()).toBe(0)
    const records = await app.context.db.raw.all<{ event: string; details: string }>(
      'SELECT event, details FROM audit_logs WHERE organization_id = ? AND target_id = ? ORDER BY seq',
      [org.org.id, id],
    )
    expect(records.map((r) => r.event)).toEqual(['webhook.created', 'webhook.updated', 'webhook.deleted'])
    for (const r of records) {
      expect(r.details).not.toContain(HOOK.secret)
      expect(r.details).not.toContain('rotated-secret-value')
    }
  })
})
