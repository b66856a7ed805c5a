// Who sees what in the reports: an agent gets its own row of /reports/agents and its own records only
// (however it asks); billing metrics need billing:read (403 INSUFFICIENT_PERMISSIONS otherwise, and
// /reports/metrics lists them only to those who have it); another organization's records never appear
// (two organizations, the same metrics, different numbers); and GET /api/v1/reports/* is limited to 10
// requests a minute per user, with its X-RateLimit-* headers and a 429 on the 11th.
import { afterAll, describe, expect, test } from 'bun:test'
import { foldAll } from '../../../src/modules/reports/index.ts'
import { makeTestApp } from '../../helpers/app.ts'
import { allRecords, DAY, HOUR, iso, type Json, MIN, reportJson, type Who, type Window, World, windowQuery } from './helpers-random.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const fold = () => foldAll(app.context)

const acme = await World.create(app, 'acme', { pats: false })
const globex = await World.create(app, 'globex', { pats: false })
const start = app.clock.now()

/** Tickets assigned to `assignees` (null: nobody), each solved; calls answered by `answerers`; contacts owned by `owners`. */
async function history(world: World, assignees: (string | null)[], answerers: string[], owners: (string | null)[]) {
  for (const [i, assignee] of assignees.entries()) {
    const ticket = await world.ok(
      'admin',
      'POST',
      '/api/v1/tickets',
      { subject: `T${i}`, priority: i % 2 ? 'high' : 'low', ...(assignee ? { assignee_id: assignee } : {}) },
      201,
    )
    app.clock.advance(7 * MIN)
    await world.ok('admin', 'POST', `/api/v1/tickets/${ticket.id}/comments`, { body: 'On it' }, 201)
    app.clock.advance(13 * MIN)
    await world.ok('admin', 'PATCH', `/api/v1/tickets/${ticket.id}`, { status: 'solved' })
  }
  for (const agent of answerers) {
    const call = await world.ok('admin', 'POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199' }, 201)
    app.clock.advance(9_000)
    await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/answer`, { agent_id: agent })
    app.clock.advance(4 * MIN)
    await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/end`, {})
  }
  for (const [i, owner] of owners.entries())
    await world.ok('admin', 'POST', '/api/v1/contacts', { name: `Contact ${i}`, ...(owner ? { owner_id: owner } : {}) }, 201)
  app.clock.advance(5 * MIN)
}

const acmeAgent = acme.userId('agent')
const acmeAdmin = acme.userId('admin')
const acmeSupervisor = acme.userId('supervisor')
await history(
  acme,
  [acmeAgent, acmeAdmin, acmeAgent, null, acmeSupervisor],
  [acmeAgent, acmeAdmin, acmeAgent],
  [acmeAgent, acmeAdmin, null],
)
// Half of it folded, half read from the log by the reports themselves.
await fold()
await history(acme, [acmeAgent, acmeAdmin], [acmeAdmin], [acmeAgent])
await history(globex, [globex.userId('agent'), null], [globex.userId('agent')], [null])

const w: Window = { from: start - HOUR, to: app.clock.now() + HOUR, zone: 'UTC', threshold: 20 }
const ROLES = ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const

