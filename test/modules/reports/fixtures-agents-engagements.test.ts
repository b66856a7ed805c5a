// Agent and engagement-session metrics on a hand-made day (2026-01-05, UTC), every figure computed by
// hand. Two agents log in, change status and log out; the time in each status and logged in is counted
// by the part inside the window (an interval still open up to now), occupancy is busy / (available +
// busy). Sessions are created, answered (the first reply of an agent), escalated (each level counts)
// and closed, one of them begun the day before. Two organizations go through it; the second is folded
// part way (an agent's status since when, a session already answered, are then read from the fold's memory).
import { expect, test } from 'bun:test'
import {
  type AgentRow,
  type AgentsReport,
  agentsCsvObjects,
  allRecords,
  beforeAndAfterFold,
  change,
  csvObjects,
  duration,
  HOUR,
  moveClock,
  NO_DURATION,
  type Org,
  play,
  pointsOf,
  type Records,
  reportsApp,
  type Summary,
  summaryCsvObjects,
  summaryFigures,
  type Timeseries,
  timeseriesCsvRows,
  utcHourLabels,
} from './helpers.ts'

const { app, orgs } = await reportsApp({
  start: '2026-01-04T23:00:00Z',
  orgs: [{ name: 'acme' }, { name: 'globex', foldsMidway: true }],
})

type Person = 'agent' | 'supervisor' | 'admin'
const login = (org: Org, who: Person) => org.ok(who, 'POST', '/api/v1/agents/me/login')
const logout = (org: Org, who: Person) => org.ok(who, 'POST', '/api/v1/agents/me/logout')
const setStatus = (org: Org, who: Person, status: string) => org.ok(who, 'PUT', '/api/v1/agents/me/status', { status })

const session = async (org: Org, name: string, channel: string, assignee?: Person) => {
  const made = await org.ok<{ id: string }>(
    'admin',
    'POST',
    '/api/v1/engagements',
    { contact_id: org.ref('contact'), channel, ...(assignee === undefined ? {} : { assignee_id: org.userId(assignee) }) },
    201,
  )
  org.ids[name] = made.id
}
const message = (org: Org, name: string, who: Person, direction: 'in' | 'out') =>
  org.ok(who, 'POST', `/api/v1/engagements/${org.ref(name)}/messages`, { direction, body: 'Hello' }, 201)
const close = (org: Org, name: string, who: Person, reason?: string) =>
  org.ok(who, 'POST', `/api/v1/engagements/${org.ref(name)}/close`, reason === undefined ? {} : { reason })
const escalate = (org: Org, name: string, level: number, to: Record<string, string>) =>
  org.ok('supervisor', 'POST', `/api/v1/engagements/${org.ref(name)}/escalate`, { level, to, reason: 'Needs an expert' })

