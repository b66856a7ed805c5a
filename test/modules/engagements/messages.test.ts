// Messages of a session: authors, the times they set (waiting_since, first_reply_at, last_activity_at),
// an inbound message waking a snoozed session, bringing a wrap-up back, reopening a closed one within
// ENGAGEMENT_REOPEN_HOURS and opening a new session after it; uploads attached; the keyset list.
import { describe, expect, test } from 'bun:test'
import { PNG_1x1, client as uploadsClient } from '../uploads/uploads-api.ts'
import { client, type Engagement, engagementEvents, engagementsApp, expectError, type Message } from './engagements-api.ts'

const { app, acme, globex } = await engagementsApp({ ENGAGEMENT_REOPEN_HOURS: '2' })
const { users } = acme
const admin = client(app, users.admin.auth)
const agent = client(app, users.agent.auth)
const contactId = await admin.contact()
const agentId = users.agent.user.id
const iso = () => new Date(app.clock.now()).toISOString()
const activeSession = () => admin.create({ contact_id: contactId, assignee_id: agentId, team: 'support', required_skill: 'billing' })

describe('authors and times', () => {
  test('inbound: the contact is the author, waiting_since is the first unanswered; outbound: the caller, first_reply_at once', async () => {
    const row = await activeSession()
    app.clock.advance(1000)
    const first = await agent.message(row.id, 'in', 'Hello?')
    expect(first).toMatchObject({ engagement_id: row.id, direction: 'in', author: { type: 'contact', id: contactId }, body: 'Hello?' })
    const waiting = iso()
    app.clock.advance(1000)
    await agent.message(row.id, 'in', 'Anyone?')
    expect(await admin.get(row.id)).toMatchObject({ waiting_since: waiting, first_reply_at: null, last_activity_at: iso() })
    app.clock.advance(1000)
    const reply = await agent.message(row.id, 'out', 'Here!')
    expect(reply.author).toEqual({ type: 'agent', id: agentId })
    const replied = iso()
    expect(await admin.get(row.id)).toMatchObject({ waiting_since: null, first_reply_at: replied, last_activity_at: replied })
    app.clock.advance(1000)
    await agent.message(row.id, 'out', 'Again')
    expect((await admin.get(row.id)).first_reply_at).toBe(replied)
  })

  test('the list is keyset-paginated, oldest first; another organization sees nothing', async () => {
    const row = await activeSession()
    for (let i = 0; i < 5; i++) {
      app.clock.advance(10)
      await admin.message(row.id, i % 2 ? 'out' : 'in', `m${i}`)
    }
    const bodies: string[] = []
    let token = ''
    do {
      const page = await admin.ok<{ messages: Message[]; next_page_token: string }>(
        admin.send('GET', `/api/v1/engagements/${row.id}/messages?page_size=2${token ? `&page_token=${token}` : ''}`),
      )
      bodies.push(...page.messages.map((m) => m.body))
      token = page.next_page_token
    } while (token)
    expect(bodies).toEqual(['m0', 'm1', 'm2', 'm3', 'm4'])
    await expectError(await client(app, globex.users.admin.auth).send('GET', `/api/v1/engagements/${row.id}/messages`), 404, 'NOT_FOUND')
    await expectError(await admin.op(row.id, 'messages', { direction: 'sideways', body: 'x' }), 400, 'VALIDATION_FAILED')
  })

  test('upload_ids attaches pending attachment uploads to the message; an attached one is 409', async () => {
    const row = await activeSession()
    const upload = await uploadsClient(app, users.agent.auth).upload(PNG_1x1, { filename: 'shot.png' })
    const message = await agent.ok<Message>(agent.op(row.id, 'messages', { direction: 'out', body: 'see', upload_ids: [upload.id] }), 201)
    expect(message.upload_ids).toEqual([upload.id])
    const stored = await uploadsClient(app, users.agent.auth).get(upload.id)
    expect(stored).toMatchObject({ status: 'attached', attached_to: { type: 'engagement_message', id: message.id } })
    await expectError(
      await agent.op(row.id, 'messages', { direction: 'out', body: 'again', upload_ids: [upload.id] }),
      409,
      'INVALID_STATE_TRANSITION',
    )
  })
})

describe('what an inbound message does to the session', () => {
  test('wakes a snoozed session and brings a wrap-up back to active', async () => {
    const row = await activeSession()
    await admin.ok(admin.op(row.id, 'snooze', { until: new Date(app.clock.now() + 3_600_000).toISOString() }))
    await admin.message(row.id, 'in')
    expect(await admin.get(row.id)).toMatchObject({ status: 'active', snoozed_until: null })
    await admin.ok(admin.op(row.id, 'wrap-up'))
    await admin.message(row.id, 'out')
    expect((await admin.get(row.id)).status).toBe('wrap_up')
    await admin.message(row.id, 'in')
    expect((await admin.get(row.id)).status).toBe('active')
  })

  test('reopens a closed session within ENGAGEMENT_REOPEN_HOURS; an outbound message on a closed one is 409', async () => {
    const row = await activeSession()
    await admin.ok(admin.op(row.id, 'close'))
    await expectError(await admin.op(row.id, 'messages', { direction: 'out', body: 'late' }), 409, 'INVALID_STATE_TRANSITION')
    app.clock.advance(2 * 3_600_000)
    const message = await agent.message(row.id, 'in', 'one more thing')
    expect(message.engagement_id).toBe(row.id)
    expect(await admin.get(row.id)).toMatchObject({
      status: 'active',
      assignee_id: agentId,
      closed_at: null,
      close_reason: null,
      waiting_since: iso(),
    })
  })

  test('after the window, opens a new queued session for the same contact and channel, and the message goes there', async () => {
    const row = await activeSession()
    await admin.ok(admin.op(row.id, 'close'))
    app.clock.advance(2 * 3_600_000 + 1)
    const message = await agent.message(row.id, 'in', 'new question')
    expect(message.engagement_id).not.toBe(row.id)
    const fresh = await admin.get(message.engagement_id)
    expect(fresh).toMatchObject({
      status: 'queued',
      contact_id: contactId,
      channel: 'chat',
      assignee_id: null,
      team: 'support',
      required_skill: 'billing',
      waiting_since: iso(),
    } satisfies Partial<Engagement>)
    expect((await admin.get(row.id)).status).toBe('closed')
    const events = await engagementEvents(app, fresh.id)
    expect(events.map((e) => e.type)).toEqual(['engagement.created', 'engagement.message.added'])
    // The message event names the session it went to, and carries the message whole.
    expect(events[1]!.data).toMatchObject({ engagement: { id: fresh.id }, message: { engagement_id: fresh.id, direction: 'in' } })
    // The agent who recorded it sees the new session: it is queued and nobody's.
    expect((await agent.get(fresh.id)).id).toBe(fresh.id)
  })
})
