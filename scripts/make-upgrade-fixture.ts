// Makes the fixture of test/db/upgrade.test.ts: `bun scripts/make-upgrade-fixture.ts <binary> <out-dir>`. It starts <binary>
// (any Switchboard version) on a temporary DATA_DIR and a free loopback port and fills it as users would, over HTTP and
// the README's operator commands: users of every role, tickets with tags, assignees, comments and status changes, a personal
// access token, TOTP and a pending SMS factor, a webhook whose receiver never answers (failed attempts, pending retries),
// a disabled one, a second organization, refresh, logout, failed login (the audit log fills itself). It stops the server with
// SIGTERM and writes switchboard.db, master.key and facts.json (credentials, ids, each table's row count) into <out-dir>.
import { Database } from 'bun:sqlite'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as OTPAuth from 'otpauth'

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, many shapes, read field by field
type Json = any
if (Bun.argv.length !== 4) throw new Error('usage: bun scripts/make-upgrade-fixture.ts <binary> <out-dir>')
const [binary, out] = Bun.argv.slice(2).map((arg) => resolve(arg)) as [string, string]
const work = mkdtempSync(join(tmpdir(), 'switchboard-fixture-'))
const dataDir = join(work, 'data')
const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }

// Fixed credentials: `${role}@fixture.example` / `fixture-${role}-password`; the bootstrap Super Admin is `owner`.
function person(role: string, name: string, domain = 'fixture.example') {
  return { email: `${role}@${domain}`, password: `fixture-${role}-password`, role: role === 'owner' ? 'super_admin' : role, name }
}
const OWNER = person('owner', 'Olivia Owner')
const PEOPLE = [person('admin', 'Ada'), person('supervisor', 'Sam'), person('agent', 'Alex'), person('viewer', 'Vic')]
const O2 = person('owner', 'Olga', 'second.example')
// Port 1 on loopback: nothing listens there, so every attempt fails at once with a connection error.
const HOOK_URL = 'https://127.0.0.1:1/switchboard-events'

function cli(command: string): Json {
  const done = Bun.spawnSync([binary, ...command.split(' ')], { env, stdout: 'pipe', stderr: 'pipe' })
  if (done.exitCode !== 0) throw new Error(`switchboard ${command}: exit ${done.exitCode}: ${done.stderr}${done.stdout}`)
  const text = done.stdout.toString().trim()
  return text.startsWith('{') ? JSON.parse(text) : text
}

const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
const port = probe.port
probe.stop(true)
const base = `http://127.0.0.1:${port}`
const logFile = join(work, 'server.log')
const server = Bun.spawn([binary, 'serve'], {
  env: { ...env, HOST: '127.0.0.1', PORT: String(port), ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password },
  stdout: Bun.file(logFile),
  stderr: Bun.file(`${logFile}.err`),
})

/** One API call; `token` is an access token or a personal access token; throws unless the status is `ok` (or any 2xx). */
async function api(method: string, path: string, { token, body, ok }: { token?: string; body?: unknown; ok?: number } = {}): Promise<Json> {
  const headers = { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) }
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (ok ? res.status !== ok : !res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return text === '' ? undefined : JSON.parse(text)
}
const login = (who: { email: string; password: string }) => api('POST', '/api/v1/auth/login', { body: who })