await play(app, orgs, [
  {
    at: '2026-01-04T23:00:00Z',
    run: async (org) => {
      org.ids.contact = (await org.ok<{ id: string }>('admin', 'POST', '/api/v1/contacts', { name: 'Grace Customer' }, 201)).id
      await org.ok('admin', 'POST', '/api/v1/agent-activities', { key: 'training', name: 'Training', available: false }, 201)
    },
  },
  // E5, the day before: answered after midnight (3600 s), closed at 01:00 (5400 s).
  { at: '2026-01-04T23:30:00Z', run: (org) => session(org, 'E5', 'chat', 'agent') },
  { at: '2026-01-05T00:30:00Z', run: (org) => message(org, 'E5', 'agent', 'out') },
  { at: '2026-01-05T01:00:00Z', run: (org) => close(org, 'E5', 'agent') },
  // The agent: available 09:00-09:50, busy -10:20, break -10:35, available -11:05, wrap_up -11:12:30,
  // available -12:00, logged out (offline) -13:00, then available on (still at the end of the day).
  { at: '2026-01-05T09:00:00Z', run: (org) => login(org, 'agent') },
  // E1: the agent's, answered after 4 minutes (the second reply does not count), closed after an hour.
  { at: '2026-01-05T09:10:00Z', run: (org) => session(org, 'E1', 'chat', 'agent') },
  { at: '2026-01-05T09:12:00Z', run: (org) => message(org, 'E1', 'agent', 'in') },
  { at: '2026-01-05T09:14:00Z', run: (org) => message(org, 'E1', 'agent', 'out'), fold: true },
  { at: '2026-01-05T09:20:00Z', run: (org) => message(org, 'E1', 'agent', 'out') },
  // The supervisor: available 09:30-10:00, busy -11:00, available -11:45, training -12:15, available -17:00,
  // logged out (offline) until 08:00 the next day.
  { at: '2026-01-05T09:30:00Z', run: (org) => login(org, 'supervisor') },
  // E2: queued, escalated to a team, then to the supervisor, answered after 20 minutes, closed after 2 h.
  { at: '2026-01-05T09:40:00Z', run: (org) => session(org, 'E2', 'chat') },
  { at: '2026-01-05T09:45:00Z', run: (org) => escalate(org, 'E2', 1, { team: 'tier2' }) },
  {
    at: '2026-01-05T09:50:00Z',
    run: async (org) => {
      await setStatus(org, 'agent', 'busy')
      await escalate(org, 'E2', 2, { agent_id: org.userId('supervisor') })
    },
  },
  {
    at: '2026-01-05T10:00:00Z',
    run: async (org) => {
      await setStatus(org, 'supervisor', 'busy')
      await message(org, 'E2', 'supervisor', 'out')
    },
  },
  { at: '2026-01-05T10:10:00Z', run: (org) => close(org, 'E1', 'agent'), fold: true },
  { at: '2026-01-05T10:20:00Z', run: (org) => setStatus(org, 'agent', 'break') },
  // E3: the supervisor's, never answered, closed by the customer after 15 minutes.
  { at: '2026-01-05T10:30:00Z', run: (org) => session(org, 'E3', 'email', 'supervisor') },
  { at: '2026-01-05T10:35:00Z', run: (org) => setStatus(org, 'agent', 'available') },
  { at: '2026-01-05T10:45:00Z', run: (org) => close(org, 'E3', 'admin', 'customer') },
  {
    at: '2026-01-05T11:00:00Z',
    run: async (org) => {
      await setStatus(org, 'supervisor', 'available')
      await session(org, 'E4', 'sms')
    },
  },
  // E4: queued, answered by the admin after a minute, left open.
  { at: '2026-01-05T11:01:00Z', run: (org) => message(org, 'E4', 'admin', 'out') },
  { at: '2026-01-05T11:05:00Z', run: (org) => setStatus(org, 'agent', 'wrap_up') },
  { at: '2026-01-05T11:12:30Z', run: (org) => setStatus(org, 'agent', 'available'), fold: true },
  { at: '2026-01-05T11:40:00Z', run: (org) => close(org, 'E2', 'supervisor') },
  { at: '2026-01-05T11:45:00Z', run: (org) => setStatus(org, 'supervisor', 'training') },
  { at: '2026-01-05T12:00:00Z', run: (org) => logout(org, 'agent') },
  { at: '2026-01-05T12:15:00Z', run: (org) => setStatus(org, 'supervisor', 'available') },
  { at: '2026-01-05T13:00:00Z', run: (org) => login(org, 'agent') },
  { at: '2026-01-05T17:00:00Z', run: (org) => logout(org, 'supervisor'), fold: true },
  { at: '2026-01-06T08:00:00Z', run: (org) => login(org, 'supervisor') },
  { at: '2026-01-06T10:00:00Z', run: async () => {} },
])

const DAY_WINDOW = { from: '2026-01-05', to: '2026-01-06', tz: 'UTC' }

