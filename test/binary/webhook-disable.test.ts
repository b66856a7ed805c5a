// The webhook disabling rule on the compiled binary and the real clock (a fake clock hid it once: it
// never moved between queueing and sending): a real HTTPS receiver that always answers 500 gets the
// six attempts of WEBHOOK_RETRY_SCHEDULE=0,1,1,1,1,1, then the webhook is disabled (audit log and
// server log), later events are recorded as skipped, and after a fix PATCH enabled + recover sends
// them. The receiver listens on loopback, admitted for this organization by `org webhook-cidrs`.
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { compiledBinary } from '../helpers/binary.ts'
import { tempDir } from '../helpers/app.ts'
import { eventually } from '../helpers/wait.ts'
import { run, startServer, type RunningServer } from '../helpers/process.ts'
import { CA_FILE, startReceiver } from '../helpers/receiver.ts'

const folder = tempDir('switchboard-webhook-disable-')
afterAll(() => rmSync(folder, { recursive: true, force: true }))

test('always 500: disabled after the 6th attempt, in the audit log and the log; later events skipped; enable + recover sends them', async () => {
  const binary = await compiledBinary()
  let up = false
  const receiver = await startReceiver(() => ({ status: up ? 200 : 500, body: up ? 'ok' : 'boom' }))
  const env = {
    DATA_DIR: join(folder, 'data'),
    ADMIN_EMAIL: 'admin@disable.test',
    ADMIN_PASSWORD: 'disable-test-password',
    NODE_EXTRA_CA_CERTS: CA_FILE,
    WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1',
    WEBHOOK_TIMEOUT_MS: '2000',
    CRON_TICK_MS: '100',
    RATE_LIMITS_ENABLED: 'false',
  }
  let server: RunningServer | undefined = await startServer([binary], env, folder)
  try {
    const base = server.url
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    })
    const auth = {
      authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
      'content-type': 'application/json',
    }
    const api = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
      const response = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: auth,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect({ path, status: response.status }).toEqual({ path, status })
      return (await response.json()) as T
    }
    const orgId = (await api<{ organization_id: string }>('GET', '/me')).organization_id

    // Loopback is not public: refused until the operator allows it for this organization, with the server running.
    const refused = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: receiver.url(), events: ['ticket.*'], secret: 'disable-test-secret' }),
    })
    expect(refused.status).toBe(400)
    const allowed = await run([binary, 'org', 'webhook-cidrs', orgId, '--set', '127.0.0.0/8'], { DATA_DIR: env.DATA_DIR }, folder)
    expect(allowed).toEqual({
      code: 0,
      stdout: JSON.stringify({ organization_id: orgId, webhook_allowed_cidrs: ['127.0.0.0/8'] }) + '\n',
      stderr: '',
    })

    const since = new Date(Date.now() - 1000).toISOString()
    const hook = await api<{ id: string }>(
      'POST',
      '/webhooks',
      { url: receiver.url(), events: ['ticket.*'], secret: 'disable-test-secret' },
      201,
    )
    const first = await api<{ id: string }>('POST', '/tickets', { subject: 'Always failing' }, 201)

    // Six attempts, about a second apart, then disabled.
    const disabled = await eventually('the webhook to be disabled', async () => {
      const webhook = await api<{ enabled: boolean; disabled_reason: string | null; consecutive_failures: number }>(
        'GET',
        `/webhooks/${hook.id}`,
      )
      return webhook.enabled ? undefined : webhook
    })
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'exhausted', consecutive_failures: 6 })
    expect(receiver.received.map((r) => r.headers['x-service-attempt'])).toEqual(['1', '2', '3', '4', '5', '6'])
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i]!.at)
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(900)

    const audit = await api<{ audit_logs: { event: string; reason: string | null; target: { id: string } | null }[] }>(
      'GET',
      '/audit-logs?event=webhook.disabled',
    )
    expect(audit.audit_logs.map((r) => [r.event, r.reason, r.target?.id])).toEqual([['webhook.disabled', 'exhausted', hook.id]])

    // Events after that are recorded as skipped, not sent.
    await api('POST', '/tickets', { subject: 'While disabled' }, 201)
    const skipped = await eventually('the new event to be recorded as skipped', async () => {
      const { deliveries } = await api<{ deliveries: { status: string; attempt: number }[] }>(
        'GET',
        `/webhooks/${hook.id}/deliveries?status=skipped`,
      )
      return deliveries.length > 0 ? deliveries : undefined
    })
    expect(skipped.map((d) => [d.status, d.attempt])).toEqual([['skipped', 1]])
    await Bun.sleep(1500)
    expect(receiver.received).toHaveLength(6)

    // The receiver is fixed: turn the webhook on and recover; both events arrive.
    up = true
    expect(await api<{ enabled: boolean }>('PATCH', `/webhooks/${hook.id}`, { enabled: true })).toMatchObject({ enabled: true })
    expect(await api<{ queued: number }>('POST', `/webhooks/${hook.id}/recover`, { since })).toMatchObject({ queued: 2 })
    const delivered = await eventually('the recovered events to arrive', async () => {
      const answered = receiver.received.slice(6).filter((r) => r.answered)
      return answered.length >= 2 ? answered : undefined
    })
    const subjects = delivered.map((r) => (JSON.parse(r.body) as { data: { ticket: { subject: string; id: string } } }).data.ticket)
    expect(subjects.map((t) => t.subject).sort()).toEqual(['Always failing', 'While disabled'])
    expect(subjects.map((t) => t.id)).toContain(first.id)
    // The receiver has answered; the server records each outcome on its next dispatch round, so wait for both.
    const succeeded = await eventually('both recovered deliveries to be recorded as successes', async () => {
      const { deliveries } = await api<{ deliveries: { trigger: string }[] }>('GET', `/webhooks/${hook.id}/deliveries?status=success`)
      return deliveries.length >= 2 ? deliveries : undefined
    })
    expect(succeeded.map((d) => d.trigger)).toEqual(['recover', 'recover'])

    const finished = await server.stop('SIGTERM')
    server = undefined
    expect(finished.code).toBe(0)
    // The server's log says so too (a warning naming the webhook and why).
    const lines = finished.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.filter((l) => l.msg === 'webhook disabled')).toEqual([
      expect.objectContaining({ level: 'warn', webhook_id: hook.id, organization_id: orgId, reason: 'exhausted' }),
    ])
  } finally {
    await server?.stop('SIGTERM')
    receiver.stop()
  }
}, 90_000)
