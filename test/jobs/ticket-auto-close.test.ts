// The ticket_auto_close cron task (src/jobs/tasks/ticket-auto-close.ts): solved tickets close TICKET_AUTO_CLOSE_DAYS after solving, in batches, each with its ticket.updated event.
import { afterAll, describe, expect, test } from 'bun:test'
import { contextFor, type UserActor } from '../../src/context.ts'
import { ticketAutoCloseTask } from '../../src/modules/tickets/index.ts'
import { PLAN_RATES } from '../../src/modules/rate-limits/plans.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { roleGrants } from '../../src/modules/access/match.ts'
import { createTicket } from '../../src/modules/tickets/create-ticket.ts'
import { updateTicket } from '../../src/modules/tickets/update-ticket.ts'
import { json, makeTestApp, type TestApp } from '../helpers/app.ts'
import { seedOrganization, signIn, type SeededOrg } from '../helpers/seed.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0) // the FakeClock's start
const iso = (ms: number) => new Date(ms).toISOString()

interface Ticket {
  id: string
  status: string
  created_at: string
  updated_at: string
  solved_at: string | null
  closed_at: string | null
}
interface EventBody {
  id: string
  type: string
  created_at: string
  organization_id: string
  data: { ticket: Ticket; changed?: string[] }
}