describe('an agent sees its own row and its own records', () => {
  test('/reports/agents: the agent gets one row, its own, with the figures everyone else sees for it (JSON and CSV)', async () => {
    for (const folded of [false, true]) {
      if (folded) await fold()
      const all = (await reportJson(acme, 'admin', `/api/v1/reports/agents?${windowQuery(w)}`)).agents as Json[]
      expect(all.map((r) => r.agent_id).sort()).toEqual([acmeAgent, acmeAdmin, acmeSupervisor].sort())
      const own = (await reportJson(acme, 'agent', `/api/v1/reports/agents?${windowQuery(w)}`)).agents as Json[]
      expect({ folded, own }).toEqual({ folded, own: all.filter((r) => r.agent_id === acmeAgent) })
      expect(own[0]).toMatchObject({ tickets_solved: 3, calls_answered: 2 })
      const csv = await acme.call('agent', 'GET', `/api/v1/reports/agents?format=csv&${windowQuery(w)}`)
      const lines = csv.text.trim().split('\n')
      expect(lines.length).toBe(2)
      expect(lines[1]).toStartWith(`${acmeAgent},3,2,`)
      // Every other role sees every row.
      for (const role of ['super_admin', 'supervisor', 'viewer'] as const) {
        const rows = (await reportJson(acme, role, `/api/v1/reports/agents?${windowQuery(w)}`)).agents as Json[]
        expect({ role, rows }).toEqual({ role, rows: all })
      }
    }
  })

  test('/reports/records: only records of the agent, for tickets, calls and contacts; none when it asks for another agent’s group', async () => {
    for (const [metric, dim] of [
      ['tickets.solved', 'assignee'],
      ['tickets.created', 'assignee'],
      ['tickets.first_response_time', 'assignee'],
      ['calls.answered', 'agent'],
      ['calls.handle_time', 'agent'],
      ['crm.contacts_created', 'owner'],
    ] as const) {
      const everyone = await allRecords(acme, 'admin', `metric=${metric}&${windowQuery(w)}`)
      const mine = await allRecords(acme, 'agent', `metric=${metric}&${windowQuery(w)}`)
      const expected = everyone.records.filter((r) => r.dimensions[dim] === acmeAgent)
      expect(expected.length).toBeGreaterThan(0)
      expect(everyone.records.length).toBeGreaterThan(expected.length)
      expect({ metric, total: mine.total_count, records: mine.records }).toEqual({ metric, total: expected.length, records: expected })
      // Asking for the admin's group gives the agent nothing; its own group, its own records.
      const theirs = await allRecords(acme, 'agent', `metric=${metric}&group_by=${dim}&group=${acmeAdmin}&${windowQuery(w)}`)
      expect({ metric, theirs }).toEqual({ metric, theirs: { total_count: 0, records: [] } })
      const ownGroup = await allRecords(acme, 'agent', `metric=${metric}&group_by=${dim}&group=${acmeAgent}&${windowQuery(w)}`)
      expect({ metric, ownGroup: ownGroup.records }).toEqual({ metric, ownGroup: expected })
      // As CSV too.
      const csv = await acme.call('agent', 'GET', `/api/v1/reports/records?format=csv&metric=${metric}&${windowQuery(w)}`)
      const ids = csv.text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[1])
      expect({ metric, ids }).toEqual({ metric, ids: expected.map((r) => r.record_id) })
    }
  })
})

describe("an agent does not learn another agent's figures another way", () => {
  test('a series grouped by assignee or agent names no other user for an agent (their numbers are what /reports/agents hides)', async () => {
    for (const [metric, dim] of [
      ['tickets.solved', 'assignee'],
      ['calls.answered', 'agent'],
      ['calls.handle_time', 'agent'],
    ] as const) {
      const everyone = await reportJson(acme, 'admin', `/api/v1/reports/timeseries?metric=${metric}&group_by=${dim}&${windowQuery(w)}`)
      expect((everyone.series as Json[]).some((s) => s.group === acmeAdmin)).toBe(true)
      const reply = await acme.call('agent', 'GET', `/api/v1/reports/timeseries?metric=${metric}&group_by=${dim}&${windowQuery(w)}`)
      // Refused, or answered with the agent's own group (and the unassigned) only.
      const groups = reply.status === 200 ? (reply.body.series as Json[]).map((s) => s.group as string) : []
      expect({
        metric,
        status: reply.status === 200 || reply.status === 403,
        others: groups.filter((g) => g !== acmeAgent && g !== 'none' && g !== 'other'),
      }).toEqual({
        metric,
        status: true,
        others: [],
      })
    }
  })
})

