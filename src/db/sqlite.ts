// The embedded engine: bun:sqlite behind Kysely. One writer connection behind a first-come-first-served
// lock (transactions are async, so two must never interleave on one connection), one read connection
// for everything read outside a transaction, statements from bun:sqlite's cache. The only file that
// touches bun:sqlite besides the raw-SQL helper below.
import { Database as SqliteConnection, type SQLQueryBindings } from 'bun:sqlite'
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import type { Database, Queries, RawSql, SqlValue, Tables, Tx } from './database.ts'
import { planStable } from './plan-stable.ts'
import { SqliteChangeMark } from './sqlite-change-mark.ts'
import { WriterLock } from './writer-lock.ts'

/** Statements kept prepared per connection (bun:sqlite keeps 20, fewer than one request can use). */
export const STATEMENT_CACHE_SIZE = 500

export interface SqliteOptions {
  create?: boolean
  /** Reports a write transaction that held the writer longer than `slowMs`. */
  onSlowWrite?(name: string, heldMs: number): void
  slowMs?: number
}

type Params = readonly SqlValue[]

function bindings(params: Params | readonly unknown[]): SQLQueryBindings[] {
  return params as SQLQueryBindings[]
}

function runStatement<R>(connection: SqliteConnection, text: string, params: readonly unknown[], read = false): QueryResult<R> {
  const statement = connection.query<R, SQLQueryBindings[]>(read ? planStable(text) : text)
  if (statement.columnNames.length > 0) return { rows: statement.all(...bindings(params)) }
  const result = statement.run(...bindings(params))
  return { rows: [], numAffectedRows: BigInt(result.changes), insertId: BigInt(result.lastInsertRowid) }
}

/** A Kysely connection: reads on `reader`; anything else on the writer, under its lock unless `inTx`. */
class Connection implements DatabaseConnection {
  constructor(
    private readonly writer: SqliteConnection,
    private readonly reader: SqliteConnection,
    private readonly lock: WriterLock | undefined,
    private readonly mark: SqliteChangeMark,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const read = compiled.query.kind === 'SelectQueryNode'
    if (read) return runStatement(this.lock ? this.reader : this.writer, compiled.sql, compiled.parameters, true)
    if (!this.lock) return this.wrote(runStatement(this.writer, compiled.sql, compiled.parameters))
    const wait = this.lock.acquire('statement outside a transaction')
    if (wait) await wait
    try {
      return this.wrote(runStatement(this.writer, compiled.sql, compiled.parameters))
    } finally {
      this.lock.release()
    }
  }

  /** `result`, once the change mark has moved past the write that made it (after it, never before). */
  private wrote<R>(result: R): R {
    this.mark.wrote()
    return result
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered on this engine
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite; page with a keyset instead')
  }
}

