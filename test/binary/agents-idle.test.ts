// The idle logout on the compiled binary and the real clock, with the shortest setting
// (AGENT_IDLE_TIMEOUT=3): two agents log in; one stays idle and is logged out by the binary's own cron
// loop (agent.logged_out, reason idle, delivered to a real HTTPS receiver), the other keeps making
// requests (not to the agents routes) for well past the timeout and stays in. Prints how long after its
// last request the idle agent was logged out. A few seconds.
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { run, startServer, type RunningServer } from '../helpers/process.ts'
import { CA_FILE, startReceiver } from '../helpers/receiver.ts'
import { eventually } from '../helpers/wait.ts'

const folder = tempDir('switchboard-agents-idle-')
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const TIMEOUT_S = 3
const PASSWORD = 'agents-idle-test-password'

// biome-ignore lint/suspicious/noExplicitAny: response bodies of many shapes, read field by field
type Json = Record<string, any>

test('the idle agent is logged out on time, with its event delivered; the busy one stays in', async () => {
  const binary = await compiledBinary()
  const receiver = await startReceiver()
  const env = {
    DATA_DIR: join(folder, 'data'),
    ADMIN_EMAIL: 'admin@agents-idle.test',
    ADMIN_PASSWORD: PASSWORD,
    NODE_EXTRA_CA_CERTS: CA_FILE,
    AGENT_IDLE_TIMEOUT: String(TIMEOUT_S),
    CRON_TICK_MS: '100',
    RATE_LIMITS_ENABLED: 'false',
  }
  let server: RunningServer | undefined = await startServer([binary], env, folder)
  try {
    const base = server.url
    const call = async (token: string, method: string, path: string, body?: unknown, status = 200): Promise<Json> => {
      const response = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      expect({ path, status: response.status, text }).toMatchObject({ path, status })
      return text ? (JSON.parse(text) as Json) : {}
    }
    const signIn = async (email: string): Promise<string> => {
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Softphone/2.1' },
        body: JSON.stringify({ email, password: PASSWORD }),
      })
      expect(response.status).toBe(200)
      return ((await response.json()) as { access_token: string }).access_token
    }
    const admin = await signIn(env.ADMIN_EMAIL)
    const orgId = (await call(admin, 'GET', '/me')).organization_id as string
    const allowed = await run([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], { DATA_DIR: env.DATA_DIR }, folder)
    expect(allowed.code).toBe(0)
    await call(admin, 'POST', '/webhooks', { url: receiver.url(), events: ['agent.*'], secret: 'agents-idle-test-secret' }, 201)
    const ids: string[] = []
    for (const name of ['idle', 'busy'])
      ids.push(
        (await call(admin, 'POST', '/users', { email: `${name}@agents-idle.test`, name, role: 'agent', password: PASSWORD }, 201)).id,
      )
    const [idleId, busyId] = ids as [string, string]
    const idle = await signIn('idle@agents-idle.test')
    const busy = await signIn('busy@agents-idle.test')

    // The server sees the request between these two instants: the timeout runs from then.
    const lastRequestSentAt = Date.now()
    const loggedIn = (await call(idle, 'POST', '/agents/me/login')).session as Json
    const lastRequestAt = Date.now()
    await call(busy, 'POST', '/agents/me/login')
    expect(loggedIn).toMatchObject({ ip: '127.0.0.1', logout_at: null })

    // The busy agent keeps working (tickets, not the agents routes) for twice the timeout.
    const deadline = Date.now() + 2 * TIMEOUT_S * 1000
    let requests = 0
    while (Date.now() < deadline) {
      await call(busy, 'GET', '/tickets')
      requests++
      await Bun.sleep(250)
    }

    const event = await eventually('the idle logout to be delivered', async () => {
      const found = receiver.received.map((r) => JSON.parse(r.body) as Json).find((e) => e.type === 'agent.logged_out')
      return found
    })
    const loggedOutAfterMs = Date.parse(event.created_at as string) - lastRequestAt
    console.log(
      `agents-idle: AGENT_IDLE_TIMEOUT=${TIMEOUT_S}s; idle agent logged out ${loggedOutAfterMs} ms after its last request; ${requests} requests kept the other in`,
    )
    expect(event.data).toMatchObject({
      agent: { id: idleId, status: 'offline', status_reason: 'idle', session_id: null },
      reason: 'idle',
      session: { id: loggedIn.id, logout_reason: 'idle', ip: '127.0.0.1' },
    })
    // Not before the timeout (counted from when the request was sent: the server saw it no earlier; from
    // the answer, a loaded machine's latency once made it 2,990 ms), and within it plus the check
    // interval (a quarter of it) and a margin.
    expect(Date.parse(event.created_at as string) - lastRequestSentAt).toBeGreaterThanOrEqual(TIMEOUT_S * 1000)
    expect(loggedOutAfterMs).toBeLessThan(TIMEOUT_S * 1000 + 750 + 1500)

    const agents = (await call(admin, 'GET', '/agents?page_size=100')).agents as Json[]
    const byId = new Map(agents.map((a) => [a.id as string, a]))
    expect(byId.get(idleId)).toMatchObject({ status: 'offline', status_reason: 'idle' })
    // Needs the auth module to write a session's last use at least every quarter of the timeout
    // (lastSeenIntervalMs), not once a minute: otherwise the working agent looks idle too.
    expect(byId.get(busyId), 'the agent that kept making requests').toMatchObject({ status: 'available', session_id: expect.any(String) })
    const events = receiver.received.map((r) => JSON.parse(r.body) as Json)
    expect(events.filter((e) => e.type === 'agent.logged_out').map((e) => e.data.agent.id)).toEqual([idleId])
    expect(events.filter((e) => e.data.reason === 'idle').map((e) => e.type)).toEqual(['agent.logged_out', 'agent.status_changed'])

    const finished = await server.stop('SIGTERM')
    server = undefined
    expect(finished.code).toBe(0)
  } finally {
    await server?.stop('SIGTERM')
    receiver.stop()
  }
}, 120_000)