try {
  for (let i = 0; !(await fetch(`${base}/health`).catch(() => undefined))?.ok; i++) {
    if (server.exitCode !== null || i > 300) throw new Error(`server did not start (exit code ${server.exitCode})`)
    await Bun.sleep(50)
  }
  const version: string = (await api('GET', '/health')).version
  const signedIn = await login(OWNER)
  const orgId: string = signedIn.user.organization_id
  const ids: Record<string, string> = { super_admin: signedIn.user.id }
  const tokens: Json = { super_admin: signedIn.access_token }
  for (const p of PEOPLE) {
    ids[p.role] = (await api('POST', '/api/v1/users', { token: tokens.super_admin, body: p, ok: 201 })).id
    tokens[p.role] = (await login(p)).access_token
  }
  const { super_admin: sa, admin: ad, supervisor: sv, agent: ag, viewer: vw } = tokens

  // Operator commands beside the running server, as the README documents them.
  cli(`org webhook-cidrs ${orgId} --set 127.0.0.0/8`)
  const org2 = cli('org create --name Second --plan starter')
  const org2Owner = cli(`user create --org ${org2.id} --email ${O2.email} --password ${O2.password} --role super_admin --name ${O2.name}`)
  cli(`org set-plan ${org2.id} professional`)
  cli('keys rotate')

  // Webhooks: one subscribed to every ticket event, one disabled by hand (its events are recorded as skipped).
  const hookBody = { url: HOOK_URL, events: ['ticket.*'], secret: 'fixture-webhook-secret-0123456789', description: 'Helpdesk sync' }
  const hook = await api('POST', '/api/v1/webhooks', { token: ad, body: hookBody, ok: 201 })
  const pausedBody = { ...hookBody, events: ['ticket.created', 'user.*'], description: 'Paused' }
  const paused = await api('POST', '/api/v1/webhooks', { token: ad, body: pausedBody, ok: 201 })
  await api('PATCH', `/api/v1/webhooks/${paused.id}`, { token: ad, body: { enabled: false } })
  await api('POST', `/api/v1/webhooks/${hook.id}/test`, { token: ad, body: { event_type: 'ticket.created' } })

  // Tickets: tags, assignees, public and private comments, the lifecycle (solved, reopened, pending).
  const tickets: Json[] = []
  async function ticket(token: string, body: object, steps: (id: string) => Promise<unknown> = async () => {}) {
    const { id } = await api('POST', '/api/v1/tickets', { token, body, ok: 201 })
    await steps(id)
    const t = await api('GET', `/api/v1/tickets/${id}`, { token })
    const { comments } = await api('GET', `/api/v1/tickets/${id}/comments`, { token })
    tickets.push({ id, number: t.number, status: t.status, tags: t.tags, comment_ids: comments.map((c: Json) => c.id) })
  }
  const comment = (token: string, id: string, body: object) => api('POST', `/api/v1/tickets/${id}/comments`, { token, body, ok: 201 })
  const patch = (token: string, id: string, body: object) => api('PATCH', `/api/v1/tickets/${id}`, { token, body })
  const requester = { name: 'Grace Customer', email: 'grace@customer.example' }
  const printer = { subject: 'Printer out of toner', description: 'Blank pages.', priority: 'high', type: 'incident', channel: 'email' }
  const printerTicket = { ...printer, requester, tags: ['hardware', 'floor-3'], custom_fields: { floor: 3 }, assignee_id: ids.agent }
  await ticket(sa, printerTicket, async (id) => {
    await comment(ag, id, { body: 'A new cartridge is on its way.' })
    await comment(sv, id, { body: 'Vendor SLA is two days.', public: false })
    await patch(ag, id, { status: 'open' })
    await patch(ag, id, { status: 'solved' })
  })
  const billing = { subject: 'Cannot sign in to billing', priority: 'urgent', type: 'problem', tags: ['billing', 'login'] }
  await ticket(sv, billing, async (id) => {
    await api('POST', `/api/v1/tickets/${id}/assign`, { token: sv, body: { assignee_id: ids.agent } })
    await patch(ag, id, { status: 'pending', tags: ['billing', 'login', 'waiting-on-customer'] })
    await comment(ag, id, { body: 'Asked for a screenshot.' })
  })
  await ticket(ag, { subject: 'How do I export reports?', type: 'question', channel: 'chat', status: 'open' })
  await ticket(sa, { subject: 'VPN drops every hour', tags: ['network'], requester }, async (id) => {
    await patch(sa, id, { status: 'solved' })
    await patch(sa, id, { status: 'open' })
    await comment(sa, id, { body: 'Reopened: it happened again.' })
  })
  const orgTickets = tickets.splice(0)
  const o2Token = (await login(O2)).access_token
  await ticket(o2Token, { subject: 'Second organization ticket', tags: ['vip'] }, (id) => comment(o2Token, id, { body: 'Ours only.' }))

  // A personal access token of the admin (narrowed), used once; one year ahead is the longest allowed.
  const expiresAt = new Date(Date.now() + 364 * 86_400_000).toISOString()
  const patBody = { name: 'Fixture export', expires_at: expiresAt, permissions: ['ticket:read', 'webhook:read'] }
  const pat = await api('POST', '/api/v1/api-keys', { token: ad, body: patBody, ok: 201 })
  await api('GET', '/api/v1/tickets', { token: pat.token })

  // TOTP for the agent: enroll, then a sign-in through MFA (with the next step's code: the enrolling one is spent).
  const enrolled = await api('POST', '/api/v1/auth/mfa/totp', { token: ag })
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.secret), algorithm: 'SHA1', digits: 6, period: 30 })
  const confirmed = await api('POST', '/api/v1/auth/mfa/totp/confirm', { token: ag, body: { code: totp.generate() } })
  const { mfa_token } = await login(PEOPLE.find((p) => p.role === 'agent')!)
  const verifyBody = { mfa_token, code: totp.generate({ timestamp: Date.now() + 30_000 }), method: 'totp' }
  const mfaSession = await api('POST', '/api/v1/auth/mfa/verify', { body: verifyBody })
  await api('POST', '/api/v1/auth/refresh', { body: { refresh_token: mfaSession.refresh_token } })
  // A pending SMS enrollment (SMS_PROVIDER=log writes the code to the log; it is never confirmed).
  await api('POST', '/api/v1/auth/mfa/sms', { token: vw, body: { phone: '+4915112345678' }, ok: 202 })
  await api('POST', '/api/v1/auth/login', { body: { email: 'nobody@fixture.example', password: 'not-a-user-password' }, ok: 401 })
  await api('POST', '/api/v1/auth/logout', { token: ad, ok: 204 })

  // Let attempt 1 of every delivery fail (the retries stay pending, due a minute later).
  for (let i = 0; i < 100; i++) {
    const { deliveries } = await api('GET', `/api/v1/webhooks/${hook.id}/deliveries?page_size=100`, { token: sa })
    if (!deliveries.some((d: Json) => d.attempt === 1 && d.status === 'pending')) break
    await Bun.sleep(100)
  }

  server.kill('SIGTERM')
  if ((await server.exited) !== 0) throw new Error(`server exited with ${server.exitCode}`)
  const wal = join(dataDir, 'switchboard.db-wal')
  if (existsSync(wal) && statSync(wal).size > 0) throw new Error('the WAL was not checkpointed at shutdown')
  mkdirSync(out, { recursive: true })
  for (const file of ['switchboard.db', 'master.key']) copyFileSync(join(dataDir, file), join(out, file))
  writeFileSync(join(out, '.gitignore'), '# committed, though the root .gitignore ignores *.db\n!switchboard.db\n')

  const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true })
  const all = (sql: string) => db.query(sql).all() as Json[]
  const names = all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => r.name as string)
  const tables = Object.fromEntries(names.map((name) => [name, all(`SELECT count(*) AS n FROM "${name}"`)[0].n]))
  const facts = {
    made_by: { version, binary, at: new Date().toISOString(), script: 'scripts/make-upgrade-fixture.ts' },
    organization_id: orgId,
    users: Object.fromEntries([OWNER, ...PEOPLE].map((p) => [p.role, { id: ids[p.role], ...p }])),
    second_organization: { id: org2.id, owner: { id: org2Owner.id, ...O2 }, ticket: tickets[0] },
    totp: { user: 'agent', secret: enrolled.secret, recovery_codes: confirmed.recovery_codes },
    sms_pending: { user: 'viewer', phone: '+4915112345678' },
    pat: { id: pat.id, owner: 'admin', token: pat.token, permissions: pat.permissions, expires_at: pat.expires_at },
    webhook: { id: hook.id, url: HOOK_URL, events: hook.events },
    paused_webhook: { id: paused.id, url: HOOK_URL, events: paused.events, enabled: false },
    tickets: orgTickets,
    schema_migrations: all('SELECT tag FROM schema_migrations ORDER BY tag').map((r) => r.tag),
    tables,
  }
  db.close()
  writeFileSync(join(out, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`)
  console.log(`wrote ${out}: ${names.length} tables, ${Object.values(tables).reduce((a, b) => a + b, 0)} rows`)
} catch (error) {
  server.kill('SIGKILL')
  for (const file of [logFile, `${logFile}.err`]) if (existsSync(file)) console.error(await Bun.file(file).text())
  throw error
} finally {
  rmSync(work, { recursive: true, force: true })
}
