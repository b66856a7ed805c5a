// The server engine: PostgreSQL through Bun.SQL behind Kysely, for several instances. Portable SQL
// text (`?` placeholders) becomes `$1…$n` once per statement; int8 values come back as BigInt and are
// handed to the modules as numbers (epoch milliseconds and counts are far inside 2^53). A write
// transaction runs on one reserved connection at READ COMMITTED, concurrently with every other
// instance's: each read-modify-write protects itself (src/db/README.md), and the block is run again
// after a deadlock, a serialization failure or a unique race (retry.ts).
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely'
import type { Database, Queries, RawSql, SqlValue, Tables, Tx } from './database.ts'
import { type BatchedStatement, batchText } from './commit-batch.ts'
import { DatabaseBusy, isRetriedConflict, isTimedOut, isUniqueViolation, retryDelayMs, WRITE_ATTEMPTS } from './retry.ts'
import { BULK_PREFIX } from './writer-lock.ts'
import { AUTH_STATE_CHANGED, PostgresChangeMark } from './postgres-change-mark.ts'

/** What runs a statement: the pool, or the reserved connection of a transaction. */
type Runner = Pick<Bun.SQL, 'unsafe'>

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number
  onSlowWrite?(name: string, heldMs: number): void
  /** A write transaction is run again after `error` (a deadlock, a serialization failure, a unique race). */
  onRetry?(name: string, error: unknown): void
  slowMs?: number
  /** lock_timeout of every connection (default 5 s). */
  lockTimeoutMs?: number
  /** statement_timeout of every connection (default 30 s). */
  statementTimeoutMs?: number
}

/** Defaults of the timeouts every connection sets (the settings DATABASE_LOCK_TIMEOUT and DATABASE_STATEMENT_TIMEOUT). */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000
/** A unique violation is retried this many times (one is a race; more is a wrong statement). */
const UNIQUE_RETRIES = 2

/** A transaction-scoped advisory lock on a key's 64-bit hash (Tx.lock). */
const LOCK = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))'
const LOCK_BATCHED = 'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))'

const placeholders = new Map<string, string>()

/** `?` → `$n`, outside string literals; cached per statement text. */
export function numbered(text: string): string {
  let out = placeholders.get(text)
  if (out !== undefined) return out
  let n = 0
  let quoted = false
  out = ''
  for (const c of text) {
    if (c === "'") quoted = !quoted
    out += c === '?' && !quoted ? `$${++n}` : c
  }
  if (placeholders.size > 2000) placeholders.clear()
  placeholders.set(text, out)
  return out
}

function plainRow<Row>(row: Record<string, unknown>): Row {
  for (const key in row) if (typeof row[key] === 'bigint') row[key] = Number(row[key])
  return row as Row
}

/**
 * Starts the statement now, not at a later tick (a Bun.SQL query runs when first awaited): statements go
 * down a connection in the order they are called, and those started together form one pipeline.
 */
function query<Row>(runner: Runner, text: string, params: readonly unknown[]): Promise<{ rows: Row[]; count: number }> {
  return runner.unsafe(text, params as unknown[]).then((result: Record<string, unknown>[] & { count: number }) => {
    const rows = result.map((row) => plainRow<Row>(row))
    return { rows, count: result.count ?? rows.length }
  })
}

/** Where a transaction's raw statements go: the connection, or (in its commit phase) the batch being collected. */
interface RawTarget {
  /** Throws once the transaction's COMMIT has been sent (a statement that would run outside it). */
  open(): void
  /** The commit batch while it is collected (commit-batch.ts), else undefined. */
  batch(): BatchedStatement[] | undefined
  /** Outside a transaction: after a statement that may have written (the change mark may move). */
  wrote?(text: string): void
}

const DIRECT: RawTarget = { open: () => undefined, batch: () => undefined }

class PostgresRaw implements RawSql {
  constructor(
    private readonly runner: Runner,
    private readonly target: RawTarget = DIRECT,
  ) {}
  private send<Row>(text: string, params: readonly SqlValue[]): Promise<{ rows: Row[]; count: number }> {
    this.target.open()
    const batch = this.target.batch()
    if (!batch) return query<Row>(this.runner, numbered(text), params)
    const settled = Promise.withResolvers<{ rows: Row[]; count: number }>()
    batch.push({ text, params, resolve: settled.resolve as BatchedStatement['resolve'], reject: settled.reject })
    return settled.promise
  }
  async all<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return (await this.send<Row>(text, params)).rows
  }
  async get<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return (await this.send<Row>(text, params)).rows[0]
  }
  async run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    try {
      return (await this.send(text, params)).count
    } finally {
      // After the statement: a read between a mark moved early and the write would be kept as current.
      this.target.wrote?.(text)
    }
  }
}

