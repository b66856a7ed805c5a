// The server engine: PostgreSQL through Bun.SQL behind Kysely, for several instances. Portable SQL
// text (`?` placeholders) becomes `$1…$n` once per statement; int8 values come back as BigInt and are
// handed to the modules as numbers (epoch milliseconds and counts are far inside 2^53). A write
// transaction runs on one reserved connection and takes a transaction-scoped advisory lock first: every
// write of every instance is serialized, which keeps the guarantees the embedded engine gives (one
// writer: a read-then-write inside a transaction is never interleaved with another).
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
import { BULK_PREFIX } from './writer-lock.ts'

/** What runs a statement: the pool, or the reserved connection of a transaction. */
type Runner = Pick<Bun.SQL, 'unsafe'>

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number
  onSlowWrite?(name: string, heldMs: number): void
  slowMs?: number
}

/** The advisory lock every write transaction takes: the single writer of the embedded engine, cluster-wide. */
const WRITER_LOCK = 0x5377_6264 // "Swbd"

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

async function query<Row>(runner: Runner, text: string, params: readonly unknown[]): Promise<{ rows: Row[]; count: number }> {
  const result = (await runner.unsafe(text, params as unknown[])) as unknown as Record<string, unknown>[] & { count: number }
  const rows = result.map((row) => plainRow<Row>(row))
  return { rows, count: result.count ?? rows.length }
}

class PostgresRaw implements RawSql {
  constructor(private readonly runner: Runner) {}
  async all<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return (await query<Row>(this.runner, numbered(text), params)).rows
  }
  async get<Row>(text: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return (await query<Row>(this.runner, numbered(text), params)).rows[0]
  }
  async run(text: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await query(this.runner, numbered(text), params)).count
  }
}

class Connection implements DatabaseConnection {
  constructor(private readonly runner: Runner) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, count } = await query<R>(this.runner, compiled.sql, compiled.parameters)
    const kind = compiled.query.kind
    return kind === 'SelectQueryNode' ? { rows } : { rows, numAffectedRows: BigInt(count) }
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered; keyset pages instead
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported; page with a keyset instead')
  }
}

function kyselyOver(runner: Runner): Kysely<Tables> {
  const connection = new Connection(runner)
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
  const sql = new Bun.SQL(url, { bigint: true, max: options.max ?? 10 })
  const slowMs = options.slowMs ?? 50

  async function write<T>(name: string, block: (tx: Tx) => Promise<T>): Promise<T> {
    let effects: (() => void)[] | undefined
    const result = await sql.begin(async (connection) => {
      await connection.unsafe('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK])
      const started = performance.now()
      const tx: Tx = {
        kysely: kyselyOver(connection),
        raw: new PostgresRaw(connection),
        engine: 'postgres',
        name,
        afterCommit(effect) {
          ;(effects ??= []).push(effect)
        },
      }
      const value = await block(tx)
      const heldMs = performance.now() - started
      if (heldMs > slowMs && !name.startsWith(BULK_PREFIX)) options.onSlowWrite?.(name, Math.round(heldMs))
      return value
    })
    if (effects) for (const effect of effects) effect()
    return result as T
  }

  return {
    engine: 'postgres',
    kysely: kyselyOver(sql),
    raw: new PostgresRaw(sql),
    write,
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
          'a PostgreSQL database is backed up with pg_dump (see the README, "Backups on PostgreSQL"), not by switchboard backup',
        )
      },
    },
    async close() {
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
