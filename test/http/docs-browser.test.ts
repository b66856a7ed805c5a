// /docs on the compiled binary with no network: the page and Scalar's bundle come from the binary, and a
// real headless Chromium that may reach nothing but the server renders the operations and their bodies.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import scalarPackage from '../../node_modules/@scalar/api-reference/package.json' with { type: 'json' }
import { tempDir } from '../helpers/app.ts'
import { CHROMIUM, offlineContext } from '../helpers/offline-browser.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { ROOT, type RunningServer, startServer } from '../helpers/process.ts'

const SCALAR_BUNDLE = join(ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js')
const ASSET = `/docs/assets/scalar-${scalarPackage.version}.js`
// CI must run the browser test: .ci/run installs Debian's chromium when it is missing.
const IN_CI = process.env.CI === 'true'
if (!CHROMIUM && !IN_CI) console.warn('docs-browser.test.ts: skipping the Chromium tests: no `chromium` on PATH (apt-get install chromium)')

const dataDir = tempDir('switchboard-docs-')
let server: RunningServer
beforeAll(async () => {
  server = await startServer([await compiledBinary(), 'serve'], { DATA_DIR: dataDir }, dataDir)
}, 120_000)
afterAll(async () => {
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The Scalar configuration the page hands over in its data-configuration attribute. */
function configurationOf(html: string): Record<string, unknown> {
  const attribute = /data-configuration="([^"]*)"/.exec(html)?.[1]
  expect(attribute).toBeDefined()
  const text = attribute!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
  return JSON.parse(text) as Record<string, unknown>
}

describe('GET /docs on the compiled binary', () => {
  test('/docs and /docs/ serve the same page: Scalar from the binary, the document by absolute path, no URL of any other host', async () => {
    const [plain, slash] = await Promise.all([fetch(`${server.url}/docs`), fetch(`${server.url}/docs/`)])
    expect([plain.status, slash.status]).toEqual([200, 200])
    expect(plain.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await plain.text()
    expect(await slash.text()).toBe(html)
    expect(html).toContain(`<script src="${ASSET}"></script>`)
    expect(configurationOf(html)).toMatchObject({ url: '/openapi.json', withDefaultFonts: false, telemetry: false })
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i)
  })

  test('the page may run only its own scripts (Content-Security-Policy)', async () => {
    const policy = (await fetch(`${server.url}/docs`)).headers.get('content-security-policy') ?? ''
    const directives = Object.fromEntries(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    )
    expect(directives['default-src']).toEqual(["'none'"])
    expect(directives['script-src']).toEqual(["'self'"])
    expect(directives['connect-src']).toContain("'self'")
    expect(directives['frame-ancestors']).toEqual(["'none'"])
  })

  test('the bundle is the pinned package file, cached for a year, gzipped when the client accepts it', async () => {
    const original = await Bun.file(SCALAR_BUNDLE).bytes()
    const identity = await fetch(`${server.url}${ASSET}`, { headers: { 'accept-encoding': 'identity' } })
    expect(identity.status).toBe(200)
    expect(identity.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(identity.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(identity.headers.get('content-encoding')).toBeNull()
    expect(Buffer.from(await identity.bytes()).equals(Buffer.from(original))).toBe(true)

    const gzipped = await fetch(`${server.url}${ASSET}`, { headers: { 'accept-encoding': 'gzip, deflate' }, decompress: false })
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    const compressed = new Uint8Array(await gzipped.arrayBuffer())
    expect(compressed.length).toBeLessThan(original.length / 2)
    expect(Buffer.from(Bun.gunzipSync(compressed)).equals(Buffer.from(original))).toBe(true)
  })
})

if (!CHROMIUM && IN_CI) {
  test('Chromium is installed (CI=true: the browser test must run)', () => {
    throw new Error('no `chromium` on PATH: .ci/run installs it with apt-get install chromium')
  })
}

describe.skipIf(!CHROMIUM)('/docs in headless Chromium, offline', () => {
  let browser: Browser
  let context: BrowserContext
  /** Every request the page tried to send anywhere but the server: refused, and listed here. */
  const refused: string[] = []
  const problems: string[] = []

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    // Zod (inside Scalar) probes for eval with `Function('')` and, refused, validates without it.
    context = await offlineContext(browser, new URL(server.url).origin, refused, ['eval'])
  }, 60_000)
  afterAll(() => browser?.close())

  async function open(path: string): Promise<Page> {
    const page = await context.newPage()
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${path}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`${path}: ${error.message}`))
    await page.goto(`${server.url}${path}`)
    return page
  }

  /** The text of one operation's section, once Scalar has rendered it. */
  async function operationText(page: Page, tag: string, method: string, path: string, summary: string): Promise<string> {
    const section = page.locator(`[id$="tag/${tag}/${method}${path}"]`).first()
    await section.getByText(summary).first().waitFor({ timeout: 20_000 })
    // biome-ignore lint/performance/useDomNodeTextContent: what a person sees rendered, not the DOM's text
    return section.innerText()
  }

  for (const path of ['/docs', '/docs/']) {
    test(`${path} renders the reference: the first tag's operations, the others' once opened`, async () => {
      const page = await open(path)
      expect(await operationText(page, 'system', 'GET', '/health', 'Liveness and cron loop state')).toContain('/health')
      await page.getByRole('button', { name: 'Tickets' }).first().click()
      await page.getByText('Create a ticket').first().waitFor({ timeout: 20_000 })
      await page.getByRole('button', { name: 'Auth' }).first().click()
      await page.getByText('Sign in with e-mail and password').first().waitFor({ timeout: 20_000 })
      if (path === '/docs') await page.screenshot({ path: '/tmp/docs.png' })
      await page.close()
      expect(refused).toEqual([])
      expect(problems).toEqual([])
    }, 60_000)
  }

  test('an operation with a request body shows its fields (login: email and password; create ticket: subject)', async () => {
    const page = await open('/docs#tag/auth/POST/api/v1/auth/login')
    const login = await operationText(page, 'auth', 'POST', '/api/v1/auth/login', 'Sign in with e-mail and password')
    expect(bodyFields(login), 'the fields under Body of the login operation').toEqual(expect.arrayContaining(['email', 'password']))
    await page.goto(`${server.url}/docs#tag/tickets/POST/api/v1/tickets`)
    const create = await operationText(page, 'tickets', 'POST', '/api/v1/tickets', 'Create a ticket')
    expect(bodyFields(create), 'the fields under Body of create ticket').toContain('subject')
    await page.close()
    expect(refused).toEqual([])
    expect(problems).toEqual([])
  }, 60_000)
})

/** The lines of an operation's text between its "Body" heading and its "Responses": the body's fields. */
function bodyFields(text: string): string[] {
  const lines = text.split('\n').map((line) => line.trim())
  const start = lines.indexOf('Body')
  const end = lines.indexOf('Responses')
  return start >= 0 && end > start ? lines.slice(start + 1, end) : []
}