describe('billing metrics need billing:read', () => {
  const BILLING = ['billing.mrr', 'billing.revenue', 'billing.subscriptions_new', 'billing.payments_failed', 'billing.refunds']

  test('/reports/metrics lists them only to roles with billing:read, saying so', async () => {
    for (const role of ROLES) {
      const metrics = (await reportJson(acme, role, '/api/v1/reports/metrics')).metrics as Json[]
      const billing = metrics.filter((m) => (m.id as string).startsWith('billing.'))
      const allowed = role === 'super_admin' || role === 'admin'
      expect({ role, count: billing.length > 0 }).toEqual({ role, count: allowed })
      expect(metrics.filter((m) => m.family === 'billing')).toEqual(billing)
      for (const m of metrics)
        expect({ id: m.id, requires: m.requires }).toEqual({ id: m.id, requires: m.family === 'billing' ? ['billing:read'] : [] })
      expect(metrics.filter((m) => m.family === 'tickets').length).toBe(5)
    }
  })

  test('summary, timeseries and records of a billing metric: 403 INSUFFICIENT_PERMISSIONS without it, 200 with it', async () => {
    for (const role of ROLES) {
      const allowed = role === 'super_admin' || role === 'admin'
      for (const metric of BILLING)
        for (const path of [
          `/api/v1/reports/summary?metrics=${metric}`,
          // One billing metric among others is enough to refuse the whole summary.
          `/api/v1/reports/summary?metrics=tickets.created,${metric}`,
          `/api/v1/reports/timeseries?metric=${metric}`,
          `/api/v1/reports/records?metric=${metric}`,
          `/api/v1/reports/summary?metrics=${metric}&format=csv`,
        ]) {
          const reply = await acme.call(role, 'GET', `${path}&${windowQuery(w)}`)
          const got = { role, path, status: reply.status, code: reply.body.code ?? reply.body.error }
          expect(got).toEqual({ role, path, status: allowed ? 200 : 403, code: allowed ? undefined : 'INSUFFICIENT_PERMISSIONS' })
        }
    }
  })

  test('a personal access token narrowed to report:read is refused them, though its owner has billing:read', async () => {
    const expiresAt = iso(app.clock.now() + 30 * DAY)
    const { token } = await acme.ok(
      'admin',
      'POST',
      '/api/v1/api-keys',
      { name: 'reports', expires_at: expiresAt, permissions: ['report:read'] },
      201,
    )
    const auth = { authorization: `Bearer ${token}` }
    const metrics = (await (await app.request('/api/v1/reports/metrics', { headers: auth })).json()) as Json
    expect((metrics.metrics as Json[]).some((m) => m.family === 'billing')).toBe(false)
    expect((metrics.metrics as Json[]).some((m) => m.id === 'tickets.created')).toBe(true)
    const refused = await app.request(`/api/v1/reports/summary?metrics=billing.revenue&${windowQuery(w)}`, { headers: auth })
    expect(refused.status).toBe(403)
    expect((await app.request(`/api/v1/reports/summary?metrics=tickets.created&${windowQuery(w)}`, { headers: auth })).status).toBe(200)
  })
})

