// Migrations: applied in order, once, each in its own transaction; a newer database is refused;
// the embedded list matches drizzle/; two processes migrating one file at once do not collide.
import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { MIGRATIONS } from '../../src/db/migrations.gen.ts'
import { checksum, migrate, MigrationError } from '../../src/db/migrate.ts'
import { openDatabase } from '../../src/db/open.ts'
import { renderMigrationsModule } from '../../scripts/gen-migrations.ts'
import { tempDirs } from '../helpers/app.ts'
import { ROOT, run, sourceCommand } from '../helpers/process.ts'

const dir = tempDirs()
function freshDb(): { sqlite: Database; path: string } {
  const path = join(dir(), 'switchboard.db')
  return { sqlite: openDatabase(path).sqlite, path }
}

const tables = (sqlite: Database) =>
  sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name)

describe('migrate', () => {
  test('applies every embedded migration to a fresh database and records each', () => {
    const { sqlite } = freshDb()
    const result = migrate(sqlite, MIGRATIONS, '1.2.3', 1_700_000_000_000)
    expect(result.applied).toEqual(MIGRATIONS.map((m) => m.tag))
    expect(tables(sqlite)).toContain('system_kv')
    const rows = sqlite.query('SELECT tag, checksum, applied_at, app_version FROM schema_migrations ORDER BY tag').all()
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ tag: m.tag, checksum: checksum(m.sql), applied_at: 1_700_000_000_000, app_version: '1.2.3' })))
  })

  test('a second run applies nothing', () => {
    const { sqlite } = freshDb()
    migrate(sqlite, MIGRATIONS, '1.0.0')
    expect(migrate(sqlite, MIGRATIONS, '1.0.0')).toEqual({ applied: [], changed: [] })
    expect(sqlite.query('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length })
  })

  test('applies only the new ones when the build has more migrations', () => {
    const { sqlite } = freshDb()
    const first = [{ tag: '0000_a', sql: 'CREATE TABLE a (x INTEGER)' }]
    const second = [...first, { tag: '0001_b', sql: 'CREATE TABLE b (y INTEGER);\n--> statement-breakpoint\nCREATE INDEX b_y ON b (y);' }]
    expect(migrate(sqlite, first, '1.0.0').applied).toEqual(['0000_a'])
    expect(migrate(sqlite, second, '1.1.0').applied).toEqual(['0001_b'])
    expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = 'b_y'").get()).toEqual({ name: 'b_y' })
  })

  test('a failing migration is rolled back whole, earlier ones stay, and the error names it', () => {
    const { sqlite } = freshDb()
    const list = [
      { tag: '0000_ok', sql: 'CREATE TABLE ok (x INTEGER)' },
      { tag: '0001_bad', sql: 'CREATE TABLE half (x INTEGER);\n--> statement-breakpoint\nINSERT INTO missing VALUES (1);' },
    ]
    expect(() => migrate(sqlite, list, '1.0.0')).toThrow(MigrationError)
    expect(() => migrate(sqlite, list, '1.0.0')).toThrow(/migration 0001_bad failed and was rolled back: no such table: missing/)
    expect(tables(sqlite)).toContain('ok')
    expect(tables(sqlite)).not.toContain('half')
    expect(sqlite.query('SELECT tag FROM schema_migrations').all()).toEqual([{ tag: '0000_ok' }])
  })

  test('refuses a database migrated by a newer version, naming both versions', () => {
    const { sqlite } = freshDb()
    migrate(sqlite, MIGRATIONS, '1.0.0')
    sqlite.run("INSERT INTO schema_migrations VALUES ('9999_from_the_future', 'x', 0, '2.0.0')")
    expect(() => migrate(sqlite, MIGRATIONS, '1.0.0')).toThrow(
      'the database was migrated by a newer Switchboard (2.0.0): it has migration 9999_from_the_future, which version 1.0.0 does not know. Run the newer version, or restore a backup taken before the upgrade.',
    )
  })

  test('reports a migration whose SQL changed after it was applied', () => {
    const { sqlite } = freshDb()
    migrate(sqlite, MIGRATIONS, '1.0.0')
    sqlite.run("UPDATE schema_migrations SET checksum = 'edited' WHERE tag = ?", [MIGRATIONS[0]!.tag])
    expect(migrate(sqlite, MIGRATIONS, '1.0.0')).toEqual({ applied: [], changed: [MIGRATIONS[0]!.tag] })
  })
})

describe('embedded migrations', () => {
  test('src/db/migrations.gen.ts lists exactly the journal of drizzle/, in order', async () => {
    const journal = (await Bun.file(join(ROOT, 'drizzle/meta/_journal.json')).json()) as { entries: { idx: number; tag: string }[] }
    const tags = journal.entries.sort((a, b) => a.idx - b.idx).map((e) => e.tag)
    expect(await Bun.file(join(ROOT, 'src/db/migrations.gen.ts')).text()).toBe(renderMigrationsModule(tags))
    const files = readdirSync(join(ROOT, 'drizzle')).filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, ''))
    expect(files.sort()).toEqual(tags)
  })

  test('carry the SQL of the files in drizzle/', async () => {
    for (const m of MIGRATIONS) expect(m.sql).toBe(await Bun.file(join(ROOT, 'drizzle', `${m.tag}.sql`)).text())
  })
})

describe('switchboard migrate', () => {
  test('two processes migrating one new database at once both succeed and apply each migration once', async () => {
    const dataDir = dir()
    const [a, b] = await Promise.all([run(sourceCommand('migrate'), { DATA_DIR: dataDir }), run(sourceCommand('migrate'), { DATA_DIR: dataDir })])
    expect([a.code, b.code]).toEqual([0, 0])
    const applied = [a, b].flatMap((r) => (JSON.parse(r.stdout) as { applied: string[] }).applied)
    expect(applied.sort()).toEqual(MIGRATIONS.map((m) => m.tag).sort())
    const db = new Database(join(dataDir, 'switchboard.db'), { readonly: true })
    expect(db.query('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length })
    db.close()
  })

  test('exits 1 with a clear message on a database from a newer version, and serve refuses to start', async () => {
    const dataDir = dir()
    expect((await run(sourceCommand('migrate'), { DATA_DIR: dataDir })).code).toBe(0)
    const db = new Database(join(dataDir, 'switchboard.db'))
    db.run("INSERT INTO schema_migrations VALUES ('9999_future', 'x', 0, '7.0.0')")
    db.close()
    const migrated = await run(sourceCommand('migrate'), { DATA_DIR: dataDir })
    expect(migrated.code).toBe(1)
    expect(migrated.stderr).toContain('switchboard: the database was migrated by a newer Switchboard (7.0.0)')
    const served = await run(sourceCommand('serve'), { DATA_DIR: dataDir, PORT: '1' })
    expect(served.code).toBe(1)
    expect(served.stderr).toContain('newer Switchboard (7.0.0)')
  })
})
