// Who sees and works which sessions: an agent (SCOPES engagement 'assigned_or_queued') its own and the
// queued ones nobody has — any other is 404 to it, messages included — and it takes sessions only for
// itself or "auto" (403); a viewer reads and writes nothing; another organization's session is 404.
import { describe, expect, test } from 'bun:test'
import { client, type Engagement, engagementsApp, expectError } from './engagements-api.ts'

const { app, acme, globex } = await engagementsApp()
const { users } = acme
const admin = client(app, users.admin.auth)
const agent = client(app, users.agent.auth)
const viewer = client(app, users.viewer.auth)
const contactId = await admin.contact()
const me = users.agent.user.id
const other = users.supervisor.user.id

const mine = await admin.create({ contact_id: contactId, assignee_id: me })
const theirs = await admin.create({ contact_id: contactId, assignee_id: other })
const queued = await admin.create({ contact_id: contactId })
const closedUnassigned = await admin.create({ contact_id: contactId })
await admin.ok(admin.op(closedUnassigned.id, 'close'))

describe('an agent', () => {
  test('lists and reads its own and the queued unassigned sessions only', async () => {
    const list = await agent.ok<{ engagements: Engagement[] }>(agent.send('GET', '/api/v1/engagements?page_size=100'))
    expect(list.engagements.map((e) => e.id).sort()).toEqual([mine.id, queued.id].sort())
    for (const row of [theirs, closedUnassigned]) {
      await expectError(await agent.send('GET', `/api/v1/engagements/${row.id}`), 404, 'NOT_FOUND')
      await expectError(await agent.send('GET', `/api/v1/engagements/${row.id}/messages`), 404, 'NOT_FOUND')
      await expectError(await agent.op(row.id, 'messages', { direction: 'in', body: 'x' }), 404, 'NOT_FOUND')
      await expectError(await agent.op(row.id, 'close'), 404, 'NOT_FOUND')
      await expectError(await agent.send('PATCH', `/api/v1/engagements/${row.id}`, undefined, { priority: 'high' }), 404, 'NOT_FOUND')
    }
  })

  test('takes sessions only for itself: another assignee is 403, itself or auto is fine', async () => {
    await expectError(await agent.op(queued.id, 'assign', { assignee_id: other }), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(
      await agent.send('POST', '/api/v1/engagements', undefined, { contact_id: contactId, channel: 'sms', assignee_id: other }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect(await agent.ok(agent.op(queued.id, 'assign', { assignee_id: me }))).toMatchObject({ status: 'active', assignee_id: me })
    const created = await agent.create({ contact_id: contactId, channel: 'sms', assignee_id: me })
    expect(created).toMatchObject({ status: 'active', assignee_id: me })
    expect((await agent.ok(agent.op(mine.id, 'close'))).status).toBe('closed')
  })

  test('filters: status, channel, assignee (none), contact, team and a creation window', async () => {
    const sms = await admin.ok<{ engagements: Engagement[] }>(admin.send('GET', `/api/v1/engagements?channel=sms&contact_id=${contactId}`))
    expect(sms.engagements.every((e) => e.channel === 'sms')).toBe(true)
    const none = await admin.ok<{ engagements: Engagement[] }>(admin.send('GET', '/api/v1/engagements?assignee_id=none&status=closed'))
    expect(none.engagements.map((e) => e.id)).toEqual([closedUnassigned.id])
    const future = new Date(app.clock.now() + 1000).toISOString()
    const later = await admin.ok<{ engagements: Engagement[] }>(
      admin.send('GET', `/api/v1/engagements?created_after=${encodeURIComponent(future)}`),
    )
    expect(later.engagements).toEqual([])
    await expectError(await admin.send('GET', '/api/v1/engagements?created_after=yesterday'), 400, 'VALIDATION_FAILED')
    await expectError(await admin.send('GET', '/api/v1/engagements?status=open'), 400, 'VALIDATION_FAILED')
  })
})

describe('other roles and organizations', () => {
  test('a viewer reads but neither creates, changes nor writes messages', async () => {
    expect((await viewer.get(theirs.id)).id).toBe(theirs.id)
    await expectError(
      await viewer.send('POST', '/api/v1/engagements', undefined, { contact_id: contactId, channel: 'chat' }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    await expectError(await viewer.op(theirs.id, 'messages', { direction: 'out', body: 'x' }), 403, 'INSUFFICIENT_PERMISSIONS')
    await expectError(await viewer.op(theirs.id, 'close'), 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test("another organization's session is 404 everywhere", async () => {
    const outsider = client(app, globex.users.super_admin.auth)
    await expectError(await outsider.send('GET', `/api/v1/engagements/${theirs.id}`), 404, 'NOT_FOUND')
    await expectError(await outsider.op(theirs.id, 'escalate', { level: 1, to: { team: 'x' }, reason: 'y' }), 404, 'NOT_FOUND')
    const list = await outsider.ok<{ engagements: Engagement[] }>(outsider.send('GET', '/api/v1/engagements'))
    expect(list.engagements).toEqual([])
  })
})
