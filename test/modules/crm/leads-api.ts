// What the leads tests share: an app with two organizations, requests as a client sends them, and leads
// brought to a status through the API's allowed moves only.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'
import type { Auth } from '../../helpers/errors.ts'
export { type Auth, type ErrorBody, expectError } from '../../helpers/errors.ts'

export interface Lead {
  id: string
  name: string
  email: string | null
  phone: string | null
  company_name: string | null
  source: string | null
  score: number
  status: string
  owner_id: string | null
  converted_at: string | null
  converted_contact_id: string | null
  converted_account_id: string | null
  created_at: string
  updated_at: string
}

/** The lifecycle as the tests state it, independently of the module's table. */
export const STATUSES = ['new', 'contacted', 'qualified', 'unqualified', 'converted'] as const
export const PATCHABLE: Record<string, string[]> = {
  new: ['contacted', 'unqualified'],
  contacted: ['qualified', 'unqualified'],
  qualified: ['unqualified'],
  unqualified: ['contacted'],
  converted: [],
}
/** The allowed PATCHes that bring a new lead to each status but converted. */
export const PATHS: Record<string, string[]> = {
  new: [],
  contacted: ['contacted'],
  qualified: ['contacted', 'qualified'],
  unqualified: ['unqualified'],
}

export async function leadsApp(): Promise<{ app: TestApp; acme: SeededOrg; globex: SeededOrg }> {
  const app = await makeTestApp()
  afterAll(() => app.close())
  return { app, acme: await seedOrganization(app, 'acme'), globex: await seedOrganization(app, 'globex') }
}

export function client(app: TestApp, defaultAuth: Auth) {
  const send = (method: string, path: string, auth: Auth = defaultAuth, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const create = async (body: Record<string, unknown> = {}, auth: Auth = defaultAuth): Promise<Lead> => {
    const response = await send('POST', '/api/v1/leads', auth, { name: 'Grace Hopper', ...body })
    expect(response.status).toBe(201)
    return json<Lead>(response)
  }
  const patch = (id: string, body: unknown, auth: Auth = defaultAuth) => send('PATCH', `/api/v1/leads/${id}`, auth, body)
  const get = async (id: string, auth: Auth = defaultAuth) => {
    const response = await send('GET', `/api/v1/leads/${id}`, auth)
    expect(response.status).toBe(200)
    return json<Lead>(response)
  }
  /** A lead brought to `status` (not converted) by allowed PATCHes only. */
  const leadIn = async (status: string, body: Record<string, unknown> = {}, auth: Auth = defaultAuth): Promise<Lead> => {
    let lead = await create(body, auth)
    for (const step of PATHS[status]!) {
      const response = await patch(lead.id, { status: step }, auth)
      expect(response.status).toBe(200)
      lead = await json<Lead>(response)
    }
    expect(lead.status).toBe(status)
    return lead
  }
  return { send, create, patch, get, leadIn }
}
