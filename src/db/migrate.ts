// Applies the embedded SQL migrations in order, each once and in its own transaction, and refuses
// a database that a newer Switchboard has migrated (no silent downgrade).
import type { Database } from 'bun:sqlite'

export interface Migration {
  tag: string
  sql: string
}

export interface MigrationResult {
  applied: string[]
  /** Tags whose recorded checksum differs from the embedded SQL (edited after landing). */
  changed: string[]
}

/** The database holds migrations this build does not know, or a migration failed. */
export class MigrationError extends Error {
  override name = 'MigrationError'
}

const STATEMENT_BREAKPOINT = '--> statement-breakpoint'

export function checksum(sql: string): string {
  return new Bun.CryptoHasher('sha256').update(sql).digest('hex')
}

export function migrate(sqlite: Database, migrations: readonly Migration[], appVersion: string, now = Date.now()): MigrationResult {
  sqlite.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    tag TEXT PRIMARY KEY NOT NULL,
    checksum TEXT NOT NULL,
    applied_at INTEGER NOT NULL,
    app_version TEXT NOT NULL
  )`)
  const known = new Map(migrations.map((m) => [m.tag, m]))
  const recorded = () => sqlite.query<{ tag: string; checksum: string; app_version: string }, []>('SELECT tag, checksum, app_version FROM schema_migrations').all()

  const unknown = recorded().filter((row) => !known.has(row.tag))
  if (unknown.length > 0) {
    const newest = unknown.map((r) => r.tag).sort().at(-1)
    throw new MigrationError(
      `the database was migrated by a newer Switchboard (${unknown[0]!.app_version}): it has migration ${newest}, which version ${appVersion} does not know. ` +
        'Run the newer version, or restore a backup taken before the upgrade.',
    )
  }

  const result: MigrationResult = { applied: [], changed: [] }
  for (const row of recorded()) if (checksum(known.get(row.tag)!.sql) !== row.checksum) result.changed.push(row.tag)

  for (const migration of migrations) {
    const apply = sqlite.transaction(() => {
      // Checked again inside the write lock: another process may have applied it meanwhile.
      if (sqlite.query('SELECT 1 FROM schema_migrations WHERE tag = ?').get(migration.tag)) return false
      for (const statement of migration.sql.split(STATEMENT_BREAKPOINT)) if (statement.trim() !== '') sqlite.run(statement)
      sqlite.query('INSERT INTO schema_migrations (tag, checksum, applied_at, app_version) VALUES (?, ?, ?, ?)').run(migration.tag, checksum(migration.sql), now, appVersion)
      return true
    })
    try {
      if (apply.immediate()) result.applied.push(migration.tag)
    } catch (error) {
      throw new MigrationError(`migration ${migration.tag} failed and was rolled back: ${(error as Error).message}`)
    }
  }
  return result
}