/** As the organization's admin, signed in afresh: access tokens live an hour and the clock jumps by days. */
async function send(app: TestApp, method: string, path: string, org: SeededOrg, body?: unknown) {
  const { auth } = await signIn(app, org.users.admin.user)
  return app.request(path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function newTicket(app: TestApp, org: SeededOrg, subject: string): Promise<string> {
  const response = await send(app, 'POST', '/api/v1/tickets', org, { subject })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

async function patch(app: TestApp, org: SeededOrg, id: string, body: Record<string, unknown>): Promise<Ticket> {
  const response = await send(app, 'PATCH', `/api/v1/tickets/${id}`, org, body)
  expect(response.status).toBe(200)
  return json<Ticket>(response)
}

async function get(app: TestApp, org: SeededOrg, id: string): Promise<Ticket> {
  const response = await send(app, 'GET', `/api/v1/tickets/${id}`, org)
  expect(response.status).toBe(200)
  return json<Ticket>(response)
}

/** The ticket's events, oldest first. */
async function eventsOf(app: TestApp, ticketId: string): Promise<EventBody[]> {
  return (await app.context.db.raw.all<{ body: string }>('SELECT body FROM events ORDER BY created_at, id'))
    .map((e) => JSON.parse(e.body) as EventBody)
    .filter((e) => e.data.ticket?.id === ticketId)
}

/** What the last ticket_auto_close run reported in its log line. */
function lastReport(app: TestApp): Record<string, unknown> | undefined {
  return app.logs
    .records()
    .filter((r) => r.task === 'ticket_auto_close' && r.msg === 'cron')
    .at(-1)
}

function runDirectly(app: TestApp, now: number, signal = new AbortController().signal) {
  return ticketAutoCloseTask(app.context).run({ now, log: createLogger({ level: 'error', sink: memorySink() }), signal })
}

/** A user actor as the auth layer builds it, for calling the ticket functions without HTTP. */
function actorOf(org: SeededOrg): UserActor {
  const { user } = org.users.admin
  return {
    kind: 'user',
    userId: user.id,
    organizationId: org.org.id,
    role: 'admin',
    grants: roleGrants('admin'),
    credential: { type: 'session', id: 'ses_test', tokenId: 'jti_test', tokenExpiresAt: T0 + 365 * DAY, mfaEnrollmentOnly: false },
    request: { requestId: 'test', ip: null, userAgent: null },
    rates: PLAN_RATES.professional,
  }
}

async function statusCounts(app: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const row of await app.context.db.raw.all<{ status: string }>('SELECT status FROM tickets'))
    counts[row.status] = (counts[row.status] ?? 0) + 1
  return counts
}

describe('with the default TICKET_AUTO_CLOSE_DAYS (4), through the scheduler', async () => {
  const app = await makeTestApp()
  afterAll(() => app.close())
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  const startedAt = app.clock.now()

  // T0: four tickets; `exact` and `foreign` are solved at T0, `oneMsLater` at T0 + 1 ms.
  const exact = await newTicket(app, acme, 'solved at T0')
  const foreign = await newTicket(app, globex, 'solved at T0, another organization')
  const oneMsLater = await newTicket(app, acme, 'solved at T0 + 1 ms')
  const hourLater = await newTicket(app, acme, 'solved at T0 + 1 h')
  const reopened = await newTicket(app, acme, 'solved at T0, reopened at T0 + 2 min')
  const untouched = await newTicket(app, acme, 'never solved')
  await patch(app, acme, exact, { status: 'solved' })
  await patch(app, acme, reopened, { status: 'solved' })
  const foreignSolved = await send(app, 'PATCH', `/api/v1/tickets/${foreign}`, globex, { status: 'solved' })
  expect(foreignSolved.status).toBe(200)
  app.clock.advance(1)
  await patch(app, acme, oneMsLater, { status: 'solved' })
  app.clock.advance(2 * MINUTE - 1)
  const reopenedBody = await patch(app, acme, reopened, { status: 'open' })
  expect(reopenedBody.solved_at).toBeNull()
  app.clock.advance(HOUR - 2 * MINUTE)
  await patch(app, acme, hourLater, { status: 'solved' })
  expect(app.clock.now()).toBe(T0 + HOUR)

  // Exactly 4 days after T0, the task is due (it was first due at T0 + 10 min).
  app.clock.advance(4 * DAY - HOUR)
  const firstRun = T0 + 4 * DAY
  await app.context.scheduler.tick()

  test('the run happened at T0 + 4 days and reports the tickets it closed', () => {
    expect([startedAt, app.config.ticketAutoCloseDays]).toEqual([T0, 4])
    expect(app.context.scheduler.status().ticket_auto_close).toMatchObject({
      runs: 1,
      failures: 0,
      last_error: null,
      last_run_at: iso(firstRun),
    })
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', closed: 2 })
  })

  test('a ticket solved exactly 4 days ago is closed at the run time, keeping solved_at', async () => {
    const ticket = await get(app, acme, exact)
    expect(ticket).toMatchObject({
      status: 'closed',
      solved_at: iso(T0),
      closed_at: iso(firstRun),
      updated_at: iso(firstRun),
      created_at: iso(T0),
    })
  })

  test("every organization's due tickets are closed", async () => {
    const response = await send(app, 'GET', `/api/v1/tickets/${foreign}`, globex)
    expect(await json(response)).toMatchObject({ status: 'closed', solved_at: iso(T0), closed_at: iso(firstRun) })
  })

  test('a ticket solved 1 ms less than 4 days ago is not closed yet', async () => {
    expect(await get(app, acme, oneMsLater)).toMatchObject({ status: 'solved', solved_at: iso(T0 + 1), closed_at: null })
  })

  test('a reopened ticket (solved, then open) is not closed', async () => {
    expect(await get(app, acme, reopened)).toMatchObject({ status: 'open', solved_at: null, closed_at: null })
  })

  test('a ticket never solved is not closed', async () => {
    expect(await get(app, acme, untouched)).toMatchObject({ status: 'new', solved_at: null, closed_at: null })
  })

  test('closing writes ticket.updated with changed ["status"], and no ticket.resolved', async () => {
    const all = await eventsOf(app, exact)
    expect(all.map((e) => [e.type, e.data.changed])).toEqual([
      ['ticket.created', undefined],
      ['ticket.updated', ['status']],
      ['ticket.resolved', undefined],
      ['ticket.updated', ['status']],
    ])
    const closing = all.at(-1)!
    expect(Object.keys(closing)).toEqual(['id', 'type', 'created_at', 'organization_id', 'data'])
    expect(closing).toMatchObject({ type: 'ticket.updated', created_at: iso(firstRun), organization_id: acme.org.id })
    expect(closing.data.ticket).toMatchObject({
      id: exact,
      status: 'closed',
      solved_at: iso(T0),
      closed_at: iso(firstRun),
      updated_at: iso(firstRun),
    })
    expect((await eventsOf(app, foreign)).at(-1)).toMatchObject({
      type: 'ticket.updated',
      organization_id: globex.org.id,
      data: { changed: ['status'], ticket: { status: 'closed' } },
    })
  })

  test('tickets left open get no event from the run', async () => {
    for (const id of [oneMsLater, hourLater, reopened, untouched]) {
      expect((await eventsOf(app, id)).filter((e) => e.created_at === iso(firstRun))).toEqual([])
    }
  })

  test('after closing, PATCH answers 409 INVALID_STATE_TRANSITION, whatever it asks', async () => {
    for (const body of [{ status: 'open' }, { status: 'solved' }, { status: 'closed' }, { subject: 'Changed' }, { tags: ['late'] }]) {
      const response = await send(app, 'PATCH', `/api/v1/tickets/${exact}`, acme, body)
      expect(response.status).toBe(409)
      expect((await json<{ code: string }>(response)).code).toBe('INVALID_STATE_TRANSITION')
    }
    expect(await get(app, acme, exact)).toMatchObject({ status: 'closed', closed_at: iso(firstRun) })
  })

  test('later runs close the others as they fall due, and never twice', async () => {
    // T0 + 4 d + 10 min: oneMsLater (solved T0 + 1 ms) is due; hourLater (T0 + 1 h) is not.
    app.clock.advance(10 * MINUTE)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ closed: 1 })
    expect(await get(app, acme, oneMsLater)).toMatchObject({
      status: 'closed',
      solved_at: iso(T0 + 1),
      closed_at: iso(T0 + 4 * DAY + 10 * MINUTE),
    })
    expect(await get(app, acme, hourLater)).toMatchObject({ status: 'solved', closed_at: null })
    // T0 + 4 d + 1 h: hourLater is due exactly now.
    app.clock.advance(50 * MINUTE)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ closed: 1 })
    expect(await get(app, acme, hourLater)).toMatchObject({
      status: 'closed',
      solved_at: iso(T0 + HOUR),
      closed_at: iso(T0 + 4 * DAY + HOUR),
    })
    // Nothing else is ever due: the reopened and untouched tickets stay, the closed ones get no second event.
    app.clock.advance(30 * DAY)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ closed: 0 })
    expect((await eventsOf(app, exact)).filter((e) => e.data.ticket.status === 'closed').length).toBe(1)
    expect(await get(app, acme, reopened)).toMatchObject({ status: 'open' })
    expect(await get(app, acme, untouched)).toMatchObject({ status: 'new' })
    expect(app.context.scheduler.status().ticket_auto_close!.runs).toBe(4)
  })

  test('before its interval is up the task does not run again', async () => {
    const runs = app.context.scheduler.status().ticket_auto_close!.runs
    app.clock.advance(10 * MINUTE - 1)
    await app.context.scheduler.tick()
    expect(app.context.scheduler.status().ticket_auto_close!.runs).toBe(runs)
    app.clock.advance(1)
    await app.context.scheduler.tick()
    expect(app.context.scheduler.status().ticket_auto_close!.runs).toBe(runs + 1)
  })
})

