// First start: the "Default" organization and its Super Admin, created once (password printed once), never again; a wrong master key stops serve.
import { describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bootstrap } from '../src/bootstrap.ts'
import { verifyPassword } from '../src/lib/password.ts'
import { createOrganization, type OrganizationRow } from '../src/modules/organizations/index.ts'
import type { UserRow } from '../src/modules/users/index.ts'
import { makeTestApp, tempDirs, type TestApp } from './helpers/app.ts'
import { freePort, run, sourceCommand, startServer, type Finished, type RunningServer } from './helpers/process.ts'

const dataDir = tempDirs()

function login(url: string, email: string, password: string) {
  return fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
}

/**
 * Logs in on a server that just started: the first admin exists before the port opens, so the first
 * attempt after /health answers must succeed (no retry: a retry would hide that race coming back).
 */
function loginAfterFirstStart(server: RunningServer, email: string, password: string): Promise<Response> {
  return login(server.url, email, password)
}

function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('first start of serve', () => {
  test('creates "Default" and admin@switchboard.local, prints the generated password once on stderr, and never again', async () => {
    const dir = dataDir()
    const first = await (await startServer(sourceCommand(), { DATA_DIR: dir })).stop()
    expect(first.code).toBe(0)
    const lines = first.stderr.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines).toHaveLength(2)
    const created =
      /^switchboard: first start: created the organization "Default" \((org_\w+)\) and its Super Admin admin@switchboard\.local$/.exec(
        lines[0]!,
      )
    const generated =
      /^switchboard: generated password \(shown only this once; change it with POST \/api\/v1\/auth\/password\): (\S{20})$/.exec(lines[1]!)
    expect(created).not.toBeNull()
    expect(generated).not.toBeNull()
    const organizationId = created![1]!
    const password = generated![1]!
    expect(first.stdout).not.toContain(password)
    expect(logLines(first.stdout)).toContainEqual(
      expect.objectContaining({
        msg: 'first start: created the organization "Default" and its Super Admin',
        organization_id: organizationId,
        email: 'admin@switchboard.local',
      }),
    )

    const second = await startServer(sourceCommand(), { DATA_DIR: dir })
    let finished: Finished
    try {
      const response = await login(second.url, 'admin@switchboard.local', password)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        user: { email: 'admin@switchboard.local', name: 'Administrator', role: 'super_admin', organization_id: organizationId },
      })
      expect((await login(second.url, 'admin@switchboard.local', 'not-the-password')).status).toBe(401)
    } finally {
      finished = await second.stop()
    }
    expect(finished.code).toBe(0)
    expect(finished.stderr).toBe('')
    expect(finished.stdout).not.toContain(password)
    expect(logLines(finished.stdout).map((l) => l.msg)).not.toContain('first start: created the organization "Default" and its Super Admin')

    // Setting ADMIN_PASSWORD later changes nothing: the first admin keeps the generated password.
    const third = await startServer(sourceCommand(), { DATA_DIR: dir, ADMIN_PASSWORD: 'set-too-late-123' })
    try {
      expect((await login(third.url, 'admin@switchboard.local', 'set-too-late-123')).status).toBe(401)
      expect((await login(third.url, 'admin@switchboard.local', password)).status).toBe(200)
    } finally {
      finished = await third.stop()
    }
    expect(finished.code).toBe(0)
    expect(finished.stderr).toBe('')
  }, 60_000)

  test('with ADMIN_EMAIL and ADMIN_PASSWORD nothing is printed and those credentials sign in', async () => {
    const dir = dataDir()
    const password = 'owner-chosen-pw-456'
    const server = await startServer(sourceCommand(), { DATA_DIR: dir, ADMIN_EMAIL: 'owner@corp.example', ADMIN_PASSWORD: password })
    let finished: Finished
    try {
      const response = await loginAfterFirstStart(server, 'owner@corp.example', password)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        user: { email: 'owner@corp.example', role: 'super_admin', organization_id: expect.stringMatching(/^org_/) },
      })
      expect((await login(server.url, 'admin@switchboard.local', password)).status).toBe(401)
    } finally {
      finished = await server.stop()
    }
    expect(finished.code).toBe(0)
    expect(finished.stderr).toBe('')
    expect(finished.stdout).not.toContain(password)
    expect(logLines(finished.stdout)).toContainEqual(
      expect.objectContaining({ msg: 'first start: created the organization "Default" and its Super Admin', email: 'owner@corp.example' }),
    )
  }, 60_000)
})

