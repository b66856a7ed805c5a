// Endpoint-specific limits (spec "Endpoint-specific limits"), on top of the plan's. The login limits
// are applied by the login route itself (the e-mail is in the body); the others by the route's
// authentication, each per user or per organization (uploads: one budget for the whole organization,
// however many users or keys share it). Declared here for routes that come later, so a new route gets
// its limit by its path alone.

import type { EndpointLimit } from '../../ports.ts'

export type { EndpointLimit }

const MINUTE = 60_000
const HOUR = 60 * MINUTE

export const ENDPOINT_LIMITS: readonly EndpointLimit[] = [
  {
    name: 'uploads',
    method: 'POST',
    path: '/api/v1/uploads',
    limit: 100,
    windowMs: HOUR,
    per: 'organization',
    scope: 'requests per hour to POST /api/v1/uploads for this organization',
  },
  {
    name: 'reports',
    method: 'GET',
    path: '/api/v1/reports/*',
    limit: 10,
    windowMs: MINUTE,
    per: 'user',
    scope: 'requests per minute to GET /api/v1/reports/* for this user',
  },
]

/** `POST /api/v1/auth/login`: per client address and per e-mail address. */
export const LOGIN_LIMIT = { perIpPerMinute: 10, perEmailPerMinute: 10, windowMs: MINUTE } as const

function matches(rule: EndpointLimit, method: string, route: string): boolean {
  if (rule.method !== method) return false
  if (!rule.path.endsWith('/*')) return route === rule.path
  const prefix = rule.path.slice(0, -1)
  return route.startsWith(prefix) && route.length > prefix.length
}

// Routes are a fixed set: each (method, route) is looked up once.
const byRoute = new Map<string, EndpointLimit | null>()

/** The endpoint limit of a route (its path pattern as registered, e.g. `/api/v1/reports/:id`), if any. */
export function endpointLimitFor(method: string, route: string): EndpointLimit | undefined {
  const key = method + ' ' + route
  let rule = byRoute.get(key)
  if (rule === undefined) byRoute.set(key, (rule = ENDPOINT_LIMITS.find((r) => matches(r, method, route)) ?? null))
  return rule ?? undefined
}
