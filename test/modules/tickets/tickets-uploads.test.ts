// Tickets and comments take upload_ids: the uploads are attached in the ticket's (the comment's)
// transaction and listed on it; another organization's upload is 404 and a missing one too, an attached or
// expired one 409, another purpose 400 — and a refused request attaches nothing and creates nothing. The
// ticket.created and ticket.comment.added events carry the uploads whole, delivered to a real receiver.
import { afterAll, describe, expect, test } from 'bun:test'
import { WebhookDispatcher } from '../../../src/modules/webhooks/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver } from '../../helpers/receiver.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { expectError, PNG_1x1, runExpiry, storedKeys, type Upload, client as uploadsClient } from '../uploads/uploads-api.ts'
import { allowWebhookCidrs } from '../webhooks/allow.ts'

const receiver = await startReceiver()
// A fake clock starting now: the receiver's side checks signed timestamps against its own clock.
const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400' }, { clock: new FakeClock(Date.now()) })
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
await allowWebhookCidrs(app, acme.org.id, '127.0.0.0/8')
const dispatcher = new WebhookDispatcher(app.context, { extraCa: receiver.ca })
afterAll(async () => {
  await dispatcher.stop(0)
  await app.close()
  receiver.stop()
})
const agent = uploadsClient(app, acme.users.agent.auth)
const outsider = uploadsClient(app, globex.users.agent.auth)

interface Ticket {
  id: string
  upload_ids: string[]
}
interface Comment {
  id: string
  upload_ids: string[]
}

const file = (name = 'shot.png') => agent.upload(PNG_1x1, { filename: name })
const createTicket = (body: Record<string, unknown>) => agent.send('POST', '/api/v1/tickets', { subject: 'With files', ...body })
const addComment = (ticketId: string, body: Record<string, unknown>) =>
  agent.send('POST', `/api/v1/tickets/${ticketId}/comments`, { body: 'See attached', ...body })
const ticketCount = async () => Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM tickets'))!.n)

describe('a ticket with uploads', () => {
  test('they are attached to it, listed by id in order, and read back as attached', async () => {
    const [a, b] = [await file('a.png'), await file('b.png')]
    const response = await createTicket({ upload_ids: [b.id, a.id] })
    expect(response.status).toBe(201)
    const ticket = await json<Ticket>(response)
    expect(ticket.upload_ids).toEqual([b.id, a.id])
    expect((await json<Ticket>(await agent.send('GET', `/api/v1/tickets/${ticket.id}`))).upload_ids).toEqual([b.id, a.id])
    const list = await json<{ tickets: Ticket[] }>(await agent.send('GET', '/api/v1/tickets?page_size=1'))
    expect(list.tickets[0]!.upload_ids).toEqual([b.id, a.id])
    for (const upload of [a, b])
      expect(await agent.get(upload.id)).toEqual({ ...upload, status: 'attached', attached_to: { type: 'ticket', id: ticket.id } })
    // Attached uploads do not expire.
    app.clock.advance(app.config.uploads.expiryMs + 1)
    await runExpiry(app)
    expect((await agent.get(a.id)).status).toBe('attached')
    expect((await agent.content(a.id)).status).toBe(200)
  })

  test('another organization’s upload is 404 as a missing one; nothing is created or attached', async () => {
    const mine = await file()
    const theirs = await outsider.upload(PNG_1x1, { filename: 'theirs.png' })
    const before = await ticketCount()
    for (const id of [theirs.id, 'upl_01KAX3M6W9P8T2V5G7H4J3C1QZ']) {
      const error = await expectError(await createTicket({ upload_ids: [mine.id, id] }), 404, 'NOT_FOUND')
      expect(error.message).toBe(`No such upload: ${id}`)
    }
    expect(await ticketCount()).toBe(before)
    expect((await agent.get(mine.id)).status).toBe('pending')
    expect((await outsider.get(theirs.id)).status).toBe('pending')
  })

  test('an upload already attached, expired or deleted is 409; another purpose 400; twice the same 400', async () => {
    const attached = await file()
    expect((await createTicket({ upload_ids: [attached.id] })).status).toBe(201)
    const before = await ticketCount()
    const conflict = await expectError(await createTicket({ upload_ids: [attached.id] }), 409, 'INVALID_STATE_TRANSITION')
    expect(conflict.message).toContain(`Upload ${attached.id} is attached (to ticket `)

    const expiring = await file()
    app.clock.advance(app.config.uploads.expiryMs)
    // Past its expiry but not yet swept: refused all the same.
    expect((await expectError(await createTicket({ upload_ids: [expiring.id] }), 409, 'INVALID_STATE_TRANSITION')).message).toBe(
      `Upload ${expiring.id} has expired: an expired upload cannot become attached; upload the file again`,
    )
    await runExpiry(app)
    expect((await expectError(await createTicket({ upload_ids: [expiring.id] }), 409, 'INVALID_STATE_TRANSITION')).message).toContain(
      'is expired',
    )

    const deleted = await file()
    expect((await uploadsClient(app, acme.users.admin.auth).remove(deleted.id)).status).toBe(204)
    await expectError(await createTicket({ upload_ids: [deleted.id] }), 409, 'INVALID_STATE_TRANSITION')

    const avatar = await agent.upload(PNG_1x1, { filename: 'me.png', purpose: 'avatar' })
    const wrong = await expectError(await createTicket({ upload_ids: [avatar.id] }), 400, 'VALIDATION_FAILED')
    expect(wrong.errors).toEqual([{ field: 'upload_ids', message: `${avatar.id} is a avatar upload; this takes attachment uploads` }])

    const once = await file()
    await expectError(await createTicket({ upload_ids: [once.id, once.id] }), 400, 'VALIDATION_FAILED')
    await expectError(await createTicket({ upload_ids: Array.from({ length: 21 }, () => once.id) }), 400, 'VALIDATION_FAILED')
    expect(await ticketCount()).toBe(before)
    expect((await agent.get(once.id)).status).toBe('pending')
  })
})

