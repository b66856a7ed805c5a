// Survey responses on the compiled binary and the real clock: a ticket solved with automatic CSAT offers
// on, its link issued by the API, opened as a browser would (the HTML form), answered with the form's
// url-encoded post (a thank-you page) and changed within the edit window, each event delivered to a real
// HTTPS receiver. The expiry is not run here: SURVEY_EXPIRY_HOURS is at least 1 hour, too long for a
// test on the real clock; it is tested on the fake clock (test/modules/surveys/surveys-link.test.ts).
// Then the form in a real headless Chromium that may reach nothing but the server: found by its roles
// and labels, answered with the keyboard and mouse, with no Content-Security-Policy violation.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { run, startServer, type RunningServer } from '../helpers/process.ts'
import { CA_FILE, startReceiver } from '../helpers/receiver.ts'
import { eventually } from '../helpers/wait.ts'

const folder = tempDir('switchboard-surveys-')
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const PASSWORD = 'surveys-test-password'

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

const CHROMIUM =
  Bun.which('chromium') ?? Bun.which('chromium-browser') ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)

/** The binary serving, with the admin signed in: `call` the API as the admin. */
async function serve(env: Record<string, string>) {
  const server = await startServer([await compiledBinary()], env, folder)
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.ADMIN_EMAIL, password: PASSWORD }),
  })
  const token = ((await login.json()) as { access_token: string }).access_token
  const call = async (method: string, path: string, body?: unknown, status = 200): Promise<Json> => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    expect({ path, status: response.status, text }).toMatchObject({ path, status })
    return text ? (JSON.parse(text) as Json) : {}
  }
  return { server, call }
}

test('an automatic offer answered through its link, as a browser does, with its events delivered', async () => {
  const binary = await compiledBinary()
  const receiver = await startReceiver()
  const env = {
    DATA_DIR: join(folder, 'data'),
    ADMIN_EMAIL: 'admin@surveys.test',
    ADMIN_PASSWORD: PASSWORD,
    NODE_EXTRA_CA_CERTS: CA_FILE,
    SURVEY_EXPIRY_HOURS: '1',
    ENGAGEMENT_INTERVAL: '1',
    CRON_TICK_MS: '100',
  }
  const started = await serve(env)
  let server: RunningServer | undefined = started.server
  const { call } = started
  try {
    const base = server.url
    const orgId = (await call('GET', '/me')).organization_id as string
    const allowed = await run([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], { DATA_DIR: env.DATA_DIR }, folder)
    expect(allowed.code).toBe(0)
    await call('POST', '/webhooks', { url: receiver.url(), events: ['survey.*'], secret: 'surveys-test-secret' }, 201)
    await call('PATCH', '/surveys/settings', { on_ticket_solved: ['csat'] })

    const ticket = await call('POST', '/tickets', { subject: 'Refund', channel: 'web' }, 201)
    await call('PATCH', `/tickets/${ticket.id}`, { status: 'solved' })
    const [offer] = (await call('GET', `/survey-responses?subject_id=${ticket.id}`)).survey_responses as Json[]
    expect(offer).toMatchObject({ survey_type: 'csat', subject_type: 'ticket', status: 'offered', channel: 'web' })
    const { url } = await call('POST', `/surveys/${offer!.id}/link`)
    const path = new URL(url as string).pathname

    const form = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } })
    expect(form.status).toBe(200)
    expect(form.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await form.text()).toContain('<input type="radio" id="score-5" name="score" value="5" required>')
    // Rate-limited per address like any public route: the headers say so.
    expect(form.headers.get('x-ratelimit-limit')).not.toBeNull()

    const post = (score: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: new URLSearchParams({ score, comment: 'Fast refund, thanks!' }).toString(),
      })
    const thanks = await post('5')
    expect(thanks.status).toBe(200)
    expect(await thanks.text()).toContain('<h1>Thank you</h1>')
    expect((await post('4')).status).toBe(200)

    const events = await eventually('both survey events to be delivered', async () => {
      const found = receiver.received.map((r) => JSON.parse(r.body) as Json).filter((e) => e.type.startsWith('survey.'))
      return found.length >= 2 ? found : undefined
    })
    expect(events.map((e) => [e.type, e.data.response.score])).toEqual([
      ['survey.response.completed', 5],
      ['survey.response.updated', 4],
    ])
    expect(events[1]!.data.response).toMatchObject({ id: offer!.id, status: 'responded', comment: 'Fast refund, thanks!' })

    const finished = await server.stop('SIGTERM')
    server = undefined
    expect(finished.code).toBe(0)
  } finally {
    await server?.stop('SIGTERM')
    receiver.stop()
  }
}, 180_000)

describe.skipIf(!CHROMIUM)('the form in headless Chromium, offline', () => {
  test('found by roles and labels, answered, thanked; no CSP violation, no request elsewhere', async () => {
    const env = {
      DATA_DIR: join(folder, 'browser'),
      ADMIN_EMAIL: 'admin@surveys.test',
      ADMIN_PASSWORD: PASSWORD,
      RATE_LIMITS_ENABLED: 'false',
    }
    const { server, call } = await serve(env)
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    try {
      const ticket = await call('POST', '/tickets', { subject: 'Login trouble' }, 201)
      const { response, url } = await call(
        'POST',
        '/surveys',
        { survey_type: 'ces', subject_type: 'ticket', subject_id: ticket.id, questions: ['What took longest?'] },
        201,
      )
      const context = await browser.newContext()
      const refused: string[] = []
      const origin = new URL(server.url).origin
      await context.route('**/*', (route) => {
        if (new URL(route.request().url()).origin === origin) return route.continue()
        refused.push(route.request().url())
        return route.abort('internetdisconnected')
      })
      const page = await context.newPage()
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text())
      })
      await page.goto(`${server.url}${new URL(url as string).pathname}`)
      const group = page.getByRole('group', { name: /How easy was it to get your issue resolved/ })
      expect(await group.getByRole('radio').count()).toBe(7)
      // The stylesheet applied (allowed by its hash): the scale is a flex row.
      expect(
        await page
          .locator('.scale')
          .evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }).getComputedStyle(el).display),
      ).toBe('flex')
      // Submitting without a score is stopped by the browser (the radios are required).
      await page.getByRole('button', { name: 'Send' }).click()
      expect(await page.getByRole('heading', { name: 'Your feedback' }).isVisible()).toBe(true)
      await group.getByRole('radio', { name: '6' }).check()
      await page.getByLabel('What took longest?').fill('Finding the reset link')
      await page.getByLabel(/Anything you would like to add/).fill('Otherwise smooth.')
      await page.getByRole('button', { name: 'Send' }).click()
      await page.getByRole('heading', { name: 'Thank you' }).waitFor()
      expect(await call('GET', `/survey-responses/${response.id}`)).toMatchObject({
        status: 'responded',
        score: 6,
        comment: 'Otherwise smooth.',
        answers: ['Finding the reset link'],
      })
      expect(problems).toEqual([])
      expect(refused).toEqual([])
    } finally {
      await browser.close()
      await server.stop('SIGTERM')
    }
  }, 120_000)
})
