// The event stream on two instances of one PostgreSQL and one Redis (in process): a client of B sees
// the events written through A live (the "events written" signal crosses through Redis: the poll is set
// to an hour, so nothing else can bring them within the wait), and, gone from B, resumes on A with nothing
// lost or repeated; a user's streams are counted on both instances together (MAX_STREAMS_PER_USER).
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { MAX_STREAMS_PER_USER } from '../../../src/modules/event-stream/index.ts'
import { RedisWakeups } from '../../../src/modules/webhooks/index.ts'
import { expectError } from '../../helpers/errors.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { clusterSettings } from '../../helpers/engine.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../../helpers/services.ts'
import { SseClient } from './sse.ts'

setDefaultTimeout(90_000)

const apps: TestApp[] = []
afterAll(async () => {
  for (const app of apps) await app.close()
})

describe.skipIf(!(postgresAvailable && redisAvailable))('the event stream across two instances', () => {
  test('B streams what A writes, live; the client resumes on A after leaving B', async () => {
    // No poll within the test: only the signal through Redis can wake B's stream.
    const settings = { ...(await clusterSettings()), EVENT_STREAM_POLL: '3600' }
    const a = await makeTestApp(settings, { clock: new FakeClock(Date.now()) })
    apps.push(a)
    const b = await makeTestApp(settings, { clock: new FakeClock(Date.now()) })
    apps.push(b)
    expect(b.context.ports.wakeups).toBeInstanceOf(RedisWakeups)
    const { users } = await seedOrganization(a)
    let n = 0
    const ticket = async (on: TestApp) => {
      const subject = `Ticket ${++n}`
      const response = await on.request('/api/v1/tickets', {
        method: 'POST',
        headers: { ...users.admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject }),
      })
      expect(response.status).toBe(201)
      return subject
    }
    const open = async (on: TestApp, lastEventId?: number) => {
      const headers = { ...users.agent.auth, ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }) }
      const response = await on.request('/api/v1/events/stream?types=ticket.created', { headers })
      expect(response.status).toBe(200)
      const client = new SseClient(response)
      await client.waitForComment('connected')
      return client
    }
    const subjects = (client: SseClient) => client.events.map((e) => (e.envelope.data.ticket as { subject: string }).subject)

    const onB = await open(b)
    const first = [await ticket(a), await ticket(a), await ticket(b)]
    await onB.waitFor(3, 20_000)
    expect(subjects(onB)).toEqual(first)
    await onB.close()
    const meanwhile = [await ticket(a), await ticket(b)]
    const onA = await open(a, onB.events.at(-1)!.id)
    await onA.waitFor(2, 20_000)
    const after = await ticket(b)
    await onA.waitFor(3, 20_000)
    await Bun.sleep(100)
    expect([...subjects(onB), ...subjects(onA)]).toEqual([...first, ...meanwhile, after])
    await onA.close()
  })

  test(`a user's ${MAX_STREAMS_PER_USER} streams are counted on both instances: the next one on B is 409 until one on A closes`, async () => {
    const settings = await clusterSettings()
    const a = await makeTestApp(settings, { clock: new FakeClock(Date.now()) })
    apps.push(a)
    const b = await makeTestApp(settings, { clock: new FakeClock(Date.now()) })
    apps.push(b)
    const { users } = await seedOrganization(a)
    const open = async (on: TestApp, auth: Record<string, string>) => {
      const response = await on.request('/api/v1/events/stream', { headers: auth })
      expect(response.status).toBe(200)
      const client = new SseClient(response)
      await client.waitForComment('connected')
      return client
    }
    const onA: SseClient[] = []
    for (let i = 0; i < MAX_STREAMS_PER_USER - 1; i++) onA.push(await open(a, users.supervisor.auth))
    const lastOnB = await open(b, users.supervisor.auth)
    await expectError(await b.request('/api/v1/events/stream', { headers: users.supervisor.auth }), 409, 'LIMIT_REACHED')
    await expectError(await a.request('/api/v1/events/stream', { headers: users.supervisor.auth }), 409, 'LIMIT_REACHED')
    // Another user has slots of their own.
    const viewer = await open(b, users.viewer.auth)
    await onA[0]!.close()
    let reopened: Response | undefined
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(20)) {
      reopened = await b.request('/api/v1/events/stream', { headers: users.supervisor.auth })
      if (reopened.status === 200) break
    }
    expect(reopened?.status).toBe(200)
    const again = new SseClient(reopened!)
    for (const client of [...onA.slice(1), lastOnB, viewer, again]) await client.close()
  })
})