/** The agents' rows of the day, by hand. */
function agentRows(org: Org): AgentRow[] {
  const rows: AgentRow[] = [
    {
      agent_id: org.userId('agent'),
      // available 3000 + 1800 + 2850 + 39600 (13:00 to midnight); offline 12:00-13:00.
      status_seconds: { available: 47_250, busy: 1800, break: 900, wrap_up: 450, offline: 3600 },
      tickets_solved: 0,
      calls_answered: 0,
      handle_time: NO_DURATION,
      sessions_closed: 2,
      logged_in_seconds: 10_800 + 39_600,
      // 1800 / (47250 + 1800)
      occupancy: 0.0367,
    },
    {
      agent_id: org.userId('supervisor'),
      // available 1800 + 2700 + 17100; offline 17:00 to midnight (the interval ended by the next login).
      status_seconds: { available: 21_600, busy: 3600, training: 1800, offline: 25_200 },
      tickets_solved: 0,
      calls_answered: 0,
      handle_time: NO_DURATION,
      sessions_closed: 2,
      logged_in_seconds: 27_000,
      // 3600 / (21600 + 3600)
      occupancy: 0.1429,
    },
  ]
  return rows.sort((a, b) => (a.agent_id < b.agent_id ? -1 : 1))
}

const AGENT_METRICS = ['agents.status_time', 'agents.logged_in_time', 'agents.occupancy']
const AGENT_FIGURES = [
  { metric: 'agents.status_time', unit: 'seconds', duration: false, value: 54_000 + 52_200, previous: 0 },
  { metric: 'agents.logged_in_time', unit: 'seconds', duration: false, value: 50_400 + 27_000, previous: 0 },
  // (1800 + 3600) / (68850 + 5400)
  { metric: 'agents.occupancy', unit: 'ratio', duration: false, value: 0.0727, previous: null },
] as const

const SESSION_METRICS = [
  'engagements.created',
  'engagements.closed',
  'engagements.escalated',
  'engagements.first_response_time',
  'engagements.resolution_time',
]
const SESSION_FIGURES = [
  { metric: 'engagements.created', unit: 'count', duration: false, value: 4, previous: 1 },
  { metric: 'engagements.closed', unit: 'count', duration: false, value: 4, previous: 0 },
  { metric: 'engagements.escalated', unit: 'count', duration: false, value: 2, previous: 0 },
  // E5 3600, E1 240, E2 1200, E4 60 (E3 never answered).
  {
    metric: 'engagements.first_response_time',
    unit: 'seconds',
    duration: true,
    value: duration(4, 1275, 240, 3600),
    previous: NO_DURATION,
  },
  // E5 5400, E1 3600, E3 900, E2 7200.
  { metric: 'engagements.resolution_time', unit: 'seconds', duration: true, value: duration(4, 4275, 3600, 7200), previous: NO_DURATION },
] as const

const expected = (figures: readonly { metric: string; value: unknown; previous: unknown }[]) =>
  Object.fromEntries(
    figures.map((f) => [f.metric, { value: f.value, previous: f.previous, change: change(f.value as never, f.previous as never) }]),
  )

