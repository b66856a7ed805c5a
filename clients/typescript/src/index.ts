// @switchboard/client: a typed fetch client of the Switchboard API (openapi-fetch over the generated schema.d.ts).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import type { components, paths } from './schema.d.ts'

export type { components, operations, paths, webhooks } from './schema.d.ts'

/** The API's named schemas: `Schemas['Ticket']`, `Schemas['Error']`… */
export type Schemas = components['schemas']

/** An error response's body: `{code, message, request_id, errors?}`, or a 429's `{code: 429, message, retry_after, error}`. */
export type ApiError = Schemas['Error'] | Schemas['RateLimited']

export type SwitchboardClient = Client<paths>

export interface SwitchboardClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where the server answers, e.g. `https://switchboard.example.com` (no trailing /api/v1: the paths carry it). */
  baseUrl: string
  /** An access token (POST /api/v1/auth/login) or a personal access token (pat_live_…), sent as `Authorization: Bearer`. */
  token?: string
  /** Headers sent with every request. */
  headers?: Record<string, string>
}

/** An openapi-fetch client of the API, every request authenticated with `token` when one is given. */
export function createSwitchboardClient({ baseUrl, token, headers, ...options }: SwitchboardClientOptions): SwitchboardClient {
  const auth = token === undefined ? {} : { authorization: `Bearer ${token}` }
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...auth, ...headers },
  })
}