describe('with TICKET_AUTO_CLOSE_DAYS=1', async () => {
  const app = await makeTestApp({ TICKET_AUTO_CLOSE_DAYS: '1' })
  afterAll(() => app.close())
  const org = await seedOrganization(app, 'quick')
  const id = await newTicket(app, org, 'solved at T0')
  await patch(app, org, id, { status: 'solved' })

  test('the setting is read', () => {
    expect(app.config.ticketAutoCloseDays).toBe(1)
  })

  test('1 ms short of a day: not closed; a day after solving: closed at the run time', async () => {
    expect(await runDirectly(app, T0 + DAY - 1)).toEqual({ worked: false, closed: 0 })
    expect(await get(app, org, id)).toMatchObject({ status: 'solved', closed_at: null })
    expect(await runDirectly(app, T0 + DAY)).toEqual({ worked: true, closed: 1 })
    expect(await get(app, org, id)).toMatchObject({ status: 'closed', solved_at: iso(T0), closed_at: iso(T0 + DAY) })
  })

  test('through the scheduler: a ticket solved a day before the run is closed, well before 4 days', async () => {
    const second = await newTicket(app, org, 'solved at T0, closed by the scheduler')
    await patch(app, org, second, { status: 'solved' })
    app.clock.advance(DAY)
    await app.context.scheduler.tick()
    expect(lastReport(app)).toMatchObject({ outcome: 'ok', closed: 1 })
    expect(await get(app, org, second)).toMatchObject({ status: 'closed', closed_at: iso(T0 + DAY) })
  })
})

