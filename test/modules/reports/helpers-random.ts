// Shared by the reports' property, consistency and permission tests: an organization driven through the
// API by random steps (tickets, comments by a person or a personal access token, status moves, calls),
// and a brute-force computation of the ticket and call metrics straight from the raw records (tickets,
// ticket_comments, calls and the event log), written from the definitions in
// src/modules/reports/metrics/*.ts, with local buckets found by Intl (not src/lib/zoned-time.ts). Only the
// percentile's grid (histogram.ts: gridValue) is taken from the module, as its definition; the nearest
// rank is found here on the sorted values.
import { expect } from 'bun:test'
import fc from 'fast-check'
import { gridValue } from '../../../src/modules/reports/histogram.ts'
import { json, type TestApp } from '../../helpers/app.ts'
import { type SeededOrg, type SeededUser, seedOrganization, signIn } from '../../helpers/seed.ts'

export const MIN = 60_000
export const HOUR = 60 * MIN
export const DAY = 24 * HOUR
export const QUARTER = 15 * MIN

export const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe'] as const
export const GRANULARITIES = ['hour', 'day', 'week', 'month'] as const
export type Granularity = (typeof GRANULARITIES)[number]

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
export const CHANNELS = ['email', 'web', 'phone', 'chat', 'api'] as const
export const TAGS = ['billing', 'bug', 'vip', 'refund'] as const
export const QUEUES = [null, 'support', 'sales'] as const

export const TICKET_METRICS = [
  'tickets.created',
  'tickets.solved',
  'tickets.reopened',
  'tickets.first_response_time',
  'tickets.resolution_time',
] as const
export const CALL_METRICS = [
  'calls.offered',
  'calls.answered',
  'calls.abandoned',
  'calls.abandonment_rate',
  'calls.service_level',
  'calls.speed_of_answer',
  'calls.handle_time',
] as const
export const BRUTE_METRICS = [...TICKET_METRICS, ...CALL_METRICS] as const
export type BruteMetric = (typeof BRUTE_METRICS)[number]

export const DIMENSIONS: Record<BruteMetric, readonly string[]> = Object.fromEntries([
  ...TICKET_METRICS.map((m) => [m, ['priority', 'channel', 'assignee', 'tag']]),
  ...CALL_METRICS.map((m) => [m, ['direction', 'queue', 'agent']]),
]) as Record<BruteMetric, readonly string[]>

export const COUNT_METRICS = new Set<string>([
  'tickets.created',
  'tickets.solved',
  'tickets.reopened',
  'calls.offered',
  'calls.answered',
  'calls.abandoned',
])
export const DURATION_METRICS = new Set<string>([
  'tickets.first_response_time',
  'tickets.resolution_time',
  'calls.speed_of_answer',
  'calls.handle_time',
])

/** The streams each metric is computed from, by its definition. */
export const METRIC_STREAMS: Record<BruteMetric, readonly string[]> = {
  'tickets.created': ['ticket.created'],
  'tickets.solved': ['ticket.solved'],
  'tickets.reopened': ['ticket.reopened'],
  'tickets.first_response_time': ['ticket.first_response'],
  'tickets.resolution_time': ['ticket.solved'],
  'calls.offered': ['call.offered'],
  'calls.answered': ['call.answered'],
  'calls.abandoned': ['call.abandoned'],
  'calls.abandonment_rate': ['call.abandoned', 'call.answered'],
  'calls.service_level': ['call.answered', 'call.offered'],
  'calls.speed_of_answer': ['call.answered'],
  'calls.handle_time': ['call.handled'],
}