describe('bootstrap()', () => {
  async function withApp(settings: Parameters<typeof makeTestApp>[0], body: (app: TestApp) => Promise<void>) {
    const app = await makeTestApp(settings)
    try {
      await body(app)
    } finally {
      await app.close()
    }
  }
  const allOrganizations = (app: TestApp) => app.context.db.raw.all<OrganizationRow>('SELECT * FROM organizations ORDER BY id')
  const allUsers = (app: TestApp) => app.context.db.raw.all<UserRow>('SELECT * FROM users ORDER BY id')

  test('on a fresh database: one "Default" organization with one active super_admin, and a generated password', () =>
    withApp({}, async (app) => {
      const result = await bootstrap(app.context)
      expect(result).toEqual({
        organizationId: expect.stringMatching(/^org_/),
        userId: expect.stringMatching(/^usr_/),
        email: 'admin@switchboard.local',
        generatedPassword: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      })
      expect(await allOrganizations(app)).toEqual([expect.objectContaining({ id: result!.organizationId, name: 'Default' })])
      const created = await allUsers(app)
      expect(created).toEqual([
        expect.objectContaining({
          id: result!.userId,
          organization_id: result!.organizationId,
          email: 'admin@switchboard.local',
          role: 'super_admin',
          status: 'active',
        }),
      ])
      expect(await verifyPassword(result!.generatedPassword!, created[0]!.password_hash)).toBe(true)

      const response = await app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@switchboard.local', password: result!.generatedPassword }),
      })
      expect(response.status).toBe(200)
    }))

  test('a second call returns undefined and creates nothing', () =>
    withApp({}, async (app) => {
      expect(await bootstrap(app.context)).toBeDefined()
      expect(await bootstrap(app.context)).toBeUndefined()
      expect(await bootstrap(app.context)).toBeUndefined()
      expect(await allOrganizations(app)).toHaveLength(1)
      expect(await allUsers(app)).toHaveLength(1)
    }))

  test('two calls at once create one organization and one user', () =>
    withApp({}, async (app) => {
      const results = await Promise.all([bootstrap(app.context), bootstrap(app.context)])
      expect(results.filter((r) => r !== undefined)).toHaveLength(1)
      expect(await allOrganizations(app)).toHaveLength(1)
      expect(await allUsers(app)).toHaveLength(1)
    }))

  test('with ADMIN_EMAIL and ADMIN_PASSWORD: that user, and no generated password', () =>
    withApp({ ADMIN_EMAIL: 'Owner@Corp.example', ADMIN_PASSWORD: 'owner-chosen-pw-456' }, async (app) => {
      const result = await bootstrap(app.context)
      expect(result).toEqual({ organizationId: expect.any(String), userId: expect.any(String), email: 'owner@corp.example' })
      const [user] = await allUsers(app)
      expect(await verifyPassword('owner-chosen-pw-456', user!.password_hash)).toBe(true)
    }))

  test('a database that already holds an organization is never bootstrapped', () =>
    withApp({}, async (app) => {
      const acme = await app.context.db.write('test.org', (tx) =>
        createOrganization(tx, { name: 'Acme', plan: 'starter' }, app.clock.now()),
      )
      expect(await bootstrap(app.context)).toBeUndefined()
      expect(await bootstrap(app.context)).toBeUndefined()
      expect(await allOrganizations(app)).toEqual([expect.objectContaining({ id: acme.id, name: 'Acme' })])
      expect(await allUsers(app)).toEqual([])
    }))
})

describe('the master key', () => {
  test('a MASTER_KEY other than the one the signing keys were sealed with stops serve with exit 1', async () => {
    const dir = dataDir()
    expect((await (await startServer(sourceCommand(), { DATA_DIR: dir, ADMIN_PASSWORD: 'bootstrap-pw-123' })).stop()).code).toBe(0)
    const keyFile = readFileSync(join(dir, 'master.key'), 'utf8')

    const otherKey = randomBytes(32).toString('hex')
    const refused = await run(sourceCommand(), { DATA_DIR: dir, MASTER_KEY: otherKey, HOST: '127.0.0.1', PORT: String(freePort()) })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      'switchboard: a secret could not be decrypted: the master key (MASTER_KEY or DATA_DIR/master.key) is not the one it was encrypted with\n',
    )
    expect(refused.stderr).not.toContain(otherKey)
    expect(refused.stdout).not.toContain(otherKey)
    expect(logLines(refused.stdout)).toContainEqual(expect.objectContaining({ level: 'error', msg: 'cannot start' }))
    expect(readFileSync(join(dir, 'master.key'), 'utf8')).toBe(keyFile)

    // The right key, given as MASTER_KEY instead of the file, starts it.
    const server = await startServer(sourceCommand(), { DATA_DIR: dir, MASTER_KEY: keyFile.trim() })
    expect((await server.stop()).code).toBe(0)
  }, 60_000)
})
