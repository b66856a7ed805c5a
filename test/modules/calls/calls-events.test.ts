// Every event of the calls module reaches a real HTTPS receiver subscribed to it: call.started,
// call.answered, call.transferred (with from and to), call.completed (every terminal state, with the
// status and the reason) and recording.ready — each body the stored event byte for byte, signed, with the
// full object under data.call or data.recording. A refused move leaves no event to deliver.
import { createHmac } from 'node:crypto'
import { afterAll, expect, test } from 'bun:test'
import { backgroundProcessingSettled } from '../../../src/modules/calls/recordings/process-recording.ts'
import { WebhookDispatcher } from '../../../src/modules/webhooks/index.ts'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { startReceiver } from '../../helpers/receiver.ts'
import { allowWebhookCidrs } from '../webhooks/allow.ts'
import { type Call, callsApp, callsClient, mp3File, type Recording } from './calls-api.ts'

const SECRET = 'a-secret-of-16-chars-or-more'
const receiver = await startReceiver()
// A fake clock starting now: the receiver's side checks signed timestamps against its own clock.
const { app, acme } = await callsApp({ clock: new FakeClock(Date.now()) })
await allowWebhookCidrs(app, acme.org.id, '127.0.0.0/8')
const dispatcher = new WebhookDispatcher(app.context, { extraCa: receiver.ca })
afterAll(async () => {
  await dispatcher.stop(0)
  receiver.stop()
})
const { users } = acme
const { send, create, move } = callsClient(app, users.admin.auth)

interface CallEvent {
  id: string
  type: string
  data: { call?: Call; recording?: Recording; from?: unknown; to?: unknown; status?: string; reason?: string | null }
}

test('every call and recording event is delivered, signed, with the full object', async () => {
  expect(
    (
      await send('POST', '/api/v1/webhooks', users.admin.auth, {
        url: receiver.url('/calls'),
        events: ['call.*', 'recording.ready'],
        secret: SECRET,
      })
    ).status,
  ).toBe(201)

  const call = await create({ queue: 'support' })
  const answered = await json<Call>(await move(call.id, 'in_progress', users.admin.auth, { agent_id: users.agent.user.id }))
  const transferred = await json<Call>(
    await send('POST', `/api/v1/calls/${call.id}/transfer`, users.admin.auth, { to: { agent_id: users.supervisor.user.id } }),
  )
  // Refused: nothing recorded, nothing sent.
  expect((await move(call.id, 'busy')).status).toBe(409)
  const completed = await json<Call>(await move(call.id, 'completed', users.admin.auth, { end_reason: 'customer_hangup' }))
  const missed = await create({ status: 'ringing' })
  const noAnswer = await json<Call>(await move(missed.id, 'no_answer'))
  const recordingResponse = await app.request(`/api/v1/calls/${call.id}/recordings?filename=call.mp3`, {
    method: 'POST',
    headers: { ...users.admin.auth, 'content-type': 'audio/mpeg' },
    body: mp3File(40),
  })
  expect(recordingResponse.status).toBe(201)
  await backgroundProcessingSettled(app.context)
  const recording = await json<Recording>(await send('GET', `/api/v1/recordings/${(await json<Recording>(recordingResponse)).id}`))
  expect(recording.status).toBe('completed')

  await dispatcher.pump()
  await dispatcher.settled()
  const stored = await app.context.db.raw.all<{ body: string }>(
    "SELECT body FROM events WHERE type LIKE 'call.%' OR type = 'recording.ready' ORDER BY id",
  )
  const received = receiver.received.filter((r) => r.path === '/calls')
  expect(received.map((r) => r.body).sort()).toEqual(stored.map((e) => e.body).sort())
  const events = stored.map((e) => JSON.parse(e.body) as CallEvent)
  expect(events.map((e) => e.type)).toEqual([
    'call.started',
    'call.answered',
    'call.transferred',
    'call.completed',
    'call.started',
    'call.completed',
    'recording.ready',
  ])
  expect(events[0]!.data).toEqual({ call })
  expect(events[1]!.data).toEqual({ call: answered })
  expect(events[2]!.data).toEqual({
    call: transferred,
    from: { agent_id: users.agent.user.id, queue: 'support' },
    to: { agent_id: users.supervisor.user.id, queue: 'support' },
  })
  expect(events[3]!.data).toEqual({ call: completed, status: 'completed', reason: 'customer_hangup' })
  expect(events[4]!.data).toEqual({ call: missed })
  expect(events[5]!.data).toEqual({ call: noAnswer, status: 'no_answer', reason: 'no_answer' })
  expect(events[6]!.data).toEqual({ recording })

  for (const request of received) {
    expect(request.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`)
    expect(request.headers['webhook-id']).toBe((JSON.parse(request.body) as CallEvent).id)
  }
})