/** The stream `records` lists for each metric (its first), by the metric's definition. */
export const RECORD_STREAM: Record<BruteMetric, string> = {
  'tickets.created': 'ticket.created',
  'tickets.solved': 'ticket.solved',
  'tickets.reopened': 'ticket.reopened',
  'tickets.first_response_time': 'ticket.first_response',
  'tickets.resolution_time': 'ticket.solved',
  'calls.offered': 'call.offered',
  'calls.answered': 'call.answered',
  'calls.abandoned': 'call.abandoned',
  'calls.abandonment_rate': 'call.abandoned',
  'calls.service_level': 'call.answered',
  'calls.speed_of_answer': 'call.answered',
  'calls.handle_time': 'call.handled',
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
export type Json = Record<string, any>

export const iso = (ms: number) => new Date(ms).toISOString()

// ---------------------------------------------------------------------------------------------------
// An organization driven through the API

export type Who = 'super_admin' | 'admin' | 'supervisor' | 'agent' | 'viewer' | 'admin_pat' | 'agent_pat'

export interface Reply {
  status: number
  body: Json
  text: string
  headers: Headers
}

/** One organization of a test app, its users signed in again whenever an hour of fake time has passed. */
export class World {
  private readonly signedAt = new Map<string, number>()
  private readonly sessions = new Map<string, SeededUser>()
  private readonly pats = new Map<string, string>()

  private constructor(
    readonly app: TestApp,
    readonly seeded: SeededOrg,
  ) {}

  static async create(app: TestApp, slug: string, options: { pats?: boolean } = {}): Promise<World> {
    const world = new World(app, await seedOrganization(app, slug))
    for (const [role, user] of Object.entries(world.seeded.users)) {
      world.sessions.set(role, user)
      world.signedAt.set(role, app.clock.now())
    }
    if (options.pats !== false) {
      for (const role of ['admin', 'agent'] as const) {
        const expiresAt = iso(app.clock.now() + 300 * DAY)
        const reply = await world.call(role, 'POST', '/api/v1/api-keys', { name: `pat of ${role}`, expires_at: expiresAt })
        expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 201 })
        world.pats.set(role, reply.body.token as string)
      }
    }
    return world
  }

  get orgId(): string {
    return this.seeded.org.id
  }

  userId(role: 'super_admin' | 'admin' | 'supervisor' | 'agent' | 'viewer'): string {
    return this.seeded.users[role].user.id
  }

  async headers(who: Who): Promise<Record<string, string>> {
    if (who === 'admin_pat' || who === 'agent_pat') {
      const token = this.pats.get(who.slice(0, -4))
      if (!token) throw new Error(`no personal access token for ${who}`)
      return { authorization: `Bearer ${token}` }
    }
    const now = this.app.clock.now()
    const at = this.signedAt.get(who)!
    // Access tokens live an hour of (fake) time; a clock moved back makes a token issued "later" suspect too.
    if (now - at > 45 * MIN || now < at) {
      this.sessions.set(who, await signIn(this.app, this.seeded.users[who].user))
      this.signedAt.set(who, now)
    }
    return this.sessions.get(who)!.auth
  }

  async call(who: Who, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(await this.headers(who)), ...extra }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await this.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await response.text()
    let parsed: Json = {}
    if (text && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text)
    return { status: response.status, body: parsed, text, headers: response.headers }
  }

  /** A call that must answer `status` (the body is shown when it does not). */
  async ok(who: Who, method: string, path: string, body?: unknown, status = 200): Promise<Json> {
    const reply = await this.call(who, method, path, body)
    if (reply.status !== status) throw new Error(`${method} ${path} as ${who}: ${reply.status} (expected ${status}) ${reply.text}`)
    return reply.body
  }
}

// ---------------------------------------------------------------------------------------------------
// Random steps

