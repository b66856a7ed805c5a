// The break-glass `switchboard org clear-allowlist ORG_ID` as a real process on a locked-out DATA_DIR: empties the list, prints the settings, is audited, and a server on the same data then lets the organization in.
import { describe, expect, test } from 'bun:test'
import { makeTestApp, tempDirs } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { run, sourceCommand } from '../../helpers/process.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'

const dataDir = tempDirs()

/** A DATA_DIR holding two organizations, acme locked out by its own allowlist (set through the API with force), with sessions and a limit. */
async function lockedOutDir() {
  const dir = dataDir()
  const clock = new FakeClock()
  const app = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
  try {
    const acme = await seedOrganization(app, 'acme')
    const globex = await seedOrganization(app, 'globex')
    const patch = (org: typeof acme, body: unknown) =>
      app.request('/api/v1/organization/security', {
        method: 'PATCH',
        headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect(
      (
        await patch(acme, {
          allowed_ips: ['10.0.0.0/8', '2001:db8::/32'],
          max_concurrent_sessions: 5,
          session_limit_policy: 'deny_new',
          force: true,
        })
      ).status,
    ).toBe(200)
    expect((await patch(globex, { allowed_ips: ['192.0.2.0/24'], force: true })).status).toBe(200)
    // Locked out indeed.
    expect((await app.request('/api/v1/me', { headers: acme.users.admin.auth })).status).toBe(403)
    return { dir, clock, acme, globex }
  } finally {
    await app.close()
  }
}

describe('org clear-allowlist', () => {
  test('empties the list, prints the settings as JSON, keeps the rest; the organization gets back in', async () => {
    const { dir, clock, acme, globex } = await lockedOutDir()
    const result = await run(sourceCommand('org', 'clear-allowlist', acme.org.id), { DATA_DIR: dir })
    expect(result.code).toBe(0)
    expect(result.stdout.endsWith('\n')).toBe(true)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(result.stdout)).toEqual({
      organization_id: acme.org.id,
      allowed_ips: [],
      max_concurrent_sessions: 5,
      session_limit_policy: 'deny_new',
      mfa_required: false,
    })

    const app = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    const server = app.app.listen({ port: 0, hostname: '127.0.0.1' })
    const base = `http://127.0.0.1:${server.server!.port}`
    try {
      // The tokens issued before the lockout work again, and so does a login.
      expect((await fetch(`${base}/api/v1/me`, { headers: acme.users.admin.auth })).status).toBe(200)
      const login = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: acme.users.viewer.user.email, password: PASSWORD }),
      })
      expect(login.status).toBe(200)
      const security = await fetch(`${base}/api/v1/organization/security`, { headers: acme.users.super_admin.auth })
      expect(await security.json()).toEqual({
        allowed_ips: [],
        max_concurrent_sessions: 5,
        session_limit_policy: 'deny_new',
        mfa_required: false,
      })
      // Only that organization: the other one is still behind its list.
      const other = await fetch(`${base}/api/v1/me`, { headers: globex.users.admin.auth })
      expect(other.status).toBe(403)
      expect(((await other.json()) as { code: string }).code).toBe('IP_NOT_ALLOWED')
      // Audited as done by the operator, with what it was before.
      const logs = await fetch(`${base}/api/v1/audit-logs?event=security.updated`, { headers: acme.users.super_admin.auth })
      const records = (
        (await logs.json()) as {
          audit_logs: { seq: number; actor: unknown; credential_id: unknown; ip: unknown; details: unknown; target: unknown }[]
        }
      ).audit_logs
      expect(records).toHaveLength(2)
      // The CLI wrote with the real clock, the app with a fake one: the chain position tells which is last.
      const latest = records.reduce((a, b) => (b.seq > a.seq ? b : a))
      expect(latest).toMatchObject({
        actor: { type: 'system', id: 'cli' },
        credential_id: null,
        ip: null,
        target: { type: 'organization', id: acme.org.id },
        details: { changed: ['allowed_ips'], allowed_ips: { from: ['10.0.0.0/8', '2001:db8::/32'], to: [] } },
      })
    } finally {
      await server.stop(true)
      await app.close()
    }
    // The CLI's record continues the organization's chain.
    const verify = await run(sourceCommand('audit', 'verify'), { DATA_DIR: dir })
    expect(verify.stdout).toContain('all intact')
    expect(verify.code).toBe(0)
  }, 60_000)

  test('an already empty list: prints the settings, exits 0, records nothing', async () => {
    const { dir, clock, globex } = await lockedOutDir()
    const first = await run(sourceCommand('org', 'clear-allowlist', globex.org.id), { DATA_DIR: dir })
    expect(first.code).toBe(0)
    const again = await run(sourceCommand('org', 'clear-allowlist', globex.org.id), { DATA_DIR: dir })
    expect(again.code).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ organization_id: globex.org.id, allowed_ips: [] })
    const app = await makeTestApp({}, { dataDir: dir, keepData: true, clock })
    try {
      const logs = await app.request('/api/v1/audit-logs?event=security.updated', { headers: globex.users.super_admin.auth })
      // The forced PATCH and the first clear; the second changed nothing.
      expect(((await logs.json()) as { audit_logs: unknown[] }).audit_logs).toHaveLength(2)
    } finally {
      await app.close()
    }
  }, 60_000)

  test('an unknown organization: exit 1, a message on stderr, nothing on stdout, nothing changed', async () => {
    const { dir, acme } = await lockedOutDir()
    const result = await run(sourceCommand('org', 'clear-allowlist', 'org_01KAX3M6W9P8T2V5G7H4J3C1QZ'), { DATA_DIR: dir })
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('org_01KAX3M6W9P8T2V5G7H4J3C1QZ')
    const app = await makeTestApp({}, { dataDir: dir, keepData: true })
    try {
      expect(
        (await app.context.db.raw.get<{ allowed_ips: string }>('SELECT allowed_ips FROM organizations WHERE id = ?', [acme.org.id]))!
          .allowed_ips,
      ).toBe('["10.0.0.0/8","2001:db8::/32"]')
    } finally {
      await app.close()
    }
  }, 60_000)

  test('without the organization id: a usage error, not a success', async () => {
    const { dir } = await lockedOutDir()
    const result = await run(sourceCommand('org', 'clear-allowlist'), { DATA_DIR: dir })
    expect(result.code).not.toBe(0)
    expect(result.stdout).toBe('')
    expect(result.stderr).not.toBe('')
  }, 60_000)
})