describe("another organization's data never appears", () => {
  const TICKETS = [
    'tickets.created',
    'tickets.solved',
    'tickets.first_response_time',
    'calls.answered',
    'calls.handle_time',
    'crm.contacts_created',
  ]

  test('the same metrics, different numbers: summary, series grouped by agent, records, agents, live', async () => {
    for (const folded of [false, true]) {
      if (folded) await fold()
      const figures = async (world: World) =>
        Object.fromEntries(
          (
            (await reportJson(world, 'admin', `/api/v1/reports/summary?metrics=${TICKETS.join(',')}&compare=none&${windowQuery(w)}`))
              .metrics as Json[]
          ).map((m) => [m.metric, m.value]),
        )
      const [a, g] = [await figures(acme), await figures(globex)]
      expect({ folded, acme: a['tickets.created'], globex: g['tickets.created'] }).toEqual({ folded, acme: 7, globex: 2 })
      expect({ folded, acme: a['calls.answered'], globex: g['calls.answered'] }).toEqual({ folded, acme: 4, globex: 1 })
      expect({ folded, acme: a['crm.contacts_created'], globex: g['crm.contacts_created'] }).toEqual({ folded, acme: 4, globex: 1 })
      // Each organization's records are its own (their ids are found by its lists, never by the other's).
      for (const [world, other] of [
        [acme, globex],
        [globex, acme],
      ] as const) {
        for (const metric of TICKETS) {
          const { records } = await allRecords(world, 'admin', `metric=${metric}&${windowQuery(w)}`)
          for (const record of records) {
            const path = record.record_type === 'ticket' ? 'tickets' : record.record_type === 'call' ? 'calls' : 'contacts'
            expect({ metric, mine: (await world.call('admin', 'GET', `/api/v1/${path}/${record.record_id}`)).status }).toEqual({
              metric,
              mine: 200,
            })
            expect({ metric, theirs: (await other.call('admin', 'GET', `/api/v1/${path}/${record.record_id}`)).status }).toEqual({
              metric,
              theirs: 404,
            })
          }
        }
        // Groups by agent name only the organization's own users.
        const users = new Set(['none', ...(['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const).map((r) => world.userId(r))])
        const series = await reportJson(
          world,
          'admin',
          `/api/v1/reports/timeseries?metric=tickets.solved&group_by=assignee&${windowQuery(w)}`,
        )
        for (const s of series.series as Json[]) expect(users.has(s.group)).toBe(true)
        const rows = (await reportJson(world, 'admin', `/api/v1/reports/agents?${windowQuery(w)}`)).agents as Json[]
        for (const row of rows) expect(users.has(row.agent_id)).toBe(true)
      }
      const live = async (world: World) => (await reportJson(world, 'admin', '/api/v1/reports/live')).tickets as Json
      expect([(await live(acme)).backlog, (await live(globex)).backlog]).toEqual([0, 0])
    }
    // An open ticket of one organization is in its own backlog only.
    await globex.ok('admin', 'POST', '/api/v1/tickets', { subject: 'Open' }, 201)
    expect(((await reportJson(acme, 'admin', '/api/v1/reports/live')).tickets as Json).backlog).toBe(0)
    expect(((await reportJson(globex, 'admin', '/api/v1/reports/live')).tickets as Json).backlog).toBe(1)
  })

  test('a record of another organization cannot be asked for by group or bucket', async () => {
    const { records } = await allRecords(globex, 'admin', `metric=tickets.solved&${windowQuery(w)}`)
    const globexAgent = globex.userId('agent')
    expect(records.some((r) => r.dimensions.assignee === globexAgent)).toBe(true)
    const asked = await allRecords(acme, 'admin', `metric=tickets.solved&group_by=assignee&group=${globexAgent}&${windowQuery(w)}`)
    expect(asked).toEqual({ total_count: 0, records: [] })
  })
})

describe('GET /api/v1/reports/*: 10 a minute per user', () => {
  test('ten reports of any kind answer with X-RateLimit-Limit 10 and the remaining count; the 11th is 429; another user and other routes still answer; two minutes later it answers again', async () => {
    const limited = await makeTestApp({ RATE_LIMITS_ENABLED: 'true' })
    try {
      const world = await World.create(limited, 'limited', { pats: false })
      const q = windowQuery({ from: limited.clock.now() - DAY, to: limited.clock.now() + HOUR, zone: 'UTC', threshold: 20 })
      const paths = [
        '/api/v1/reports/metrics',
        `/api/v1/reports/summary?metrics=tickets.created&${q}`,
        `/api/v1/reports/summary?metrics=tickets.created&format=csv&${q}`,
        `/api/v1/reports/timeseries?metric=tickets.created&${q}`,
        `/api/v1/reports/agents?${q}`,
        '/api/v1/reports/live',
        `/api/v1/reports/records?metric=tickets.created&${q}`,
        `/api/v1/reports/records?metric=tickets.created&format=csv&${q}`,
        '/api/v1/reports/settings',
        `/api/v1/reports/timeseries?metric=calls.offered&granularity=hour&${q}`,
      ]
      const who: Who = 'supervisor'
      for (const [i, path] of paths.entries()) {
        const reply = await world.call(who, 'GET', path)
        expect([path, reply.status, reply.headers.get('x-ratelimit-limit'), reply.headers.get('x-ratelimit-remaining')]).toEqual([
          path,
          200,
          '10',
          String(9 - i),
        ])
      }
      const refused = await world.call(who, 'GET', `/api/v1/reports/records?metric=tickets.created&${q}`)
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({
        error: 'RATE_LIMITED',
        message: expect.stringContaining('10 requests per minute to GET /api/v1/reports/* for this user'),
      })
      expect([refused.headers.get('x-ratelimit-limit'), refused.headers.get('x-ratelimit-remaining')]).toEqual(['10', '0'])
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      // Changing the settings is no GET; other routes and other users answer.
      expect((await world.call(who, 'GET', '/api/v1/tickets')).status).toBe(200)
      expect((await world.call('agent', 'GET', '/api/v1/reports/live')).status).toBe(200)
      expect(
        (await world.call('admin', 'PUT', '/api/v1/reports/settings', { time_zone: 'Asia/Kathmandu', business_hours: null })).status,
      ).toBe(200)
      // The window slides: two minutes later the ten are forgotten.
      limited.clock.advance(121_000)
      const again = await world.call(who, 'GET', '/api/v1/reports/live')
      expect([again.status, again.headers.get('x-ratelimit-remaining')]).toEqual([200, '9'])
    } finally {
      await limited.close()
    }
  })
})