type Person = 'none' | 'agent' | 'admin'
export type Step =
  | { kind: 'ticket'; priority: string; channel: string; tags: string[]; assignee: Person; status: 'new' | 'open' }
  | { kind: 'comment'; t: number; public: boolean; by: 'admin' | 'admin_pat' | 'agent' | 'agent_pat' }
  | { kind: 'status'; t: number; to: 'solved' | 'open' | 'pending' | 'closed' }
  | { kind: 'edit'; t: number; priority?: string; channel?: string; tags?: string[] }
  | { kind: 'assign'; t: number; to: Person }
  | { kind: 'call'; direction: 'inbound' | 'outbound'; queue: string | null; agent: Person; status: 'queued' | 'ringing' }
  | { kind: 'answer'; c: number }
  | { kind: 'end'; c: number; pick: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'fold' }

const person = fc.constantFrom<Person>('none', 'agent', 'admin')
const tags = fc.subarray([...TAGS], { maxLength: 3 })

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('ticket' as const),
      priority: fc.constantFrom(...PRIORITIES),
      channel: fc.constantFrom(...CHANNELS),
      tags,
      assignee: person,
      status: fc.constantFrom('new' as const, 'open' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('comment' as const),
      t: fc.nat(),
      public: fc.boolean(),
      by: fc.constantFrom('admin' as const, 'admin_pat' as const, 'agent' as const, 'agent_pat' as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      t: fc.nat(),
      to: fc.constantFrom('solved' as const, 'solved' as const, 'open' as const, 'pending' as const, 'closed' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        kind: fc.constant('edit' as const),
        t: fc.nat(),
        priority: fc.constantFrom(...PRIORITIES),
        channel: fc.constantFrom(...CHANNELS),
        tags,
      },
      { requiredKeys: ['kind', 't'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('assign' as const), t: fc.nat(), to: person }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      direction: fc.constantFrom('inbound' as const, 'outbound' as const),
      queue: fc.constantFrom(...QUEUES),
      agent: person,
      status: fc.constantFrom('queued' as const, 'ringing' as const),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('answer' as const), c: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('end' as const), c: fc.nat(), pick: fc.nat() }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 90_000 }), fc.integer({ min: 0, max: 40 * MIN }), fc.integer({ min: 0, max: 5 * HOUR })),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'fold' as const }) },
)

const ENDS: Record<string, readonly string[]> = {
  queued: ['failed', 'canceled'],
  ringing: ['no_answer', 'busy', 'failed', 'canceled', 'rejected'],
  in_progress: ['completed'],
}
const MOVES: Record<string, readonly string[]> = {
  new: ['open', 'pending', 'solved'],
  open: ['pending', 'solved'],
  pending: ['open', 'solved'],
  on_hold: ['open', 'pending', 'solved'],
  solved: ['open', 'closed'],
  closed: [],
}

/** What the steps made, as the steps' runner knows it (only to pick valid next steps). */
export interface Made {
  tickets: { id: string; status: string; assignee: Person }[]
  calls: { id: string; status: string }[]
  /** Fake-clock span the steps ran over. */
  start: number
  end: number
}

