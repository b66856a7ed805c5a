// `switchboard audit verify` (in this process, test/helpers/cli.ts; a real process for a missing database) on a real DATA_DIR: all intact (exit 0), and a row edited or deleted directly in the database (the SQLite file, or the PostgreSQL database) (exit 1, naming the chain and the record).
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { makeTestApp, tempDirs } from '../helpers/app.ts'
import { type DataDirDb, withDataDirDb } from '../helpers/data-dir-db.ts'
import { postgresServer, TEST_ENGINE } from '../helpers/engine.ts'
import { run, sourceCommand } from '../helpers/process.ts'
import { runInProcess } from '../helpers/cli.ts'
import { PASSWORD, seedOrganization } from '../helpers/seed.ts'

const dataDir = tempDirs()

const verify = (dir: string) => runInProcess(['audit', 'verify'], { DATA_DIR: dir })

/** A DATA_DIR with two organizations' chains and the installation chain (a login with an unknown e-mail), the app closed. */
async function populated() {
  const dir = dataDir()
  const app = await makeTestApp({}, { dataDir: dir, keepData: true })
  try {
    const acme = await seedOrganization(app, 'acme')
    const globex = await seedOrganization(app, 'globex')
    const login = (email: string, password: string) =>
      app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
    for (const org of [acme, globex]) {
      expect((await login(org.users.agent.user.email, PASSWORD)).status).toBe(200)
      expect((await login(org.users.agent.user.email, 'wrong')).status).toBe(401)
      app.clock.advance(1000)
    }
    expect((await login('nobody@nowhere.test', 'wrong')).status).toBe(401)
    expect((await login('nobody-else@nowhere.test', 'wrong')).status).toBe(401)
    return { dir, acme: acme.org.id, globex: globex.org.id }
  } finally {
    await app.close()
  }
}

/** Opens the database directly, as someone holding it could, without the append-only triggers. */
function tamper(dir: string, change: (db: DataDirDb) => Promise<void>) {
  return withDataDirDb(dir, async (db) => {
    await db.dropTrigger('audit_logs_no_update', 'audit_logs')
    await db.dropTrigger('audit_logs_no_delete', 'audit_logs')
    await change(db)
  })
}

async function rowAt(dir: string, org: string, seq: number): Promise<{ id: string }> {
  const row = await withDataDirDb(
    dir,
    (db) => db.get<{ id: string }>('SELECT id FROM audit_logs WHERE organization_id = ? AND seq = ?', [org, seq]),
    { readonly: true },
  )
  return row!
}

