// The sign-in form shares the login rate limit of POST /api/v1/auth/login (10 a minute per address and per
// e-mail, counted before any password is hashed), over a real loopback server with clients told apart
// by X-Forwarded-For from a trusted proxy; a refusal is an HTML page with status 429 and Retry-After.
import { afterAll, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { authorizationUrl, oauthBrowser, pageOf, registerClient } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const app = await makeTestApp({ RATE_LIMITS_ENABLED: 'true', TRUSTED_PROXIES: '127.0.0.1', UNAUTH_PER_MINUTE: '1000' })
const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
afterAll(async () => {
  await server.stop(true)
  await app.close()
})
const base = `http://127.0.0.1:${server.server!.port}`
const acme = await seedOrganization(app, 'acme')
const { clientId } = await registerClient(app, acme.org.id)
const url = authorizationUrl(app, {
  client_id: clientId,
  redirect_uri: 'https://app.example.com/cb',
  response_type: 'code',
  scope: 'openid',
})
const path = url.slice(app.config.authUrl.length)

const apiLogin = (ip: string, email: string, password = 'wrong password') =>
  fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  })

/** One attempt on the sign-in form from `ip`. */
async function formSignIn(ip: string, email: string, password = 'wrong password') {
  const browser = oauthBrowser(base, { headers: { 'x-forwarded-for': ip } })
  const page = pageOf(await browser.request(`${base}${path}`))
  return pageOf(await browser.submit(page, { email, password }))
}

test('ten failed API logins for an e-mail: the form refuses the eleventh attempt, the right password too, with an HTML 429', async () => {
  const email = acme.users.agent.user.email
  for (let i = 1; i <= 10; i++) expect((await apiLogin(`192.0.2.${i}`, email)).status).toBe(401)
  const refused = await formSignIn('192.0.2.50', email, PASSWORD)
  expect(refused.status).toBe(429)
  expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(refused.text).toContain('10 login attempts per minute for this e-mail address')
  expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  // Another e-mail from another address is not affected.
  expect((await formSignIn('192.0.2.51', acme.users.viewer.user.email, PASSWORD)).forms.map((f) => f.action)).toEqual([
    '/oauth2/auth/consent',
  ])
})

test('ten failed form attempts from an address: the API login refuses the next one from it', async () => {
  const ip = '198.51.100.9'
  for (let i = 1; i <= 10; i++) expect((await formSignIn(ip, `someone-${i}@acme.test`)).status).toBe(401)
  const refused = await apiLogin(ip, acme.users.admin.user.email, PASSWORD)
  expect(refused.status).toBe(429)
  expect(((await refused.json()) as { message: string }).message).toContain('10 login attempts per minute from this address')
})