export async function runSteps(world: World, steps: readonly Step[], fold: () => Promise<unknown>): Promise<Made> {
  const { app } = world
  const made: Made = { tickets: [], calls: [], start: app.clock.now(), end: app.clock.now() }
  const idOf = (who: Person) => (who === 'none' ? null : world.userId(who))
  for (const step of steps) {
    switch (step.kind) {
      case 'ticket': {
        const body = { subject: 'Random', priority: step.priority, channel: step.channel, tags: step.tags, status: step.status }
        const assignee = idOf(step.assignee)
        const ticket = await world.ok('admin', 'POST', '/api/v1/tickets', assignee ? { ...body, assignee_id: assignee } : body, 201)
        made.tickets.push({ id: ticket.id, status: step.status, assignee: step.assignee })
        break
      }
      case 'comment': {
        const open = made.tickets.filter(
          (t) => t.status !== 'closed' && (step.by.startsWith('admin') || t.assignee === 'none' || t.assignee === 'agent'),
        )
        const ticket = open[step.t % Math.max(1, open.length)]
        if (!ticket) break
        await world.ok(step.by, 'POST', `/api/v1/tickets/${ticket.id}/comments`, { body: 'Reply', public: step.public }, 201)
        break
      }
      case 'status': {
        const movable = made.tickets.filter((t) => MOVES[t.status]!.includes(step.to))
        const ticket = movable[step.t % Math.max(1, movable.length)]
        if (!ticket) break
        await world.ok('admin', 'PATCH', `/api/v1/tickets/${ticket.id}`, { status: step.to })
        ticket.status = step.to
        break
      }
      case 'edit': {
        const open = made.tickets.filter((t) => t.status !== 'closed')
        const ticket = open[step.t % Math.max(1, open.length)]
        const { kind: _, t: __, ...changes } = step
        if (!ticket || Object.keys(changes).length === 0) break
        await world.ok('admin', 'PATCH', `/api/v1/tickets/${ticket.id}`, changes)
        break
      }
      case 'assign': {
        const open = made.tickets.filter((t) => t.status !== 'closed' && t.assignee !== step.to)
        const ticket = open[step.t % Math.max(1, open.length)]
        if (!ticket) break
        await world.ok('admin', 'POST', `/api/v1/tickets/${ticket.id}/assign`, { assignee_id: idOf(step.to) })
        ticket.assignee = step.to
        break
      }
      case 'call': {
        const agent = idOf(step.agent)
        const call = await world.ok(
          'admin',
          'POST',
          '/api/v1/calls',
          {
            direction: step.direction,
            from: '+14155550100',
            to: '+14155550199',
            queue: step.queue,
            status: step.status,
            ...(agent ? { agent_id: agent } : {}),
          },
          201,
        )
        made.calls.push({ id: call.id, status: step.status })
        break
      }
      case 'answer': {
        const waiting = made.calls.filter((c) => c.status === 'queued' || c.status === 'ringing')
        const call = waiting[step.c % Math.max(1, waiting.length)]
        if (!call) break
        await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/answer`, { agent_id: world.userId('agent') })
        call.status = 'in_progress'
        break
      }
      case 'end': {
        const active = made.calls.filter((c) => ENDS[c.status])
        const call = active[step.c % Math.max(1, active.length)]
        if (!call) break
        const ends = ENDS[call.status]!
        const status = ends[step.pick % ends.length]!
        await world.ok('admin', 'POST', `/api/v1/calls/${call.id}/end`, { status })
        call.status = status
        break
      }
      case 'advance':
        app.clock.advance(step.ms)
        break
      case 'fold':
        await fold()
        break
    }
  }
  made.end = app.clock.now()
  return made
}

// ---------------------------------------------------------------------------------------------------
// The brute force: the metrics' facts from the raw records, per the definitions

export interface BruteFact {
  stream: string
  recordId: string
  at: number
  /** The event's stream_seq when the fact comes from one (orders facts of one record at one instant). */
  seq: number
  value: number | null
  /** Each dimension's values; a record without one counts under 'none'. */
  dims: Record<string, string[]>
  /** The dimensions as the event carried them (for comparing with /records). */
  rawDims: Record<string, unknown>
}

const TERMINAL = new Set(['completed', 'no_answer', 'busy', 'failed', 'canceled', 'rejected'])
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 't' || v === 'true'
const wholeSeconds = (ms: number) => Math.round(ms / 1000)

// biome-ignore lint/suspicious/noExplicitAny: a Ticket as an event carries it
function ticketDims(ticket: any) {
  const tags = (ticket.tags ?? []) as string[]
  return {
    dims: {
      priority: [ticket.priority as string],
      channel: [ticket.channel as string],
      assignee: [(ticket.assignee_id as string | null) ?? 'none'],
      tag: tags.length > 0 ? tags : ['none'],
    },
    rawDims: { priority: ticket.priority, channel: ticket.channel, assignee: ticket.assignee_id ?? null, tag: tags },
  }
}

/** Every fact of the ticket and call streams of the organization, from tickets, ticket_comments, calls and events. */
export async function bruteFacts(app: TestApp, organizationId: string): Promise<BruteFact[]> {
  const db = app.context.db
  const events = (
    await db.raw.all<{ seq: number; type: string; body: string; created_at: number; actor_kind: string | null }>(
      'SELECT stream_seq AS seq, type, body, created_at, actor_kind FROM events WHERE organization_id = ? AND stream_seq IS NOT NULL ORDER BY stream_seq',
      [organizationId],
    )
  ).map((e) => ({ ...e, seq: Number(e.seq), createdAt: Number(e.created_at), data: JSON.parse(e.body).data }))
  const tickets = await db.raw.all<{ id: string; created_at: number }>('SELECT id, created_at FROM tickets WHERE organization_id = ?', [
    organizationId,
  ])
  const comments = await db.raw.all<{ id: string; ticket_id: string; public: unknown; created_at: number }>(
    'SELECT id, ticket_id, public, created_at FROM ticket_comments WHERE organization_id = ?',
    [organizationId],
  )
  const calls = await db.raw.all<{
    id: string
    direction: string
    queue: string | null
    agent_id: string | null
    status: string
    initialized_at: number
    answered_at: number | null
    ended_at: number | null
  }>('SELECT id, direction, queue, agent_id, status, initialized_at, answered_at, ended_at FROM calls WHERE organization_id = ?', [
    organizationId,
  ])
  const facts: BruteFact[] = []
  const createdAt = new Map(tickets.map((t) => [t.id, Number(t.created_at)]))

  // Created: the tickets' own creation times, with the dimensions the creation recorded.
  const creations = new Map(events.filter((e) => e.type === 'ticket.created').map((e) => [e.data.ticket.id as string, e]))
  for (const ticket of tickets) {
    const event = creations.get(ticket.id)
    if (!event) throw new Error(`no ticket.created event for ${ticket.id}`)
    facts.push({
      stream: 'ticket.created',
      recordId: ticket.id,
      at: Number(ticket.created_at),
      seq: event.seq,
      value: null,
      ...ticketDims(event.data.ticket),
    })
  }
  // Solved and reopened: the status moves, replayed from each ticket's status at creation.
  const status = new Map<string, string>()
  for (const e of events) {
    if (e.type === 'ticket.created') status.set(e.data.ticket.id, e.data.ticket.status)
    if (e.type !== 'ticket.updated' || !(e.data.changed as string[]).includes('status')) continue
    const ticket = e.data.ticket
    const before = status.get(ticket.id)
    status.set(ticket.id, ticket.status)
    const base = { recordId: ticket.id as string, at: e.createdAt, seq: e.seq, ...ticketDims(ticket) }
    if (ticket.status === 'solved' && before !== 'solved')
      facts.push({ ...base, stream: 'ticket.solved', value: wholeSeconds(e.createdAt - createdAt.get(ticket.id)!) })
    if (before === 'solved' && ticket.status === 'open') facts.push({ ...base, stream: 'ticket.reopened', value: null })
  }
  // First response: each ticket's first public comment made by a person (the event of the comment says who acted).
  const commentEvents = new Map(events.filter((e) => e.type === 'ticket.comment.added').map((e) => [e.data.comment.id as string, e]))
  const byTicket = new Map<string, { at: number; seq: number; isPublic: boolean; person: boolean; ticket: unknown }[]>()
  for (const c of comments) {
    const event = commentEvents.get(c.id)
    if (!event) throw new Error(`no ticket.comment.added event for ${c.id}`)
    const list = byTicket.get(c.ticket_id) ?? []
    list.push({
      at: Number(c.created_at),
      seq: event.seq,
      isPublic: truthy(c.public),
      person: event.actor_kind === 'person',
      ticket: event.data.ticket,
    })
    byTicket.set(c.ticket_id, list)
  }
  for (const [ticketId, list] of byTicket) {
    const first = list.filter((c) => c.isPublic && c.person).sort((a, b) => a.at - b.at || a.seq - b.seq)[0]
    if (!first) continue
    facts.push({
      stream: 'ticket.first_response',
      recordId: ticketId,
      at: first.at,
      seq: first.seq,
      value: wholeSeconds(first.at - createdAt.get(ticketId)!),
      ...ticketDims(first.ticket),
    })
  }
  // Calls: those that ended, at the time they began.
  for (const call of calls) {
    if (!TERMINAL.has(call.status)) continue
    const initialized = Number(call.initialized_at)
    const answered = call.answered_at === null ? null : Number(call.answered_at)
    const ended = Number(call.ended_at)
    const wait = wholeSeconds((answered ?? ended) - initialized)
    const base = {
      recordId: call.id,
      at: initialized,
      seq: 0,
      dims: { direction: [call.direction], queue: [call.queue ?? 'none'], agent: [call.agent_id ?? 'none'] },
      rawDims: { direction: call.direction, queue: call.queue ?? null, agent: call.agent_id ?? null },
    }
    facts.push({ ...base, stream: 'call.offered', value: wait })
    if (answered !== null) {
      facts.push({ ...base, stream: 'call.answered', value: wait })
      facts.push({ ...base, stream: 'call.handled', value: wholeSeconds(ended - answered) })
    } else if (call.status === 'no_answer' || call.status === 'canceled') facts.push({ ...base, stream: 'call.abandoned', value: wait })
  }
  return facts
}

export interface Duration {
  count: number
  mean: number | null
  p50: number | null
  p90: number | null
}
export type Value = number | null | Duration

function durationOf(values: number[]): Duration {
  if (values.length === 0) return { count: 0, mean: null, p50: null, p90: null }
  const grid = values.map(gridValue).sort((a, b) => a - b)
  const rank = (p: number) => grid[Math.ceil((p / 100) * grid.length) - 1]!
  const total = values.reduce((a, b) => a + b, 0)
  return { count: values.length, mean: Math.round((total / values.length) * 10) / 10, p50: rank(50), p90: rank(90) }
}

const ratio = (n: number, d: number) => (d === 0 ? null : Math.round((n / d) * 10_000) / 10_000)

/** A metric's value over some facts (already those of the window), per its definition. */
export function bruteValue(metric: BruteMetric, facts: readonly BruteFact[], threshold = 20): Value {
  const of = (stream: string) => facts.filter((f) => f.stream === stream)
  const values = (stream: string) => of(stream).map((f) => f.value!)
  switch (metric) {
    case 'tickets.created':
      return of('ticket.created').length
    case 'tickets.solved':
      return of('ticket.solved').length
    case 'tickets.reopened':
      return of('ticket.reopened').length
    case 'tickets.first_response_time':
      return durationOf(values('ticket.first_response'))
    case 'tickets.resolution_time':
      return durationOf(values('ticket.solved'))
    case 'calls.offered':
      return of('call.offered').length
    case 'calls.answered':
      return of('call.answered').length
    case 'calls.abandoned':
      return of('call.abandoned').length
    case 'calls.abandonment_rate': {
      const abandoned = of('call.abandoned').length
      return ratio(abandoned, abandoned + of('call.answered').length)
    }
    case 'calls.service_level':
      return ratio(values('call.answered').filter((wait) => wait <= threshold).length, of('call.offered').length)
    case 'calls.speed_of_answer':
      return durationOf(values('call.answered'))
    case 'calls.handle_time':
      return durationOf(values('call.handled'))
  }
}

export const inWindow = (facts: readonly BruteFact[], from: number, to: number) => facts.filter((f) => f.at >= from && f.at < to)

/** The number a summary's change and a series' rank are measured on. */
export function headline(value: Value | undefined): number | null {
  if (value === undefined || value === null) return null
  return typeof value === 'number' ? value : value.mean
}

// ---------------------------------------------------------------------------------------------------
// Local buckets, found by Intl one quarter hour at a time

const formatters = new Map<string, Intl.DateTimeFormat>()
const keys = new Map<string, { date: string; hour: string; minute: string; offset: string }>()

/** The local date, hour, minute and offset of an instant in `zone`, as Intl reads them. */
export function localParts(zone: string, instant: number) {
  const memo = `${zone}|${instant}`
  const known = keys.get(memo)
  if (known) return known
  let format = formatters.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
    formatters.set(zone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]))
  const name = parts.timeZoneName!
  const offset = name === 'GMT' ? '+00:00' : name.slice(3)
  const value = { date: `${parts.year}-${parts.month}-${parts.day}`, hour: parts.hour!, minute: parts.minute!, offset }
  if (keys.size > 500_000) keys.clear()
  keys.set(memo, value)
  return value
}

function isoWeekOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const day = new Date(Date.UTC(y, m - 1, d))
  const weekday = (day.getUTCDay() + 6) % 7 // Monday 0
  const thursday = new Date(day.getTime() + (3 - weekday) * DAY)
  const year = thursday.getUTCFullYear()
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY))
  return `${year}-W${String(week).padStart(2, '0')}`
}

/** The local bucket holding an instant: the hour (with its offset: a fall-back night has two 01:00 hours), date, ISO week or month. */
export function bucketKey(zone: string, instant: number, granularity: Granularity): string {
  const p = localParts(zone, instant)
  if (granularity === 'hour') return `${p.date}T${p.hour}|${p.offset}`
  if (granularity === 'day') return p.date
  if (granularity === 'week') return isoWeekOf(p.date)
  return p.date.slice(0, 7)
}

export function bucketLabel(zone: string, start: number, granularity: Granularity): string {
  const p = localParts(zone, start)
  if (granularity === 'hour') return `${p.date}T${p.hour}:${p.minute}${p.offset}`
  return bucketKey(zone, start, granularity)
}

/**
 * The starts of the local buckets meeting [from, to): where the bucket key changes, walking quarter hours
 * (every zone here changes its offset on a quarter hour, and by whole quarter hours).
 */
export function bruteBucketStarts(zone: string, from: number, to: number, granularity: Granularity): number[] {
  let start = Math.floor(from / QUARTER) * QUARTER
  const key = (t: number) => bucketKey(zone, t, granularity)
  while (key(start - QUARTER) === key(start)) start -= QUARTER
  const starts = [start]
  for (let t = start + QUARTER; t < to; t += QUARTER) if (key(t) !== key(t - QUARTER)) starts.push(t)
  return starts
}

// ---------------------------------------------------------------------------------------------------
// Expected reports

export interface Window {
  from: number
  to: number
  zone: string
  threshold: number
}

/** The window's parameters; the threshold only when it is not the default (20). */
export const windowQuery = (w: Window) =>
  `from=${encodeURIComponent(iso(w.from))}&to=${encodeURIComponent(iso(w.to))}&tz=${encodeURIComponent(w.zone)}${w.threshold === 20 ? '' : `&threshold=${w.threshold}`}`

/** Each metric over the window and over the window `shift` ms before it (default: the one just before), and the change. */
export function expectedSummary(facts: readonly BruteFact[], metrics: readonly BruteMetric[], w: Window, shift = w.to - w.from) {
  return metrics.map((metric) => {
    const value = bruteValue(metric, inWindow(facts, w.from, w.to), w.threshold)
    const previous = bruteValue(metric, inWindow(facts, w.from - shift, w.to - shift), w.threshold)
    const now = headline(value)
    const before = headline(previous)
    const change =
      now === null || before === null
        ? null
        : {
            difference: Math.round((now - before) * 10_000) / 10_000,
            ratio: before === 0 ? null : Math.round(((now - before) / before) * 10_000) / 10_000,
          }
    return { metric, value, previous, change }
  })
}

export interface SeriesQuery extends Window {
  metric: BruteMetric
  granularity: Granularity
  groupBy: string | null
  top: number
}

export function seriesQuery(q: SeriesQuery): string {
  const top = q.top === 10 ? '' : `&top=${q.top}`
  return `metric=${q.metric}&granularity=${q.granularity}${top}${q.groupBy ? `&group_by=${q.groupBy}` : ''}&${windowQuery(q)}`
}

/** The expected series: each group (the `top` by value, then `other`) with its total and one point per local bucket. */
export function expectedSeries(facts: readonly BruteFact[], q: SeriesQuery) {
  const starts = bruteBucketStarts(q.zone, q.from, q.to, q.granularity)
  const streams = METRIC_STREAMS[q.metric]
  const windowed = inWindow(facts, q.from, q.to).filter((f) => streams.includes(f.stream))
  const pointsOf = (group: readonly BruteFact[]) =>
    starts.map((start, i) => {
      const end = starts[i + 1] ?? q.to
      return {
        start: iso(start),
        label: bucketLabel(q.zone, start, q.granularity),
        value: bruteValue(
          q.metric,
          group.filter((f) => f.at >= start && f.at < end),
          q.threshold,
        ),
      }
    })
  if (q.groupBy === null) return [{ group: null, total: bruteValue(q.metric, windowed, q.threshold), points: pointsOf(windowed) }]
  const dim = q.groupBy
  const groups = new Map<string, BruteFact[]>()
  for (const fact of windowed) for (const value of fact.dims[dim]!) groups.set(value, [...(groups.get(value) ?? []), fact])
  const rank = (name: string) => headline(bruteValue(q.metric, groups.get(name)!, q.threshold)) ?? Number.NEGATIVE_INFINITY
  let names = [...groups.keys()].sort((a, b) => rank(b) - rank(a) || (a < b ? -1 : 1))
  if (names.length > q.top) {
    // The rest: the records counted under any of the other values, each once (a ticket tagged with two of them too).
    const rest = new Set(names.slice(q.top))
    groups.set(
      'other',
      windowed.filter((f) => f.dims[dim]!.some((v) => rest.has(v))),
    )
    names = [...names.slice(0, q.top), 'other']
  }
  return names.map((name) => {
    const group = groups.get(name)!
    return { group: name, total: bruteValue(q.metric, group, q.threshold), points: pointsOf(group) }
  })
}

/** The records `GET /reports/records` should list for a metric over a window: its first stream's facts, oldest first. */
export function expectedRecords(facts: readonly BruteFact[], metric: BruteMetric, w: Pick<Window, 'from' | 'to'>) {
  return inWindow(facts, w.from, w.to)
    .filter((f) => f.stream === RECORD_STREAM[metric])
    .sort((a, b) => a.at - b.at || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : a.seq - b.seq))
    .map((f) => ({ record_id: f.recordId, at: iso(f.at), value: f.value, dimensions: f.rawDims }))
}

/** Every record of a `records` query, page after page (the default page size, or `pageSize`). */
export async function allRecords(
  world: World,
  who: Who,
  query: string,
  pageSize?: number,
): Promise<{ total_count: number; records: Json[] }> {
  const records: Json[] = []
  let total = -1
  let token: string | null = null
  do {
    const size = pageSize === undefined ? '' : `&page_size=${pageSize}`
    const page: Json = await reportJson(
      world,
      who,
      `/api/v1/reports/records?${query}${size}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
    )
    records.push(...(page.records as Json[]))
    total = page.total_count as number
    token = page.next_page_token as string | null
  } while (token !== null)
  return { total_count: total, records }
}

/** A report's JSON body, or fails showing what was answered. */
export async function reportJson(world: World, who: Who, path: string): Promise<Json> {
  const reply = await world.call(who, 'GET', path)
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text}`)
  return reply.body
}

export { json }
