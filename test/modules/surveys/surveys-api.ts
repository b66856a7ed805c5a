// What the surveys tests share: an app with two organizations, requests as a client and as a respondent
// send them, tickets made through the tickets API, and the shapes a client reads back.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import type { FakeClock } from '../../helpers/clock.ts'
import type { Auth } from '../../helpers/errors.ts'
import { type SeededOrg, type SeededUser, seedOrganization, signIn } from '../../helpers/seed.ts'
export { type Auth, type ErrorBody, expectError } from '../../helpers/errors.ts'

export interface SurveyResponse {
  id: string
  survey_type: string
  subject_type: string
  subject_id: string
  contact_id: string | null
  agent_id: string | null
  team: string | null
  channel: string | null
  status: string
  score: number | null
  comment: string | null
  reason_code: string | null
  questions: string[]
  answers: string[]
  offered_at: string
  responded_at: string | null
  expires_at: string
  editable_until: string | null
  created_at: string
  updated_at: string
}

export interface Offered {
  response: SurveyResponse
  url: string
}

export async function surveysApp(options: { clock?: FakeClock; settings?: Record<string, string> } = {}) {
  const app = await makeTestApp(
    { ACCESS_TOKEN_TTL: '86400', PUBLIC_URL: 'https://switchboard.example', ...options.settings },
    { clock: options.clock },
  )
  afterAll(() => app.close())
  const acme: SeededOrg = await seedOrganization(app, 'acme')
  const globex: SeededOrg = await seedOrganization(app, 'globex')
  return { app, acme, globex }
}

/**
 * Requests as `user`; with no auth given, a fresh sign-in once the fake clock has moved on by half a day
 * (the tests move it by days: access tokens live at most 24 h).
 */
export function surveysClient(app: TestApp, user: SeededUser) {
  let signed = { at: app.clock.now(), auth: user.auth as Auth }
  const current = async (): Promise<Auth> => {
    if (app.clock.now() - signed.at >= 12 * 3_600_000) signed = { at: app.clock.now(), auth: (await signIn(app, user.user)).auth }
    return signed.auth
  }
  const send = async (method: string, path: string, auth?: Auth, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...(auth ?? (await current())), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const ticket = async (body: Record<string, unknown> = {}, auth?: Auth): Promise<{ id: string; contact_id: string | null }> => {
    const response = await send('POST', '/api/v1/tickets', auth, { subject: 'Printer on fire', channel: 'email', ...body })
    expect(response.status).toBe(201)
    return json(response)
  }
  const solve = async (id: string, auth?: Auth) => {
    const response = await send('PATCH', `/api/v1/tickets/${id}`, auth, { status: 'solved' })
    expect(response.status).toBe(200)
  }
  const offer = async (body: Record<string, unknown>, auth?: Auth): Promise<Offered> => {
    const response = await send('POST', '/api/v1/surveys', auth, body)
    expect(response.status).toBe(201)
    return json<Offered>(response)
  }
  const get = async (id: string, auth?: Auth): Promise<SurveyResponse> => {
    const response = await send('GET', `/api/v1/survey-responses/${id}`, auth)
    expect(response.status).toBe(200)
    return json<SurveyResponse>(response)
  }
  return { send, ticket, solve, offer, get }
}

/** The path of a public link (PUBLIC_URL/s/{token} -> /s/{token}). */
export const pathOf = (url: string) => new URL(url).pathname

/** The respondent's requests: no credential at all. */
export function respondent(app: TestApp) {
  return {
    getJson: (url: string) => app.request(pathOf(url), { headers: { accept: 'application/json' } }),
    getHtml: (url: string) => app.request(pathOf(url), { headers: { accept: 'text/html,application/xhtml+xml' } }),
    postJson: (url: string, body: unknown) =>
      app.request(pathOf(url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    postForm: (url: string, fields: [string, string][]) =>
      app.request(pathOf(url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: new URLSearchParams(fields).toString(),
      }),
  }
}
