// Migrations: applied in order, once, each in its own transaction; a newer database is refused;
// the embedded list is every file of src/db/migrations; two processes migrating one file at once do not collide.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../src/db/database.ts'
import { checksum, type Migration, migrate, MigrationError, sqlMigration, statementsFor } from '../../src/db/migrate.ts'
import { MIGRATIONS, migrationsFor } from '../../src/db/migrations/index.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { engineEnv, TEST_ENGINE } from '../helpers/engine.ts'
import { ROOT, run, sourceCommand } from '../helpers/process.ts'

const root = mkdtempSync(join(tmpdir(), 'switchboard-migrate-'))
let made = 0
const dir = () => {
  const path = join(root, `d${made++}`)
  mkdirSync(path)
  return path
}
const opened: Database[] = []
afterAll(async () => {
  for (const db of opened) await db.close()
  rmSync(root, { recursive: true, force: true })
})

function freshDb(): Database {
  const db = openSqlite(join(dir(), 'switchboard.db'))
  opened.push(db)
  return db
}

const tables = async (db: Database) =>
  (await db.raw.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).map((r) => r.name)

describe('migrate', () => {
  test('applies every embedded migration to a fresh database and records each', async () => {
    const db = freshDb()
    const result = await migrate(db, MIGRATIONS, '1.2.3', 1_700_000_000_000)
    expect(result.applied).toEqual(MIGRATIONS.map((m) => m.tag))
    expect(await tables(db)).toContain('system_kv')
    const rows = await db.raw.all('SELECT tag, checksum, applied_at, app_version FROM schema_migrations ORDER BY tag')
    expect(rows).toEqual(
      MIGRATIONS.map((m) => ({ tag: m.tag, checksum: checksum(m.source), applied_at: 1_700_000_000_000, app_version: '1.2.3' })),
    )
  })

  test('a second run applies nothing', async () => {
    const db = freshDb()
    await migrate(db, MIGRATIONS, '1.0.0')
    expect(await migrate(db, MIGRATIONS, '1.0.0')).toEqual({ applied: [], changed: [] })
    expect(await db.raw.get('SELECT count(*) AS n FROM schema_migrations')).toEqual({ n: MIGRATIONS.length })
  })

  test('applies only the new ones when the build has more migrations; a portable one runs through Kysely', async () => {
    const db = freshDb()
    const first = [sqlMigration('0000_a', 'CREATE TABLE a (x INTEGER)')]
    const portable: Migration = {
      tag: '0002_c',
      source: 'create table c',
      async up(tx) {
        await tx.kysely.schema
          .createTable('c')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('n', 'integer', (c) => c.notNull())
          .execute()
      },
    }
    const second = [
      ...first,
      sqlMigration('0001_b', 'CREATE TABLE b (y INTEGER);\n--> statement-breakpoint\nCREATE INDEX b_y ON b (y);'),
      portable,
    ]
    expect((await migrate(db, first, '1.0.0')).applied).toEqual(['0000_a'])
    expect((await migrate(db, second, '1.1.0')).applied).toEqual(['0001_b', '0002_c'])
    expect(await db.raw.get("SELECT name FROM sqlite_master WHERE name = 'b_y'")).toEqual({ name: 'b_y' })
    expect(await tables(db)).toContain('c')
  })

  test('a failing migration is rolled back whole, earlier ones stay, and the error names it', async () => {
    const db = freshDb()
    const list = [
      sqlMigration('0000_ok', 'CREATE TABLE ok (x INTEGER)'),
      sqlMigration('0001_bad', 'CREATE TABLE half (x INTEGER);\n--> statement-breakpoint\nINSERT INTO missing VALUES (1);'),
    ]
    expect(migrate(db, list, '1.0.0')).rejects.toThrow(MigrationError)
    expect(migrate(db, list, '1.0.0')).rejects.toThrow(/migration 0001_bad failed and was rolled back: no such table: missing/)
    await migrate(db, list, '1.0.0').catch(() => {})
    expect(await tables(db)).toContain('ok')
    expect(await tables(db)).not.toContain('half')
    expect(await db.raw.all('SELECT tag FROM schema_migrations')).toEqual([{ tag: '0000_ok' }])
  })

  test('refuses a database migrated by a newer version, naming both versions', async () => {
    const db = freshDb()
    await migrate(db, MIGRATIONS, '1.0.0')
    await db.raw.run("INSERT INTO schema_migrations VALUES ('9999_from_the_future', 'x', 0, '2.0.0')")
    expect(migrate(db, MIGRATIONS, '1.0.0')).rejects.toThrow(
      'the database was migrated by a newer Switchboard (2.0.0): it has migration 9999_from_the_future, which version 1.0.0 does not know. Run the newer version, or restore a backup taken before the upgrade.',
    )
  })

  test('reports a migration whose source changed after it was applied', async () => {
    const db = freshDb()
    await migrate(db, MIGRATIONS, '1.0.0')
    await db.raw.run("UPDATE schema_migrations SET checksum = 'edited' WHERE tag = ?", [MIGRATIONS[0]!.tag])
    expect(await migrate(db, MIGRATIONS, '1.0.0')).toEqual({ applied: [], changed: [MIGRATIONS[0]!.tag] })
  })
})

