// The token endpoint's own limit per client: TOKEN_REQUESTS_PER_MINUTE requests a minute for
// each authenticated client, on the shared rate counters (in memory, or Redis for several instances),
// on top of the per-address limit every public route has. Counted after client authentication: a
// stranger sending a client's id without its secret cannot spend that client's budget. The refusal is
// the API's 429 (Retry-After, the spec's rate-limit body), never cached.
import type { AppContext } from '../../../context.ts'
import type { Verdict } from '../../../lib/sliding-window.ts'
import { noStoreJson } from './protocol.ts'

export const TOKEN_REQUESTS_PER_MINUTE = 60
const MINUTE_MS = 60_000

/** undefined when the client may go on; else the 429 to answer with. */
export async function chargeClient(app: Pick<AppContext, 'config' | 'ports' | 'clock'>, clientId: string): Promise<Response | undefined> {
  if (!app.config.rateLimits.enabled) return undefined
  const check = { key: `oc:${clientId}`, limit: TOKEN_REQUESTS_PER_MINUTE, windowMs: MINUTE_MS }
  const answer = app.ports.rateCounters.hit([check], app.clock.now())
  const verdict: Verdict = answer instanceof Promise ? await answer : answer
  if (verdict.accepted) return undefined
  const retryAfter = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))
  const message = `Rate limit reached: ${TOKEN_REQUESTS_PER_MINUTE} token requests per minute for this client`
  return noStoreJson(429, { code: 429, message, retry_after: retryAfter, error: 'RATE_LIMITED' }, { 'retry-after': String(retryAfter) })
}
