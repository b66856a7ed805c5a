// The token endpoint's own limit per client: 60 token requests a minute for each authenticated client
// (on top of the per-address limit of every public route), answered with the API's 429 (Retry-After,
// the spec's body) and never cached. A stranger sending the client's id with a wrong secret spends none
// of its budget; another client has its own.
import { expect, test } from 'bun:test'
import { TOKEN_REQUESTS_PER_MINUTE } from '../../../src/modules/oauth/token/client-rate.ts'
import { json } from '../../helpers/app.ts'
import { basicHeader, tokenWorld } from './token-helpers.ts'

// Rate limits on; the address budget far above what the test sends.
const w = await tokenWorld({ RATE_LIMITS_ENABLED: 'true', UNAUTH_PER_MINUTE: '100000' })
const { app } = w
const cc = { name: 'Service', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['tickets:read'] }
const busy = await w.register(cc)
const quiet = await w.register({ ...cc, name: 'Quiet' })
const ask = (client: { id: string; secret: string | null }, secret = client.secret!) =>
  w.form('/oauth2/token', { grant_type: 'client_credentials' }, basicHeader(client.id, secret))

test(`${TOKEN_REQUESTS_PER_MINUTE} token requests a minute per client, then 429 with Retry-After; wrong secrets spend nothing; others unaffected`, async () => {
  expect(TOKEN_REQUESTS_PER_MINUTE).toBe(60)
  for (let i = 0; i < 5; i++) expect((await ask(busy, 'ocs_wrong')).status).toBe(401)
  for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i++) {
    const response = await ask(busy)
    expect(response.status).toBe(200)
    // The address's budget, as on every public route.
    expect(response.headers.get('x-ratelimit-limit')).toBe('100000')
  }
  const refused = await ask(busy)
  expect(refused.status).toBe(429)
  expect(refused.headers.get('cache-control')).toBe('no-store')
  const retryAfter = Number(refused.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(await json(refused)).toEqual({
    code: 429,
    message: 'Rate limit reached: 60 token requests per minute for this client',
    retry_after: retryAfter,
    error: 'RATE_LIMITED',
  })
  expect((await ask(quiet)).status).toBe(200)
  // A minute later the client is served again.
  app.clock.advance(retryAfter * 1000)
  expect((await ask(busy)).status).toBe(200)
})
