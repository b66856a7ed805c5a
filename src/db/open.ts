// Opens the SQLite database with the pragmas every connection needs, and wraps it in drizzle.
import { Database } from 'bun:sqlite'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema.ts'

export type AppDatabase = BunSQLiteDatabase<typeof schema>

export interface OpenedDatabase {
  sqlite: Database
  db: AppDatabase
}

/** TRANSITIONAL (issue 13): drizzle over the new layer's writer connection. */
export function drizzleOver(sqlite: Database): AppDatabase {
  return drizzle({ client: withStatementCache(sqlite), schema })
}

/** Opens (creating if asked) the database file; `:memory:` works for throwaway databases. */
export function openDatabase(path: string, options: { create?: boolean; readonly?: boolean } = {}): OpenedDatabase {
  const sqlite = options.readonly
    ? new Database(path, { readonly: true, strict: true })
    : new Database(path, { create: options.create ?? true, readwrite: true, strict: true })
  applyPragmas(sqlite)
  return { sqlite, db: drizzle({ client: withStatementCache(sqlite), schema }) }
}

/** Statements kept prepared per connection (bun:sqlite keeps 20, fewer than one request can use). */
export const STATEMENT_CACHE_SIZE = 500

/**
 * The connection as drizzle sees it: `prepare` answers from bun:sqlite's statement cache (`query`)
 * instead of compiling the SQL again on every call, which cost more than running most of our queries.
 * Safe because drizzle runs each statement to completion (run/all/get/values) and never finalizes it.
 */
function withStatementCache(sqlite: Database): Database {
  Database.MAX_QUERY_CACHE_SIZE = Math.max(Database.MAX_QUERY_CACHE_SIZE, STATEMENT_CACHE_SIZE)
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return (sql: string) => target.query(sql)
      const value: unknown = Reflect.get(target, property, target)
      // Database methods use private fields: they must run on the real object, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function applyPragmas(sqlite: Database): void {
  // busy_timeout comes first: switching to WAL itself needs the lock and must wait for it, not fail.
  sqlite.run('PRAGMA busy_timeout = 5000')
  // An in-memory database answers "memory" and stays so; harmless.
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA synchronous = NORMAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  // Recommended for long-lived connections: analyse what needs it now, cheaply (0x10002 caps the work).
  sqlite.run('PRAGMA optimize = 0x10002')
}

/** Checkpoints the WAL into the main file and closes; used at shutdown. */
export function closeDatabase(sqlite: Database): void {
  try {
    sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  } finally {
    sqlite.close()
  }
}