beforeAndAfterFold(app, () => orgs, {
  "the agents' summary of the day": async (org) => {
    const summary = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: AGENT_METRICS.join(',') })
    expect<unknown>(summaryFigures(summary)).toEqual(expected(AGENT_FIGURES))
    expect(csvObjects(await org.csv('summary', { ...DAY_WINDOW, metrics: AGENT_METRICS.join(',') }))).toEqual(
      summaryCsvObjects(AGENT_FIGURES),
    )
  },

  'the part of each interval inside a window that cuts them (10:10 to 11:20, and 09:00 to 10:10 before it)': async (org) => {
    const window = { from: '2026-01-05T10:10:00Z', to: '2026-01-05T11:20:00Z', tz: 'UTC' }
    const summary = await org.report<Summary>('summary', { ...window, metrics: AGENT_METRICS.join(',') })
    expect<unknown>(summaryFigures(summary)).toEqual(
      expected([
        // agent: busy 600, break 900, available 1800, wrap_up 450, available 450; supervisor: busy 3000, available 1200.
        // Before: agent available 3000, busy 1200; supervisor available 1800, busy 600.
        { metric: 'agents.status_time', value: 8400, previous: 6600 },
        { metric: 'agents.logged_in_time', value: 8400, previous: 6600 },
        { metric: 'agents.occupancy', value: 0.5106, previous: 0.2727 },
      ]),
    )
  },

  'time per status over the day': async (org) => {
    const query = { ...DAY_WINDOW, metric: 'agents.status_time', group_by: 'status' }
    const series = await org.report<Timeseries>('timeseries', query)
    expect(series.series.map((s) => [s.group, s.total, pointsOf(s)])).toEqual([
      ['available', 68_850, [['2026-01-05', 68_850]]],
      ['offline', 28_800, [['2026-01-05', 28_800]]],
      ['busy', 5400, [['2026-01-05', 5400]]],
      ['training', 1800, [['2026-01-05', 1800]]],
      ['break', 900, [['2026-01-05', 900]]],
      ['wrap_up', 450, [['2026-01-05', 450]]],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(series, false))
  },

  'logged-in time per hour and agent': async (org) => {
    const series = await org.report<Timeseries>('timeseries', {
      ...DAY_WINDOW,
      metric: 'agents.logged_in_time',
      granularity: 'hour',
      group_by: 'agent',
    })
    const hours = utcHourLabels('2026-01-05')
    const agent = hours.map((label, h) => [label, h >= 9 && h !== 12 ? 3600 : 0])
    const supervisor = hours.map((label, h) => [label, h === 9 ? 1800 : h >= 10 && h < 17 ? 3600 : 0])
    expect(series.series.map((s) => [s.group, s.total, pointsOf(s)])).toEqual([
      [org.userId('agent'), 50_400, agent],
      [org.userId('supervisor'), 27_000, supervisor],
    ])
  },

  'occupancy per agent': async (org) => {
    const series = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'agents.occupancy', group_by: 'agent' })
    expect(series.series.map((s) => [s.group, s.total])).toEqual([
      [org.userId('supervisor'), 0.1429],
      [org.userId('agent'), 0.0367],
    ])
  },

  'the agents report': async (org) => {
    const report = await org.report<AgentsReport>('agents', DAY_WINDOW)
    expect(report.agents).toEqual(agentRows(org))
    expect(csvObjects(await org.csv('agents', DAY_WINDOW))).toEqual(agentsCsvObjects(agentRows(org)))
    const own = await org.report<AgentsReport>('agents', DAY_WINDOW, 'agent')
    expect(own.agents).toEqual(agentRows(org).filter((row) => row.agent_id === org.userId('agent')))
    const viewer = await org.report<AgentsReport>('agents', DAY_WINDOW, 'viewer')
    expect(viewer.agents).toEqual(agentRows(org))
  },

  "the records behind an agent's time add up to it": async (org) => {
    const sum = (r: Records) => Math.round(r.records.reduce((total, x) => total + (x.value ?? 0), 0))
    const loggedIn = await allRecords(org, { ...DAY_WINDOW, metric: 'agents.logged_in_time' })
    expect(sum(loggedIn)).toBe(77_400)
    const agentOnly = await allRecords(org, { ...DAY_WINDOW, metric: 'agents.logged_in_time' }, 'agent')
    expect(sum(agentOnly)).toBe(50_400)
    expect(new Set(agentOnly.records.map((r) => r.record_id))).toEqual(new Set([org.userId('agent')]))
    const busy = await allRecords(org, {
      ...DAY_WINDOW,
      metric: 'agents.status_time',
      group_by: 'status',
      group: 'busy',
    })
    expect(sum(busy)).toBe(5400)
  },

  "the sessions' summary of the day": async (org) => {
    const summary = await org.report<Summary>('summary', { ...DAY_WINDOW, metrics: SESSION_METRICS.join(',') })
    expect<unknown>(summaryFigures(summary)).toEqual(expected(SESSION_FIGURES))
    expect(csvObjects(await org.csv('summary', { ...DAY_WINDOW, metrics: SESSION_METRICS.join(',') }))).toEqual(
      summaryCsvObjects(SESSION_FIGURES),
    )
  },

  'sessions by channel and by agent': async (org) => {
    const created = await org.report<Timeseries>('timeseries', { ...DAY_WINDOW, metric: 'engagements.created', group_by: 'channel' })
    expect(created.series.map((s) => [s.group, s.total])).toEqual([
      ['chat', 2],
      ['email', 1],
      ['sms', 1],
    ])
    const query = { ...DAY_WINDOW, metric: 'engagements.first_response_time', group_by: 'agent', granularity: 'hour' }
    const frt = await org.report<Timeseries>('timeseries', query)
    expect(frt.series.map((s) => [s.group, s.total])).toEqual([
      [org.userId('agent'), duration(2, 1920, 240, 3600)],
      [org.userId('supervisor'), duration(1, 1200, 1200, 1200)],
      ['none', duration(1, 60, 60, 60)],
    ])
    const agentPoints = frt.series[0]!.points
    expect(agentPoints.filter((p) => (p.value as { count: number }).count > 0).map((p) => [p.label, p.value])).toEqual([
      ['2026-01-05T00:00+00:00', duration(1, 3600, 3600, 3600)],
      ['2026-01-05T09:00+00:00', duration(1, 240, 240, 240)],
    ])
    expect(await org.csv('timeseries', query)).toEqual(timeseriesCsvRows(frt, true))
  },

  'the records behind the session figures': async (org) => {
    const escalated = await allRecords(org, { ...DAY_WINDOW, metric: 'engagements.escalated' })
    expect(escalated.records.map((r) => [r.record_id, r.at])).toEqual([
      [org.ref('E2'), '2026-01-05T09:45:00.000Z'],
      [org.ref('E2'), '2026-01-05T09:50:00.000Z'],
    ])
    const closed = await allRecords(org, { ...DAY_WINDOW, metric: 'engagements.closed' })
    expect(closed.records.map((r) => [r.record_id, r.value, r.dimensions])).toEqual([
      [org.ref('E5'), 5400, { channel: 'chat', agent: org.userId('agent') }],
      [org.ref('E1'), 3600, { channel: 'chat', agent: org.userId('agent') }],
      [org.ref('E3'), 900, { channel: 'email', agent: org.userId('supervisor') }],
      [org.ref('E2'), 7200, { channel: 'chat', agent: org.userId('supervisor') }],
    ])
    const created = await allRecords(org, { ...DAY_WINDOW, metric: 'engagements.created' })
    expect(created.records.map((r) => r.record_id)).toEqual(['E1', 'E2', 'E3', 'E4'].map((n) => org.ref(n)))
  },
})

