// Applies the embedded migrations in order, each once and in its own write transaction, and refuses
// a database that a newer Switchboard has migrated (no silent downgrade). Instances starting at once
// on one PostgreSQL take turns on a keyed lock (MIGRATION_LOCK): one applies, the others find it done.
import type { Database, Engine, Tx } from './database.ts'

export interface Migration {
  tag: string
  /** What the checksum covers: the SQL text, or the source of `up`. */
  source: string
  up(tx: Tx): Promise<void>
}

export interface MigrationResult {
  applied: string[]
  /** Tags whose recorded checksum differs from the embedded migration (edited after landing). */
  changed: string[]
}

/** The database holds migrations this build does not know, or a migration failed. */
export class MigrationError extends Error {
  override name = 'MigrationError'
}

const STATEMENT_BREAKPOINT = '--> statement-breakpoint'

/**
 * Held by each migration's transaction (and the one creating schema_migrations) from its first statement:
 * the check "not applied yet" and the DDL after it run under it, so two instances never both apply one
 * migration (the second's DDL would fail on what the first made, and its start with it).
 */
const MIGRATION_LOCK = 'schema-migrations'

/**
 * Takes the migration lock with no lock or statement timeout for the rest of the transaction (PostgreSQL):
 * a migration may build an index on a large table for minutes, and an instance starting meanwhile waits
 * for it rather than fail its start after DATABASE_LOCK_TIMEOUT.
 */
async function lockMigrations(tx: Tx): Promise<void> {
  if (tx.engine === 'postgres')
    await Promise.all([
      tx.raw.get("SELECT set_config('lock_timeout', ?, true)", ['0']),
      tx.raw.get("SELECT set_config('statement_timeout', ?, true)", ['0']),
    ])
  await tx.lock(MIGRATION_LOCK)
}

export function checksum(source: string): string {
  return new Bun.CryptoHasher('sha256').update(source).digest('hex')
}

/**
 * What `COLLATE "C"` becomes on SQLite: nothing. Portable migrations spell byte-order text as PostgreSQL
 * needs it; SQLite knows no collation named C, and its default (BINARY) is that same byte order.
 */
const COLLATE_C = / COLLATE "C"/g

/**
 * A clause for one engine only, written as a comment: `/* sqlite: WITHOUT ROWID *\/` is that clause on
 * SQLite and nothing on PostgreSQL (and the other way round for `postgres:`).
 */
const ENGINE_ONLY = /\/\* (sqlite|postgres): ([^*]+) \*\//g

/** The statements of a migration's text on `engine` (what migrate() runs, in order). */
export function statementsFor(text: string, engine: Engine): string[] {
  const collated = engine === 'sqlite' ? text.replace(COLLATE_C, '') : text
  const sql = collated.replace(ENGINE_ONLY, (_, only: string, clause: string) => (only === engine ? clause : ''))
  // A statement left with comments only (its clause was for the other engine) is no statement.
  return sql.split(STATEMENT_BREAKPOINT).filter((statement) => statement.replace(/^\s*--.*$/gm, '').trim() !== '')
}

/** A migration written as SQL statements separated by `--> statement-breakpoint`. */
export function sqlMigration(tag: string, text: string): Migration {
  return {
    tag,
    source: text,
    async up(tx) {
      for (const statement of statementsFor(text, tx.engine)) await tx.raw.run(statement)
    },
  }
}

interface Recorded {
  tag: string
  checksum: string
  app_version: string
}

export async function migrate(
  db: Database,
  migrations: readonly Migration[],
  appVersion: string,
  now = Date.now(),
): Promise<MigrationResult> {
  await db.write('create schema_migrations', async (tx) => {
    await lockMigrations(tx)
    await tx.raw.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    tag TEXT PRIMARY KEY NOT NULL,
    checksum TEXT NOT NULL,
    applied_at BIGINT NOT NULL,
    app_version TEXT NOT NULL
  )`)
  })
  const known = new Map(migrations.map((m) => [m.tag, m]))
  const recorded = await db.raw.all<Recorded>('SELECT tag, checksum, app_version FROM schema_migrations')

  const unknown = recorded.filter((row) => !known.has(row.tag))
  if (unknown.length > 0) {
    const newest = unknown
      .map((r) => r.tag)
      .sort()
      .at(-1)
    throw new MigrationError(
      `the database was migrated by a newer Switchboard (${unknown[0]!.app_version}): it has migration ${newest}, which version ${appVersion} does not know. ` +
        'Run the newer version, or restore a backup taken before the upgrade.',
    )
  }

  const result: MigrationResult = { applied: [], changed: [] }
  for (const row of recorded) if (checksum(known.get(row.tag)!.source) !== row.checksum) result.changed.push(row.tag)

  const done = new Set(recorded.map((row) => row.tag))
  for (const migration of migrations) {
    // Recorded already: no write transaction (on PostgreSQL one each was most of a boot's database time).
    if (done.has(migration.tag)) continue
    try {
      const applied = await db.write(`migration ${migration.tag}`, async (tx) => {
        // Checked again inside the write transaction, under the lock: another process may have applied it meanwhile.
        await lockMigrations(tx)
        if (await tx.raw.get('SELECT 1 AS x FROM schema_migrations WHERE tag = ?', [migration.tag])) return false
        await migration.up(tx)
        await tx.raw.run('INSERT INTO schema_migrations (tag, checksum, applied_at, app_version) VALUES (?, ?, ?, ?)', [
          migration.tag,
          checksum(migration.source),
          now,
          appVersion,
        ])
        return true
      })
      if (applied) result.applied.push(migration.tag)
    } catch (error) {
      throw new MigrationError(`migration ${migration.tag} failed and was rolled back: ${(error as Error).message}`)
    }
  }
  return result
}