/**
 * Sends the collected statements and COMMIT as one simple query (commit-batch.ts), and settles each
 * statement's promise with its result. On a failure the server skipped the rest: every promise rejects,
 * the caller rolls back.
 */
async function commitBatch(connection: Runner, statements: BatchedStatement[]): Promise<void> {
  if (statements.length === 0) {
    await query(connection, 'COMMIT', [])
    return
  }
  let results: (Record<string, unknown>[] & { count: number })[]
  try {
    results = (await connection.unsafe(batchText(statements)).simple()) as unknown as typeof results
  } catch (error) {
    for (const statement of statements) statement.reject(error)
    throw error
  }
  statements.forEach((statement, i) => {
    const result = results[i]!
    const rows = result.map((row) => plainRow<Record<string, unknown>>(row))
    statement.resolve({ rows, count: result.count ?? rows.length })
  })
}

class Connection implements DatabaseConnection {
  constructor(
    private readonly runner: Runner,
    private readonly target: RawTarget,
  ) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    this.target.open()
    // The commit batch takes raw statements only (their `?` text is inlined there).
    if (this.target.batch()) throw new Error('an atCommit block must use tx.raw, not tx.kysely')
    const kind = compiled.query.kind
    if (kind === 'SelectQueryNode') return { rows: (await query<R>(this.runner, compiled.sql, compiled.parameters)).rows }
    try {
      const { rows, count } = await query<R>(this.runner, compiled.sql, compiled.parameters)
      return { rows, numAffectedRows: BigInt(count) }
    } finally {
      this.target.wrote?.(compiled.sql)
    }
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered; keyset pages instead
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported; page with a keyset instead')
  }
}

function kyselyOver(runner: Runner, target: RawTarget = DIRECT): Kysely<Tables> {
  const connection = new Connection(runner, target)
  const driver: Driver = {
    async init() {},
    async acquireConnection() {
      return connection
    },
    async beginTransaction() {
      throw new Error('use Database.write(name, block) for transactions')
    },
    async commitTransaction() {},
    async rollbackTransaction() {},
    async releaseConnection() {},
    async destroy() {},
  }
  const dialect: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  }
  return new Kysely<Tables>({ dialect })
}

