// `switchboard backup <file>`: a consistent copy of a live database (server running, a writer busy),
// readable on its own, mode 0600; never overwrites, never leaves a partial file behind. On PostgreSQL it
// copies nothing and explains pg_dump.
import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { tempDirs } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { run, sourceCommand, startServer } from '../helpers/process.ts'

const dir = tempDirs()

// The copy is of the embedded SQLite file: these promises exist on that engine only (PostgreSQL's answer is below).
describe.skipIf(TEST_ENGINE === 'postgres')('backup of a live database', () => {
  test('copies every committed row while the server runs and another process writes', async () => {
    const dataDir = dir()
    const server = await startServer(sourceCommand(), { DATA_DIR: dataDir })
    const writer = new Database(join(dataDir, 'switchboard.db'))
    writer.run('PRAGMA busy_timeout = 5000')
    const insert = writer.query('INSERT INTO system_kv (key, value, updated_at) VALUES (?, ?, ?)')
    writer.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run(`row-${i}`, 'v'.repeat(100), i)
    })()
    // Keep writing while the backup runs, so it copies a database that is changing under it.
    let n = 500
    const busy = setInterval(() => insert.run(`row-${n++}`, 'late', n), 2)
    const target = join(dir(), 'copy.db')
    const result = await run(sourceCommand('backup', target), { DATA_DIR: dataDir })
    clearInterval(busy)
    writer.close()
    await server.stop()

    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ backup: target, bytes: statSync(target).size })
    expect(statSync(target).mode & 0o777).toBe(0o600)
    const copy = new Database(target, { readonly: true })
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    const rows = copy.query<{ n: number }, []>("SELECT count(*) AS n FROM system_kv WHERE key LIKE 'row-%'").get()!.n
    expect(rows).toBeGreaterThanOrEqual(500)
    expect(rows).toBeLessThanOrEqual(n)
    expect(copy.query('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length })
    copy.close()
    // A single file: no -wal or -shm beside it, nothing half-written left.
    expect(readdirSync(join(target, '..'))).toEqual(['copy.db'])
  }, 60_000)

  test('a restored copy boots a server with the rows intact', async () => {
    const source = dir()
    expect((await run(sourceCommand('migrate'), { DATA_DIR: source })).code).toBe(0)
    const db = new Database(join(source, 'switchboard.db'))
    db.run("INSERT INTO system_kv VALUES ('restored', 'yes', 1)")
    db.close()
    const restored = dir()
    expect((await run(sourceCommand('backup', join(restored, 'switchboard.db')), { DATA_DIR: source })).code).toBe(0)
    const server = await startServer(sourceCommand(), { DATA_DIR: restored })
    expect((await fetch(`${server.url}/ready`)).status).toBe(200)
    expect((await server.stop()).code).toBe(0)
    const check = new Database(join(restored, 'switchboard.db'), { readonly: true })
    expect(check.query("SELECT value FROM system_kv WHERE key = 'restored'").get()).toEqual({ value: 'yes' })
    check.close()
  }, 60_000)
})

describe.skipIf(TEST_ENGINE === 'postgres')('refusals', () => {
  test('an existing file is never overwritten', async () => {
    const dataDir = dir()
    expect((await run(sourceCommand('migrate'), { DATA_DIR: dataDir })).code).toBe(0)
    const target = join(dir(), 'exists.db')
    writeFileSync(target, 'precious')
    const result = await run(sourceCommand('backup', target), { DATA_DIR: dataDir })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`switchboard: backup: ${target} already exists; refusing to overwrite it\n`)
    expect(readFileSync(target, 'utf8')).toBe('precious')
  })

  test('no database yet, or no such directory: exit 1 with the reason', async () => {
    const empty = dir()
    const noDb = await run(sourceCommand('backup', join(dir(), 'x.db')), { DATA_DIR: empty })
    expect(noDb.code).toBe(1)
    expect(noDb.stderr).toBe(`switchboard: backup: no database at ${join(empty, 'switchboard.db')}\n`)
    const noDir = await run(sourceCommand('backup', '/nonexistent/dir/x.db'), { DATA_DIR: empty })
    expect(noDir.code).toBe(1)
    expect(noDir.stderr).toBe('switchboard: backup: directory /nonexistent/dir does not exist\n')
  })

  test('a relative target is taken from the working directory', async () => {
    const dataDir = dir()
    expect((await run(sourceCommand('migrate'), { DATA_DIR: dataDir })).code).toBe(0)
    const cwd = dir()
    const result = await run(sourceCommand('backup', 'rel.db'), { DATA_DIR: dataDir }, cwd)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).backup).toBe(join(cwd, 'rel.db'))
  })
})

describe.skipIf(TEST_ENGINE !== 'postgres')('on PostgreSQL', () => {
  test('exit 1 saying to use pg_dump, before looking at the target; nothing is written, an existing file is left alone', async () => {
    const dataDir = dir()
    expect((await run(sourceCommand('migrate'), { DATA_DIR: dataDir })).code).toBe(0)
    const fresh = join(dir(), 'copy.db')
    const existing = join(dir(), 'exists.db')
    writeFileSync(existing, 'precious')
    for (const target of [fresh, existing, '/nonexistent/dir/x.db']) {
      const result = await run(sourceCommand('backup', target), { DATA_DIR: dataDir })
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: '' })
      expect(result.stderr).toStartWith('switchboard: backup: the database is PostgreSQL (DATABASE_URL): back it up with pg_dump')
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
    }
    expect(existsSync(fresh)).toBe(false)
    expect(readdirSync(join(fresh, '..'))).toEqual([])
    expect(readFileSync(existing, 'utf8')).toBe('precious')
  }, 60_000)
})
