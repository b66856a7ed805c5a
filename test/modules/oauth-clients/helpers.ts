// What the OAuth client tests share: one app with two seeded organizations, request helpers and the client's JSON shape.
import { afterAll, expect } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'

export type Headers = Record<string, string>
export interface OAuthClient {
  id: string
  client_id: string
  name: string
  client_type: 'confidential' | 'public'
  redirect_uris: string[]
  post_logout_redirect_uris: string[]
  grant_types: string[]
  scopes: string[]
  secret_hint: string | null
  created_by: string | null
  created_at: string
  updated_at: string
  secret_rotated_at: string | null
}
export type WithSecret = OAuthClient & { client_secret: string | null }

export async function oauthClientsWorld() {
  const app = await makeTestApp()
  afterAll(() => app.close())
  const acme = await seedOrganization(app, 'acme')
  const globex = await seedOrganization(app, 'globex')
  const send = (method: string, path: string, headers: Headers, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const create = async (body: Record<string, unknown> = {}, auth: Headers = acme.users.admin.auth): Promise<WithSecret> => {
    const response = await send('POST', '/api/v1/oauth-clients', auth, {
      name: 'Dashboard',
      redirect_uris: ['https://app.example.com/cb'],
      ...body,
    })
    expect(response.status).toBe(201)
    return json<WithSecret>(response)
  }
  /** The fields a 400 names. */
  const refused = async (body: Record<string, unknown>, auth: Headers = acme.users.admin.auth): Promise<string[]> => {
    const response = await send('POST', '/api/v1/oauth-clients', auth, { name: 'Bad', ...body })
    const answer = await json<{ code: string; errors?: { field: string; message: string }[] }>(response)
    expect({ status: response.status, code: answer.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    return (answer.errors ?? []).map((e) => e.field)
  }
  return { app, acme, globex, send, create, refused }
}