class SqliteDriver implements Driver {
  private readonly connection: Connection
  constructor(writer: SqliteConnection, reader: SqliteConnection, lock: WriterLock | undefined, mark: SqliteChangeMark) {
    this.connection = new Connection(writer, reader, lock, mark)
  }
  async init() {}
  async acquireConnection() {
    return this.connection
  }
  async beginTransaction(): Promise<void> {
    throw new Error('use Database.write(name, block) for transactions: it holds the writer lock')
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

function kyselyOver(
  writer: SqliteConnection,
  reader: SqliteConnection,
  lock: WriterLock | undefined,
  mark: SqliteChangeMark,
): Kysely<Tables> {
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SqliteDriver(writer, reader, lock, mark),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  }
  return new Kysely<Tables>({ dialect })
}

/**
 * The raw-SQL helper on SQLite: reads on `reader`; `run` on the writer (under the lock unless in a
 * transaction). Reads run planStable's text, so that their plan is not made again at every execution.
 */
class SqliteRaw implements RawSql {
  constructor(
    private readonly writer: SqliteConnection,
    private readonly reader: SqliteConnection,
    private readonly lock: WriterLock | undefined,
    private readonly mark: SqliteChangeMark,
  ) {}
  async all<Row>(text: string, params: Params = []): Promise<Row[]> {
    return this.reader.query<Row, SQLQueryBindings[]>(planStable(text)).all(...bindings(params))
  }
  async get<Row>(text: string, params: Params = []): Promise<Row | undefined> {
    return this.reader.query<Row, SQLQueryBindings[]>(planStable(text)).get(...bindings(params)) ?? undefined
  }
  async run(text: string, params: Params = []): Promise<number> {
    if (this.lock) {
      const wait = this.lock.acquire('statement outside a transaction')
      if (wait) await wait
    }
    try {
      return this.writer.query(text).run(...bindings(params)).changes
    } finally {
      // After the statement: a read between a mark moved early and the write would be kept as current.
      this.mark.wrote()
      this.lock?.release()
    }
  }
}

function applyPragmas(connection: SqliteConnection, writer: boolean): void {
  // busy_timeout comes first: switching to WAL itself needs the lock and must wait for it, not fail.
  connection.run('PRAGMA busy_timeout = 5000')
  if (!writer) return
  // An in-memory database answers "memory" and stays so; harmless.
  connection.run('PRAGMA journal_mode = WAL')
  connection.run('PRAGMA synchronous = NORMAL')
  connection.run('PRAGMA foreign_keys = ON')
  // Recommended for long-lived connections: analyse what needs it now, cheaply (0x10002 caps the work).
  connection.run('PRAGMA optimize = 0x10002')
}

/** Opens (creating unless told not to) the database file; `:memory:` has no separate read connection. */
export function openSqlite(path: string, options: SqliteOptions = {}): Database {
  SqliteConnection.MAX_QUERY_CACHE_SIZE = Math.max(SqliteConnection.MAX_QUERY_CACHE_SIZE, STATEMENT_CACHE_SIZE)
  const writer = new SqliteConnection(path, { create: options.create ?? true, readwrite: true, strict: true })
  applyPragmas(writer, true)
  const memory = path === ':memory:' || path === ''
  const reader = memory ? writer : new SqliteConnection(path, { readonly: true, strict: true })
  if (!memory) applyPragmas(reader, false)
  const lock = new WriterLock({ slowMs: options.slowMs, onSlow: options.onSlowWrite })
  const dataVersion = reader.query<{ data_version: number }, []>('PRAGMA data_version')
  const mark = new SqliteChangeMark(() => dataVersion.get()?.data_version ?? -1)
  const txKysely = kyselyOver(writer, writer, undefined, mark)
  const txRaw = new SqliteRaw(writer, writer, undefined, mark)

  async function write<T>(name: string, block: (tx: Tx) => Promise<T>): Promise<T> {
    const wait = lock.acquire(name)
    if (wait) await wait
    let effects: (() => void)[] | undefined
    const commitWork: (() => Promise<unknown>)[] = []
    const pendingAtCommit: { reject(error: unknown): void }[] = []
    const tx: Tx = {
      kysely: txKysely,
      raw: txRaw,
      engine: 'sqlite',
      name,
      forUpdate: '',
      forKeyShare: '',
      afterCommit(effect) {
        ;(effects ??= []).push(effect)
      },
      atCommit<R>(statements: () => Promise<R>): Promise<R> {
        const settled = Promise.withResolvers<R>()
        settled.promise.catch(() => undefined)
        pendingAtCommit.push(settled)
        commitWork.push(() => statements().then(settled.resolve))
        return settled.promise
      },
      // One writer: every transaction is already alone.
      async lock() {},
      lockAtCommit() {},
    }
    let result: T
    try {
      writer.run('BEGIN IMMEDIATE')
      try {
        result = await block(tx)
        // The deferred statements, in order, as the commit pipeline of PostgreSQL runs them.
        for (const work of commitWork) await work()
        writer.run('COMMIT')
        mark.wrote()
      } catch (error) {
        for (const settled of pendingAtCommit) settled.reject(error)
        if (writer.inTransaction) writer.run('ROLLBACK')
        throw error
      }
    } finally {
      lock.release()
    }
    if (effects) for (const effect of effects) effect()
    return result
  }

  /** Engine maintenance on the writer: waits its turn, and is not reported as a slow write. */
  async function withWriter(name: string, work: () => void): Promise<void> {
    const wait = lock.acquire(name)
    if (wait) await wait
    try {
      work()
    } finally {
      lock.release(true)
    }
  }

  return {
    engine: 'sqlite',
    kysely: kyselyOver(writer, reader, lock, mark),
    raw: new SqliteRaw(writer, reader, lock, mark),
    changeMark: () => mark.current(),
    write,
    admin: {
      async optimize() {
        await withWriter('optimize', () => writer.run('PRAGMA optimize'))
      },
      async checkpoint() {
        // PASSIVE: never waits on readers (TRUNCATE would, holding the writer meanwhile); under the lock,
        // since a checkpoint cannot run on a connection inside an open transaction.
        const found: { row?: { busy: number; log: number; checkpointed: number } | null } = {}
        await withWriter('checkpoint', () => {
          found.row = writer.query<{ busy: number; log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()
        })
        const row = found.row
        // An in-memory database has no WAL: -1 frames.
        return row && row.log >= 0 ? { walFrames: row.log, checkpointedFrames: row.checkpointed, busy: row.busy === 1 } : undefined
      },
      async snapshot<T>(block: (view: Queries) => Promise<T>): Promise<T> {
        // In memory there is no second connection to the same data: the writer, held so nothing moves.
        if (memory) {
          const wait = lock.acquire('snapshot')
          if (wait) await wait
          try {
            return await block({ kysely: txKysely, raw: txRaw, engine: 'sqlite' })
          } finally {
            lock.release(true)
          }
        }
        // A connection of its own: a read transaction on the shared reader would hold every other read of
        // the process at the same old view. WAL lets the writer go on meanwhile.
        const connection = new SqliteConnection(path, { readonly: true, strict: true })
        try {
          applyPragmas(connection, false)
          connection.run('BEGIN')
          // The snapshot starts at the first read, not at BEGIN: take it now.
          connection.query('SELECT count(*) FROM sqlite_schema').get()
          return await block({
            kysely: kyselyOver(connection, connection, undefined, mark),
            raw: new SqliteRaw(connection, connection, undefined, mark),
            engine: 'sqlite',
          })
        } finally {
          if (connection.inTransaction) connection.run('COMMIT')
          connection.close()
        }
      },
      async backupTo(file: string) {
        // On the read connection, in a read transaction of its own: writers go on while the copy is made.
        reader.query('VACUUM INTO ?').run(file)
      },
    },
    async close() {
      try {
        await withWriter('close', () => writer.run('PRAGMA wal_checkpoint(TRUNCATE)'))
      } finally {
        if (reader !== writer) reader.close()
        writer.close()
      }
    },
  }
}

/** Whether a database file passes SQLite's quick integrity check (backups check their copy). */
export function quickCheckSqliteFile(path: string): string {
  const connection = new SqliteConnection(path, { readonly: true })
  try {
    return connection.query<{ quick_check: string }, []>('PRAGMA quick_check').get()?.quick_check ?? 'no answer'
  } finally {
    connection.close()
  }
}