describe('audit verify', () => {
  test('an untouched database: one line per chain, all intact, exit 0', async () => {
    const { dir, acme, globex } = await populated()
    const result = await verify(dir)
    expect(result.code).toBe(0)
    const lines = result.stdout.trim().split('\n')
    // Seeded users (5), a login and a failed one per organization; two unknown e-mails in the installation chain.
    expect(lines.slice(0, -1).sort()).toEqual(
      [`${acme}: 7 records, intact`, `${globex}: 7 records, intact`, 'installation: 2 records, intact'].sort(),
    )
    expect(lines.at(-1)).toBe('3 chains, 16 records: all intact')
  }, 60_000)

  test('while a server holds the same DATA_DIR open', async () => {
    const { dir } = await populated()
    const app = await makeTestApp({}, { dataDir: dir, keepData: true })
    try {
      await seedOrganization(app, 'live')
      const result = await verify(dir)
      expect(result.code).toBe(0)
      expect(result.stdout).toContain('4 chains, 21 records: all intact')
    } finally {
      await app.close()
    }
  }, 60_000)

  test('a fresh database with no records: exit 0', async () => {
    const dir = dataDir()
    const app = await makeTestApp({}, { dataDir: dir, keepData: true })
    await app.close()
    const result = await verify(dir)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('0 chains, 0 records: all intact')
  }, 60_000)

  test.skipIf(TEST_ENGINE === 'postgres')(
    'no database in DATA_DIR (a mistyped path): exit 1 naming it, never "all intact", and none is created',
    async () => {
      const dir = dataDir()
      const result = await verify(dir)
      expect(result.stdout).not.toContain('intact')
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(join(dir, 'switchboard.db'))
      expect(existsSync(join(dir, 'switchboard.db'))).toBe(false)
    },
    60_000,
  )

  // PostgreSQL's form of the mistyped DATA_DIR: the database is named by DATABASE_URL, and one that does not exist is not made.
  test.skipIf(TEST_ENGINE !== 'postgres')(
    'no such database (a mistyped DATABASE_URL): exit 1 naming it, never "all intact", and none is created',
    async () => {
      const server = await postgresServer()
      const result = await run(sourceCommand('audit', 'verify'), { DATA_DIR: dataDir(), DATABASE_URL: server.url('no_such_database') })
      expect(result.stdout).not.toContain('intact')
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('no_such_database')
      expect(await server.admin.unsafe("SELECT 1 FROM pg_database WHERE datname = 'no_such_database'")).toHaveLength(0)
    },
    60_000,
  )

  test("one row's details edited in the file: exit 1, naming the chain, the seq and the id; the other chains intact", async () => {
    const { dir, acme, globex } = await populated()
    const victim = await rowAt(dir, acme, 3)
    await tamper(dir, (db) => db.run(`UPDATE audit_logs SET details = '{"role":"viewer"}' WHERE id = ?`, [victim.id]))
    const result = await verify(dir)
    expect(result.code).toBe(1)
    const lines = result.stdout.trim().split('\n')
    const broken = lines.find((l) => l.startsWith(`${acme}:`))!
    expect(broken).toContain('7 records')
    expect(broken).toContain('BROKEN at record 3')
    expect(broken).toContain(victim.id)
    expect(lines).toContain(`${globex}: 7 records, intact`)
    expect(lines).toContain('installation: 2 records, intact')
    expect(lines.at(-1)).toBe('1 of 3 chains broken')
  }, 60_000)

  test('a middle row deleted from the file: exit 1, naming the record after the gap', async () => {
    const { dir, globex } = await populated()
    const gone = await rowAt(dir, globex, 4)
    const next = await rowAt(dir, globex, 5)
    await tamper(dir, (db) => db.run('DELETE FROM audit_logs WHERE id = ?', [gone.id]))
    const result = await verify(dir)
    expect(result.code).toBe(1)
    const line = result.stdout.split('\n').find((l) => l.startsWith(`${globex}:`))!
    expect(line).toContain('6 records')
    expect(line).toContain(`BROKEN at record 5 (${next.id})`)
    expect(line).toContain('missing')
  }, 60_000)

  test('the installation chain is checked too', async () => {
    const { dir } = await populated()
    await tamper(dir, (db) =>
      db.run(`UPDATE audit_logs SET details = '{"email":"someone@else.test"}' WHERE organization_id IS NULL AND seq = 2`),
    )
    const result = await verify(dir)
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^installation: 2 records, BROKEN at record 2 \(aud_\w+\)/m)
  }, 60_000)

  test('two chains broken: both named, exit 1', async () => {
    const { dir, acme, globex } = await populated()
    await tamper(dir, async (db) => {
      await db.run(`UPDATE audit_logs SET outcome = 'failure' WHERE organization_id = ? AND seq = 6`, [acme])
      await db.run(`UPDATE audit_logs SET ip = '10.6.6.6' WHERE organization_id = ? AND seq = 1`, [globex])
    })
    const result = await verify(dir)
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(`${acme}: 7 records, BROKEN at record 6`)
    expect(result.stdout).toContain(`${globex}: 7 records, BROKEN at record 1`)
    expect(result.stdout.trim().split('\n').at(-1)).toBe('2 of 3 chains broken')
  }, 60_000)
})
