// The authorization server's pages in a real headless Chromium (Debian's chromium through
// playwright-core): sign-in (a wrong password first), MFA with a TOTP code, consent, and the redirect
// to a client on another origin, which the pages' Content-Security-Policy (form-action) must allow; no
// script runs on any page. axe-core checks each page: no serious or critical accessibility violation.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { type Browser, chromium, type Page } from 'playwright-core'
import { makeTestApp } from '../../helpers/app.ts'
import { registerClient } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { totpAt } from '../../helpers/totp.ts'
import { enrollTotp } from '../mfa/helpers.ts'

const CHROMIUM = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : Bun.which('chromium')
if (!CHROMIUM) console.warn('oauth/browser.test.ts: skipping the Chromium test: no /usr/bin/chromium (apt-get install chromium)')

const app = await makeTestApp()
const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
const base = `http://127.0.0.1:${server.server!.port}`
// The client: another origin (its own port), which the last form's redirect goes to.
const callbacks: string[] = []
const client = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    callbacks.push(request.url)
    return new Response('<!doctype html><html lang="en"><title>Client</title><main><h1>Back at the client</h1></main></html>', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  },
})
const acme = await seedOrganization(app, 'acme')
const user = acme.users.agent
// A loopback redirect URI: any port is accepted at authorization time (RFC 8252).
const { clientId } = await registerClient(app, acme.org.id, {
  redirect_uris: ['http://127.0.0.1/callback'],
  scopes: ['openid', 'email', 'tickets:read'],
})
const redirectUri = `http://127.0.0.1:${client.port}/callback`

let browser: Browser
beforeAll(async () => {
  if (CHROMIUM) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  client.stop(true)
  await server.stop(true)
  await app.close()
})

/** axe-core's serious and critical violations of the page as it is now. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)
}

describe.skipIf(!CHROMIUM)('in Chromium', () => {
  test('sign-in (after a wrong password), TOTP and consent end at the client with a code; every page passes axe', async () => {
    const { secret } = await enrollTotp(app, user.auth)
    app.clock.advance(30_000)
    const context = await browser.newContext()
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email tickets:read',
      state: 'chromium',
    })
    await page.goto(`${base}/oauth2/auth?${query}`)

    expect(await page.title()).toBe('Sign in · Switchboard')
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('E-mail address').fill(user.user.email)
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    expect(await page.getByRole('alert').textContent()).toBe('The e-mail address or the password is incorrect.')
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()

    await page.waitForURL(`${base}/oauth2/auth/sign-in`)
    expect(await page.title()).toBe('Verify it is you · Switchboard')
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('Verification code').fill(totpAt(secret, app.clock.now()))
    await page.getByRole('button', { name: 'Verify' }).click()

    await page.waitForURL(`${base}/oauth2/auth/mfa`)
    expect(await page.title()).toBe('Allow access? · Switchboard')
    expect(await page.getByRole('listitem').allTextContents()).toEqual(['Confirm your identity', 'See your e-mail address', 'Read tickets'])
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Allow' }).click()

    // The form's POST answered 303 to the client's origin: Chromium applies form-action to that redirect.
    await page.waitForURL((url) => url.origin === new URL(redirectUri).origin)
    // The page's own URL, and what the client received (Chromium may also ask it for /favicon.ico).
    const callback = new URL(page.url())
    expect(callbacks).toContain(callback.href)
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri)
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: 'chromium',
      iss: app.config.authUrl,
    })
    expect(errors.filter((e) => e.includes('Content Security Policy'))).toEqual([])
    const cookies = await context.cookies(base)
    expect(cookies.find((c) => c.name === 'sb_op')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    await context.close()
  }, 60_000)
})