describe('a comment with uploads', () => {
  test('attached to the comment; the same rules', async () => {
    const ticket = await json<Ticket>(await createTicket({}))
    const upload = await file()
    const response = await addComment(ticket.id, { upload_ids: [upload.id] })
    expect(response.status).toBe(201)
    const comment = await json<Comment>(response)
    expect(comment.upload_ids).toEqual([upload.id])
    expect((await agent.get(upload.id)).attached_to).toEqual({ type: 'ticket_comment', id: comment.id })
    const listed = await json<{ comments: Comment[] }>(await agent.send('GET', `/api/v1/tickets/${ticket.id}/comments`))
    expect(listed.comments.map((c) => c.upload_ids)).toEqual([[upload.id]])

    await expectError(await addComment(ticket.id, { upload_ids: [upload.id] }), 409, 'INVALID_STATE_TRANSITION')
    const theirs = await outsider.upload(PNG_1x1, { filename: 'theirs.png' })
    await expectError(await addComment(ticket.id, { upload_ids: [theirs.id] }), 404, 'NOT_FOUND')
    expect(listed.comments).toHaveLength(1)
    const after = await json<{ comments: Comment[] }>(await agent.send('GET', `/api/v1/tickets/${ticket.id}/comments`))
    expect(after.comments).toHaveLength(1)
  })
})

test('deleting a ticket deletes the files of the ticket and of its comments; the cron loop removes their bytes', async () => {
  const [onTicket, onComment, elsewhere] = [await file('t.png'), await file('c.png'), await file('other.png')]
  const ticket = await json<Ticket>(await createTicket({ upload_ids: [onTicket.id] }))
  expect((await addComment(ticket.id, { upload_ids: [onComment.id] })).status).toBe(201)
  const admin = uploadsClient(app, acme.users.admin.auth)
  const keysBefore = (await storedKeys(app)).length
  expect((await admin.send('DELETE', `/api/v1/tickets/${ticket.id}`)).status).toBe(204)
  for (const upload of [onTicket, onComment]) {
    expect((await agent.get(upload.id)).status).toBe('deleted')
    expect((await agent.content(upload.id)).status).toBe(404)
  }
  expect((await agent.get(elsewhere.id)).status).toBe('pending')
  await runExpiry(app)
  expect((await storedKeys(app)).length).toBe(keysBefore - 2)
})

test('ticket.created and ticket.comment.added carry the uploads, delivered to a real receiver', async () => {
  const admin = uploadsClient(app, acme.users.admin.auth)
  const hook = await admin.send('POST', '/api/v1/webhooks', {
    url: receiver.url('/tickets'),
    events: ['ticket.created', 'ticket.comment.added'],
    secret: 'a-secret-of-16-chars-or-more',
  })
  expect(hook.status).toBe(201)
  const first = await file('first.png')
  const ticket = await json<Ticket>(await createTicket({ upload_ids: [first.id] }))
  const second = await file('second.png')
  const comment = await json<Comment>(await addComment(ticket.id, { upload_ids: [second.id] }))
  await dispatcher.pump()
  await dispatcher.settled()
  const events = receiver.received
    .filter((r) => r.path === '/tickets')
    .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
  const created = events.find((e) => e.type === 'ticket.created')!
  expect(created.data).toMatchObject({ ticket: { id: ticket.id, upload_ids: [first.id] } })
  const attached = (upload: Upload, target: { type: string; id: string }) => ({ ...upload, status: 'attached', attached_to: target })
  expect(created.data.uploads).toEqual([attached(first, { type: 'ticket', id: ticket.id })])
  const added = events.find((e) => e.type === 'ticket.comment.added')!
  expect(added.data).toMatchObject({ comment: { id: comment.id, upload_ids: [second.id] } })
  expect(added.data.uploads).toEqual([attached(second, { type: 'ticket_comment', id: comment.id })])
})