describe('batches', async () => {
  const app = await makeTestApp()
  afterAll(() => app.close())
  const org = await seedOrganization(app, 'bulk')
  const actor = actorOf(org)
  const at = (now: number) => contextFor({ ...app.context, clock: { now: () => now } }, actor)
  const solvedAt = (id: string, now: number) => updateTicket(at(now), { id, changes: { status: 'solved' } })
  const make = async (count: number, now: number) => {
    const ids: string[] = []
    for (let i = 0; i < count; i++) ids.push((await createTicket(at(now), { subject: `Bulk ${i}` })).id)
    return ids
  }

  // 1,001 tickets solved at T0 (more than two batches of 500), 3 solved a day later.
  const due = await make(1001, T0)
  for (const id of due) await solvedAt(id, T0)
  const notDue = await make(3, T0 + DAY)
  for (const id of notDue) await solvedAt(id, T0 + DAY)

  test('more than 500 due tickets are all closed in one run, each with its event', async () => {
    const now = T0 + 4 * DAY
    expect(await runDirectly(app, now)).toEqual({ worked: true, closed: 1001 })
    expect(await statusCounts(app)).toEqual({ closed: 1001, solved: 3 })
    const closedEvents = (await app.context.db.raw.all<{ body: string }>('SELECT body FROM events WHERE created_at = ?', [now])).map(
      (e) => JSON.parse(e.body) as EventBody,
    )
    expect(closedEvents.length).toBe(1001)
    expect(
      closedEvents.every(
        (e) => e.type === 'ticket.updated' && e.data.ticket.status === 'closed' && JSON.stringify(e.data.changed) === '["status"]',
      ),
    ).toBe(true)
    expect(new Set(closedEvents.map((e) => e.data.ticket.id))).toEqual(new Set(due))
    const rows = await app.context.db.raw.all<{ closed_at: number; solved_at: number }>(
      "SELECT closed_at, solved_at FROM tickets WHERE status = 'closed'",
    )
    expect(rows.every((r) => r.closed_at === now && r.solved_at === T0)).toBe(true)
  })

  test('exactly one batch (500): all closed, and the next run finds nothing', async () => {
    const more = await make(500, T0 + DAY)
    for (const id of more) await solvedAt(id, T0 + DAY)
    expect(await runDirectly(app, T0 + 5 * DAY)).toEqual({ worked: true, closed: 503 })
    expect(await runDirectly(app, T0 + 5 * DAY + 1)).toEqual({ worked: false, closed: 0 })
    expect(await statusCounts(app)).toEqual({ closed: 1504 })
    // 1,000 writes of setup: ~3 s alone on PostgreSQL, over 5 s with both engines' runs on two cores.
  }, 60_000)

  test('exactly 500 due: closed, in one run', async () => {
    const more = await make(500, T0 + 2 * DAY)
    for (const id of more) await solvedAt(id, T0 + 2 * DAY)
    expect(await runDirectly(app, T0 + 6 * DAY)).toEqual({ worked: true, closed: 500 })
    expect(await statusCounts(app)).toEqual({ closed: 2004 })
  }, 60_000)

  test('a loop that is stopping closes nothing more', async () => {
    const [id] = await make(1, T0 + 3 * DAY)
    await solvedAt(id!, T0 + 3 * DAY)
    const stopping = new AbortController()
    stopping.abort()
    expect(await runDirectly(app, T0 + 10 * DAY, stopping.signal)).toEqual({ worked: false, closed: 0 })
    expect(await statusCounts(app)).toEqual({ closed: 2004, solved: 1 })
    expect(await runDirectly(app, T0 + 10 * DAY)).toEqual({ worked: true, closed: 1 })
  })
})
