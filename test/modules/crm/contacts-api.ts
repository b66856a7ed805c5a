// What the accounts and contacts tests share: an app with two organizations, requests as a client sends
// them, the shapes a client reads back, and the crm.* events recorded for one resource.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp, type TestApp } from '../../helpers/app.ts'
import { type SeededOrg, seedOrganization } from '../../helpers/seed.ts'

export interface Account {
  id: string
  name: string
  domain: string | null
  industry: string | null
  size: string | null
  owner_id: string | null
  tags: string[]
  custom_fields: Record<string, string | number | boolean>
  created_at: string
  updated_at: string
}

type Consent = { granted: boolean; at: string | null }

export interface Contact {
  id: string
  name: string
  email: string | null
  phone: string | null
  external_id: string | null
  contact_type: string
  account_id: string | null
  owner_id: string | null
  blocked: boolean
  consent: { email: Consent; sms: Consent; marketing: Consent }
  tags: string[]
  custom_fields: Record<string, string | number | boolean>
  last_activity_at: string | null
  created_at: string
  updated_at: string
}

export interface ErrorBody {
  code: string
  message: string
  errors?: { field: string; message: string }[]
}

export interface CrmEvent {
  id: string
  type: string
  created_at: string
  organization_id: string
  data: {
    account?: Account
    contact?: Contact
    changed?: string[]
    merged_ids?: string[]
    merged_into_id?: string
  }
}

export type Auth = Record<string, string>

export async function crmApp(): Promise<{ app: TestApp; acme: SeededOrg; globex: SeededOrg }> {
  const app = await makeTestApp()
  afterAll(() => app.close())
  return { app, acme: await seedOrganization(app, 'acme'), globex: await seedOrganization(app, 'globex') }
}

export function crmClient(app: TestApp, defaultAuth: Auth) {
  const send = (method: string, path: string, body?: unknown, auth: Auth = defaultAuth) =>
    app.request(path, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const created = async <T>(path: string, body: unknown, auth?: Auth): Promise<T> => {
    const response = await send('POST', path, body, auth)
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201)
    return json<T>(response)
  }
  return {
    send,
    createAccount: (body: Record<string, unknown> = {}, auth?: Auth) =>
      created<Account>('/api/v1/accounts', { name: 'Acme', ...body }, auth),
    createContact: (body: Record<string, unknown> = {}, auth?: Auth) =>
      created<Contact>('/api/v1/contacts', { name: 'Grace Customer', ...body }, auth),
    /** The items of one page of `path`, and its next token. */
    async page<T>(path: string, key: string, auth?: Auth): Promise<{ items: T[]; next: string; total?: number }> {
      const response = await send('GET', path, undefined, auth)
      expect(response.status, path).toBe(200)
      const body = await json<Record<string, unknown>>(response)
      return { items: body[key] as T[], next: body.next_page_token as string, total: body.total_count as number | undefined }
    },
    /** The crm.* events about the resource `id`, in the order they were written. */
    async eventsOf(id: string): Promise<CrmEvent[]> {
      const rows = await app.context.db.raw.all<{ body: string }>("SELECT body FROM events WHERE type LIKE 'crm.%' ORDER BY id")
      return rows
        .map((row) => JSON.parse(row.body) as CrmEvent)
        .filter((event) => event.data.account?.id === id || event.data.contact?.id === id)
    },
  }
}

export async function expectError(response: Response, status: number, code: string, field?: string): Promise<ErrorBody> {
  const body = await json<ErrorBody>(response)
  expect(response.status, JSON.stringify(body)).toBe(status)
  expect(body.code).toBe(code)
  // A field inside the named one counts (`tags.0`, `consent.email`).
  if (field !== undefined) expect(body.errors?.map((e) => e.field.split('.')[0])).toContain(field)
  return body
}