// The definition: "the current status counts up to now". An agent that logged out and is still offline is
// in its current status: its offline time counts up to now, and a window in the past keeps its figure
// when the agent later logs in again (the interval is then closed, and counted).
test('an agent still offline: its offline time counts up to now, and stays when it logs in again', async () => {
  const org = orgs[0]!
  moveClock(app, '2026-01-07T09:00:00Z')
  await login(org, 'admin')
  moveClock(app, '2026-01-07T10:00:00Z')
  await logout(org, 'admin')
  moveClock(app, '2026-01-07T12:00:00Z')
  const window = { from: '2026-01-07T09:00:00Z', to: '2026-01-07T12:00:00Z', tz: 'UTC' }
  const adminRow = async () => (await org.report<AgentsReport>('agents', window)).agents.find((r) => r.agent_id === org.userId('admin'))
  const stillOffline = await adminRow()
  app.clock.advance(HOUR)
  await login(org, 'admin')
  const loggedInAgain = await adminRow()
  expect({ stillOffline, loggedInAgain }).toEqual({
    stillOffline: loggedInAgain,
    loggedInAgain: {
      agent_id: org.userId('admin'),
      status_seconds: { available: 3600, offline: 7200 },
      tickets_solved: 0,
      calls_answered: 0,
      handle_time: NO_DURATION,
      sessions_closed: 0,
      logged_in_seconds: 3600,
      occupancy: 0,
    },
  })
})
