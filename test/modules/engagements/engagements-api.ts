// What the engagements tests share: an app with two organizations, requests as a client sends them, a
// contact to talk to, the shapes a client reads back, the lifecycle as the tests state it (independently
// of the module's table), sessions brought to a status through allowed operations only, and the
// engagement.* events read back from the events table.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import type { Auth } from '../../helpers/errors.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'
export { type Auth, type ErrorBody, expectError } from '../../helpers/errors.ts'

export interface Engagement {
  id: string
  contact_id: string
  channel: string
  status: string
  assignee_id: string | null
  team: string | null
  required_skill: string | null
  priority: string
  subject: string | null
  first_reply_at: string | null
  waiting_since: string | null
  last_activity_at: string
  snoozed_until: string | null
  closed_at: string | null
  close_reason: string | null
  labels: string[]
  custom_fields: Record<string, unknown>
  ticket_id: string | null
  call_id: string | null
  escalated_at: string | null
  escalation_level: number | null
  escalated_to: { agent_id: string } | { team: string } | null
  escalation_reason: string | null
  created_at: string
  updated_at: string
}

export interface Message {
  id: string
  engagement_id: string
  direction: 'in' | 'out'
  author: { type: string; id: string }
  body: string
  upload_ids: string[]
  created_at: string
}

export const STATUSES = ['queued', 'active', 'snoozed', 'wrap_up', 'closed'] as const
/** Where each status may go (research §2.7, as the module's README states it). */
export const ALLOWED: Record<string, string[]> = {
  queued: ['active', 'closed'],
  active: ['snoozed', 'wrap_up', 'closed'],
  snoozed: ['active', 'closed'],
  wrap_up: ['active', 'closed'],
  closed: ['active'],
}

export async function engagementsApp(settings: Parameters<typeof makeTestApp>[0] = {}) {
  const app = await makeTestApp({ ACCESS_TOKEN_TTL: '86400', ...settings })
  afterAll(() => app.close())
  const acme: SeededOrg = await seedOrganization(app, 'acme')
  const globex: SeededOrg = await seedOrganization(app, 'globex')
  return { app, acme, globex }
}

export function client(app: TestApp, defaultAuth: Auth) {
  const send = (method: string, path: string, auth: Auth = defaultAuth, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const ok = async <T = Engagement>(response: Response | Promise<Response>, status = 200): Promise<T> => {
    const got = await response
    const body = await json<T>(got)
    expect({ status: got.status, body }).toMatchObject({ status })
    return body
  }
  const contact = async (auth: Auth = defaultAuth): Promise<string> =>
    (await ok<{ id: string }>(send('POST', '/api/v1/contacts', auth, { name: 'Grace Customer' }), 201)).id
  const create = async (body: Record<string, unknown>, auth: Auth = defaultAuth): Promise<Engagement> =>
    ok(send('POST', '/api/v1/engagements', auth, { channel: 'chat', ...body }), 201)
  const get = (id: string, auth: Auth = defaultAuth) => ok(send('GET', `/api/v1/engagements/${id}`, auth))
  const op = (id: string, operation: string, body: unknown = {}, auth: Auth = defaultAuth) =>
    send('POST', `/api/v1/engagements/${id}/${operation}`, auth, body)
  const message = (id: string, direction: 'in' | 'out', body = 'hello', auth: Auth = defaultAuth) =>
    ok<Message>(op(id, 'messages', { direction, body }, auth), 201)
  /** The operation that moves a session from `from` to `to` (both in ALLOWED). */
  const moveTo = (id: string, from: string, to: string, assignee: string, until: string, auth: Auth = defaultAuth) => {
    if (to === 'active' && from === 'queued') return op(id, 'assign', { assignee_id: assignee }, auth)
    if (to === 'active' && from === 'snoozed') return op(id, 'unsnooze', {}, auth)
    if (to === 'active') return op(id, 'reopen', {}, auth)
    if (to === 'snoozed') return op(id, 'snooze', { until }, auth)
    if (to === 'wrap_up') return op(id, 'wrap-up', {}, auth)
    if (to === 'closed') return op(id, 'close', {}, auth)
    return op(id, 'assign', { assignee_id: assignee }, auth)
  }
  return { send, ok, contact, create, get, op, message, moveTo }
}

/** The allowed moves that bring a new (queued) session to each status. */
export const PATHS: Record<string, string[]> = {
  queued: [],
  active: ['active'],
  snoozed: ['active', 'snoozed'],
  wrap_up: ['active', 'wrap_up'],
  closed: ['active', 'closed'],
}

export interface EngagementEvent {
  type: string
  data: { engagement: Engagement; escalation?: { level: number; to: unknown; reason: string } }
}

export async function engagementEvents(app: TestApp, id: string): Promise<EngagementEvent[]> {
  const rows = await app.context.db.raw.all<{ body: string }>(
    "SELECT body FROM events WHERE type LIKE 'engagement.%' ORDER BY created_at, stream_seq",
  )
  return rows.map((r) => JSON.parse(r.body) as EngagementEvent).filter((e) => e.data.engagement.id === id)
}