export function openPostgres(url: string, options: PostgresOptions = {}): Database {
  const sql = new Bun.SQL(url, {
    bigint: true,
    max: options.max ?? 10,
    // Every statement of every connection: a lock waited for too long or a statement that runs away ends
    // with 55P03 / 57014 (503 to the client) instead of holding a connection; a transaction left open
    // by a stalled process is ended by the server.
    connection: {
      lock_timeout: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: 60_000,
      // The commit batch writes its strings as literals ('' for a quote, a backslash as itself).
      standard_conforming_strings: 'on',
    },
  })
  const slowMs = options.slowMs ?? 50
  const mark = new PostgresChangeMark(sql)
  // Statements outside a transaction (the pool): a write that names a watched table moves the mark once done.
  const pooled: RawTarget = { open: () => undefined, batch: () => undefined, wrote: (text) => mark.ran(text) }

  async function attempt<T>(name: string, block: (tx: Tx) => Promise<T>): Promise<T> {
    const connection = await sql.reserve()
    const effects: (() => void)[] = []
    const commitWork: (() => Promise<unknown>)[] = []
    const commitLocks = new Set<string>()
    const pendingAtCommit: { reject(error: unknown): void }[] = []
    let ended = false
    let batch: BatchedStatement[] | undefined
    // BEGIN has no parameter: Bun.SQL sends it alone, and the block's first statements after its answer.
    const begun = query(connection, 'BEGIN', [])
    begun.catch(() => undefined)
    try {
      const started = performance.now()
      const target: RawTarget = {
        open() {
          if (ended) throw new Error(`"${name}": a statement started after COMMIT (an atCommit block awaited between its statements)`)
        },
        batch: () => batch,
      }
      const tx: Tx = {
        kysely: kyselyOver(connection, target),
        raw: new PostgresRaw(connection, target),
        engine: 'postgres',
        name,
        forUpdate: ' FOR UPDATE',
        forKeyShare: ' FOR KEY SHARE',
        afterCommit(effect) {
          effects.push(effect)
        },
        atCommit<R>(statements: () => Promise<R>): Promise<R> {
          const settled = Promise.withResolvers<R>()
          settled.promise.catch(() => undefined)
          pendingAtCommit.push(settled)
          commitWork.push(() =>
            statements().then(settled.resolve, (error) => {
              settled.reject(error)
              throw error
            }),
          )
          return settled.promise
        },
        async lock(key) {
          await query(connection, LOCK, [key])
        },
        lockAtCommit(key) {
          commitLocks.add(key)
        },
      }
      const value = await block(tx)
      await begun
      // The commit pipeline, one message: the keyed locks in one order, the deferred statements (each
      // atCommit block starts its statements now, into the batch), COMMIT. The locks are held for the
      // server's execution of it, never across a round trip.
      batch = []
      const raw = tx.raw
      const locks = [...commitLocks].sort().map((key) => raw.run(LOCK_BATCHED, [key]))
      const works = commitWork.map((work) => work())
      // Last before COMMIT: whether a trigger of migration 0025 fired in this transaction.
      const authState = raw.get<{ changed: string | null }>(AUTH_STATE_CHANGED)
      authState.catch(() => undefined)
      const statements = batch
      batch = undefined
      ended = true
      // Settled whatever happens (a failed batch rejects them all): no rejection goes unhandled.
      const settled = Promise.allSettled([...locks, ...works])
      try {
        await commitBatch(connection, statements)
        if ((await authState)?.changed === 'on') mark.wrote()
      } catch (error) {
        // Failed at an unknown point (perhaps after COMMIT): what was read before may be old.
        mark.wrote()
        throw error
      }
      const outcomes = await settled
      const failed = outcomes.find((outcome) => outcome.status === 'rejected')
      if (failed) throw (failed as PromiseRejectedResult).reason
      const heldMs = performance.now() - started
      if (heldMs > slowMs && !name.startsWith(BULK_PREFIX)) options.onSlowWrite?.(name, Math.round(heldMs))
      for (const effect of effects) effect()
      return value
    } catch (error) {
      for (const settled of pendingAtCommit) settled.reject(error)
      // Also after a failed batch: the server skipped its COMMIT and the transaction is aborted.
      await query(connection, 'ROLLBACK', []).catch(() => undefined)
      throw error
    } finally {
      connection.release()
    }
  }

  async function write<T>(name: string, block: (tx: Tx) => Promise<T>): Promise<T> {
    let uniqueRetries = 0
    for (let round = 1; ; round++) {
      try {
        return await attempt(name, block)
      } catch (error) {
        if (isTimedOut(error)) throw new DatabaseBusy(`"${name}" timed out waiting for the database`, error)
        if (!isRetriedConflict(error)) throw error
        // A unique violation that repeats is not a race: the statement itself is wrong.
        if (isUniqueViolation(error) && ++uniqueRetries > UNIQUE_RETRIES) throw error
        if (round >= WRITE_ATTEMPTS) throw new DatabaseBusy(`"${name}" conflicted with other writes ${round} times`, error)
        options.onRetry?.(name, error)
        await Bun.sleep(retryDelayMs(round + 1))
      }
    }
  }

  return {
    engine: 'postgres',
    kysely: kyselyOver(sql, pooled),
    raw: new PostgresRaw(sql, pooled),
    write,
    changeMark: () => mark.current(),
    admin: {
      async optimize() {
        await sql.unsafe('ANALYZE')
      },
      async checkpoint() {
        return undefined
      },
      async snapshot<T>(block: (view: Queries) => Promise<T>): Promise<T> {
        // One connection, one snapshot taken at its first statement; the writes of every instance go on meanwhile.
        const view = (connection: Runner): Queries => ({
          kysely: kyselyOver(connection),
          raw: new PostgresRaw(connection),
          engine: 'postgres',
        })
        return (await sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', (connection) => block(view(connection)))) as T
      },
      async backupTo() {
        throw new Error(
          'a PostgreSQL database is backed up with pg_dump (see docs/several-instances.md, "Backups on PostgreSQL"), not by switchboard backup',
        )
      },
    },
    async close() {
      await mark.close()
      await sql.close()
    },
  }
}

/**
 * Refuses a database whose encoding is not UTF8: text of any script must round-trip, and the audit
 * chain's hash is computed by PostgreSQL over the UTF-8 bytes of its record (audit/append.ts).
 */
export async function requireUtf8(db: Pick<Database, 'raw'>): Promise<void> {
  const row = await db.raw.get<{ encoding: string }>(
    'SELECT pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database()',
  )
  if (row?.encoding !== 'UTF8')
    throw new Error(
      `the PostgreSQL database is encoded ${row?.encoding ?? 'unknown'}; Switchboard needs UTF8 (CREATE DATABASE … ENCODING 'UTF8' TEMPLATE template0)`,
    )
}
