// Refreshes the dashboard's screenshots in docs/images/dashboard/: builds the binary, starts it on a
// throwaway embedded database, fills it with a small demo organization through the API, signs in in
// headless Chromium and photographs every screen (light, 1280×800), plus the tickets list in dark and
// at 360 px wide. Usage: bun run dashboard:screenshots (needs Debian's `chromium`).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { buildBinary } from './build.ts'

const ROOT = join(import.meta.dir, '..')
export const SHOTS = join(ROOT, 'docs/images/dashboard')
const ADMIN = { email: 'ada@example.com', password: 'demo-password-123', name: 'Ada Admin' }

/** The screens photographed: file name, dashboard path, and what to wait for before the picture. */
export const SCREENSHOTS: { file: string; path: string; ready: string; colorScheme?: 'dark'; width?: number }[] = [
  { file: 'tickets.png', path: '/tickets', ready: 'Printer on fire' },
  { file: 'ticket.png', path: '/tickets/{ticket}', ready: 'Printer on fire' },
  { file: 'contacts.png', path: '/contacts', ready: 'Grace Hopper' },
  { file: 'reports.png', path: '/reports', ready: 'Reports' },
  { file: 'live.png', path: '/live', ready: 'Live' },
  { file: 'webhooks.png', path: '/webhooks', ready: 'hooks.example.com' },
  { file: 'users.png', path: '/users', ready: 'Sam Supervisor' },
  { file: 'api-keys.png', path: '/api-keys', ready: 'CI deploys' },
  { file: 'security.png', path: '/security', ready: 'Security' },
  { file: 'audit.png', path: '/audit', ready: 'Audit log' },
  { file: 'tickets-dark.png', path: '/tickets', ready: 'Printer on fire', colorScheme: 'dark' },
  { file: 'tickets-phone.png', path: '/tickets', ready: 'Printer on fire', width: 360 },
]

async function call(
  base: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>)
}

/** A small, believable organization: users of each role, contacts, tickets in every state, a webhook, a key. */
async function seed(base: string): Promise<{ ticket: string }> {
  const login = await call(base, 'POST', '/api/v1/auth/login', undefined, { email: ADMIN.email, password: ADMIN.password })
  const token = login.access_token as string
  const people = [
    ['Sam Supervisor', 'sam@example.com', 'supervisor'],
    ['Alex Agent', 'alex@example.com', 'agent'],
    ['Robin Agent', 'robin@example.com', 'agent'],
    ['Vic Viewer', 'vic@example.com', 'viewer'],
  ]
  const ids: string[] = []
  for (const [name, email, role] of people)
    ids.push((await call(base, 'POST', '/api/v1/users', token, { name, email, role, password: ADMIN.password })).id as string)
  for (const [name, email] of [
    ['Grace Hopper', 'grace@navy.example'],
    ['Alan Turing', 'alan@bletchley.example'],
    ['Katherine Johnson', 'katherine@nasa.example'],
  ])
    await call(base, 'POST', '/api/v1/contacts', token, { name, email })
  const subjects = [
    'Printer on fire',
    'Cannot log in after password reset',
    'Invoice shows the wrong VAT',
    'Call dropped twice',
    'Feature request: dark mode',
  ]
  let first = ''
  for (const [i, subject] of subjects.entries()) {
    const ticket = await call(base, 'POST', '/api/v1/tickets', token, {
      subject,
      description: `${subject}. Reported by phone.`,
      priority: ['urgent', 'high', 'normal', 'low', 'normal'][i],
    })
    first ||= ticket.id as string
    if (i % 2 === 0) await call(base, 'POST', `/api/v1/tickets/${ticket.id}/comments`, token, { body: 'Looking into it now.' })
  }
  await call(base, 'POST', '/api/v1/webhooks', token, {
    url: 'https://hooks.example.com/switchboard',
    events: ['ticket.*'],
    secret: 'demo-secret-demo-secret',
  })
  await call(base, 'POST', '/api/v1/api-keys', token, {
    name: 'CI deploys',
    expires_at: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    permissions: ['ticket:read'],
  })
  return { ticket: first }
}

async function photograph(page: Page, base: string, shot: (typeof SCREENSHOTS)[number], ticket: string): Promise<void> {
  await page.setViewportSize({ width: shot.width ?? 1280, height: 800 })
  await page.emulateMedia({ colorScheme: shot.colorScheme ?? 'light' })
  await page.goto(`${base}/app${shot.path.replace('{ticket}', ticket)}`)
  await page.getByText(shot.ready).first().waitFor({ timeout: 20_000 })
  // Not 'networkidle': the Live screen keeps its event stream open. Let the other reads land.
  await page.waitForTimeout(1500)
  await page.screenshot({ path: join(SHOTS, shot.file) })
}

if (import.meta.main) {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-shots-'))
  const binary = join(folder, 'switchboard')
  await buildBinary(binary)
  const port = 20000 + Math.floor(Math.random() * 20000)
  const base = `http://127.0.0.1:${port}`
  const server = Bun.spawn([binary, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(folder, 'data'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      REPORTS_FOLD_INTERVAL: '1',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  try {
    for (let i = 0; i < 200; i++) {
      if (
        await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break
      await Bun.sleep(100)
    }
    const { ticket } = await seed(base)
    const browser = await chromium.launch({ executablePath: Bun.which('chromium') ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
    const page = await browser.newPage()
    await page.goto(`${base}/app/`)
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 20_000 })
    mkdirSync(SHOTS, { recursive: true })
    for (const shot of SCREENSHOTS) await photograph(page, base, shot, ticket)
    await browser.close()
    console.log(`wrote ${SCREENSHOTS.length} screenshots to ${SHOTS}`)
  } finally {
    server.kill()
    await server.exited
    rmSync(folder, { recursive: true, force: true })
  }
}