describe('statementsFor', () => {
  const text =
    'CREATE TABLE t (\n\tid text COLLATE "C" PRIMARY KEY NOT NULL,\n\tn bigint\n);\n--> statement-breakpoint\nCREATE INDEX t_n ON t (n);\n'
  test('PostgreSQL runs the text as written, split at the breakpoints', () => {
    expect(statementsFor(text, 'postgres')).toEqual([
      'CREATE TABLE t (\n\tid text COLLATE "C" PRIMARY KEY NOT NULL,\n\tn bigint\n);\n',
      '\nCREATE INDEX t_n ON t (n);\n',
    ])
  })
  test('SQLite drops COLLATE "C" (its BINARY default is the same byte order), and the statements run there', async () => {
    const statements = statementsFor(text, 'sqlite')
    expect(statements[0]).toBe('CREATE TABLE t (\n\tid text PRIMARY KEY NOT NULL,\n\tn bigint\n);\n')
    const db = openSqlite(':memory:')
    await migrate(db, [sqlMigration('0000_t', text)], 'test')
    expect(await db.raw.all('SELECT name, type FROM pragma_table_info(?) ORDER BY cid', ['t'])).toEqual([
      { name: 'id', type: 'TEXT' },
      { name: 'n', type: 'bigint' },
    ])
    await db.close()
  })
  test('a clause for one engine, written as a comment, is that clause there and nothing on the other', async () => {
    const only = 'CREATE TABLE k (a text, b text, PRIMARY KEY (a, b)) /* sqlite: WITHOUT ROWID */ /* postgres: WITH (fillfactor = 90) */;'
    expect(statementsFor(only, 'sqlite')).toEqual(['CREATE TABLE k (a text, b text, PRIMARY KEY (a, b)) WITHOUT ROWID ;'])
    expect(statementsFor(only, 'postgres')).toEqual(['CREATE TABLE k (a text, b text, PRIMARY KEY (a, b))  WITH (fillfactor = 90);'])
    const db = openSqlite(':memory:')
    await migrate(db, [sqlMigration('0000_k', only)], 'test')
    expect(await db.raw.get("SELECT sql FROM sqlite_schema WHERE name = 'k'")).toEqual({
      sql: 'CREATE TABLE k (a text, b text, PRIMARY KEY (a, b)) WITHOUT ROWID ',
    })
    await db.close()
  })

  test('a statement that is a clause for the other engine only, with its comments, is no statement there', async () => {
    const only =
      '-- PostgreSQL only.\n/* postgres: CREATE INDEX k_a ON k (a) */\n--> statement-breakpoint\n-- both\nCREATE TABLE j (a text);'
    expect(statementsFor(only, 'sqlite')).toEqual(['\n-- both\nCREATE TABLE j (a text);'])
    expect(statementsFor(only, 'postgres')).toEqual([
      '-- PostgreSQL only.\nCREATE INDEX k_a ON k (a)\n',
      '\n-- both\nCREATE TABLE j (a text);',
    ])
    const db = openSqlite(':memory:')
    expect((await migrate(db, [sqlMigration('0000_j', only)], 'test')).applied).toEqual(['0000_j'])
    await db.close()
  })
})

describe('embedded migrations', () => {
  const folder = join(ROOT, 'src/db/migrations')
  test('are every migration file of src/db/migrations, in order of their number', () => {
    const files = readdirSync(folder)
      .filter((f) => /^\d{4}_.*\.(sql|ts)$/.test(f))
      .map((f) => f.replace(/\.(sql|ts)$/, ''))
    expect(MIGRATIONS.map((m) => m.tag)).toEqual(files.sort())
  })

  test('carry the text of their files byte for byte (the checksums recorded in existing databases depend on it)', async () => {
    for (const m of MIGRATIONS) {
      const file = readdirSync(folder).find((f) => f.startsWith(`${m.tag}.`))!
      expect(m.source).toBe(await Bun.file(join(folder, file)).text())
    }
  })
})

describe('switchboard migrate', () => {
  test('two processes migrating one new database at once both succeed and apply each migration once', async () => {
    const dataDir = dir()
    // Both children get one environment (on PostgreSQL, one database), settled before they start.
    const env = await engineEnv({ DATA_DIR: dataDir })
    const [a, b] = await Promise.all([run(sourceCommand('migrate'), env), run(sourceCommand('migrate'), env)])
    expect([a.code, b.code]).toEqual([0, 0])
    const applied = [a, b].flatMap((r) => (JSON.parse(r.stdout) as { applied: string[] }).applied)
    const migrations = migrationsFor(TEST_ENGINE)
    expect(applied.sort()).toEqual(migrations.map((m) => m.tag).sort())
    const recorded = await withDataDirDb(dataDir, (db) => db.get('SELECT count(*) AS n FROM schema_migrations'), { readonly: true })
    expect(recorded).toEqual({ n: migrations.length })
  })

  test('exits 1 with a clear message on a database from a newer version, and serve refuses to start', async () => {
    const dataDir = dir()
    expect((await run(sourceCommand('migrate'), { DATA_DIR: dataDir })).code).toBe(0)
    await withDataDirDb(dataDir, (db) => db.run("INSERT INTO schema_migrations VALUES ('9999_future', 'x', 0, '7.0.0')"))
    const migrated = await run(sourceCommand('migrate'), { DATA_DIR: dataDir })
    expect(migrated.code).toBe(1)
    expect(migrated.stderr).toContain('switchboard: the database was migrated by a newer Switchboard (7.0.0)')
    const served = await run(sourceCommand('serve'), { DATA_DIR: dataDir, PORT: '1' })
    expect(served.code).toBe(1)
    expect(served.stderr).toContain('newer Switchboard (7.0.0)')
  })
})
