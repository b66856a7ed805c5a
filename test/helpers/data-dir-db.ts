// The database of a DATA_DIR opened directly by the test, as someone holding it could: the SQLite file,
// or on SWITCHBOARD_TEST_ENGINE=postgres the PostgreSQL database engine.ts gave that DATA_DIR. Portable
// SQL with `?` placeholders; no app code in between (tests read and tamper with what the app wrote).
import { Database as SqliteFile } from 'bun:sqlite'
import { join } from 'node:path'
import { numbered } from '../../src/db/postgres.ts'
import { databaseOf, TEST_ENGINE } from './engine.ts'

type Param = string | number | null

export interface DataDirDb {
  readonly engine: 'sqlite' | 'postgres'
  all<Row>(text: string, params?: readonly Param[]): Promise<Row[]>
  get<Row>(text: string, params?: readonly Param[]): Promise<Row | undefined>
  run(text: string, params?: readonly Param[]): Promise<void>
  /** Drops a trigger of `table` (the syntax differs: PostgreSQL names the table). */
  dropTrigger(name: string, table: string): Promise<void>
  close(): Promise<void>
}

function sqliteDb(dataDir: string, readonly: boolean): DataDirDb {
  const file = new SqliteFile(join(dataDir, 'switchboard.db'), readonly ? { readonly: true } : { create: false, readwrite: true })
  // A server may hold the file: wait for its writer rather than fail.
  file.run('PRAGMA busy_timeout = 5000')
  const bound = (params: readonly Param[]) => params as Param[]
  return {
    engine: 'sqlite',
    async all<Row>(text: string, params: readonly Param[] = []) {
      return file.query<Row, Param[]>(text).all(...bound(params))
    },
    async get<Row>(text: string, params: readonly Param[] = []) {
      return file.query<Row, Param[]>(text).get(...bound(params)) ?? undefined
    },
    async run(text: string, params: readonly Param[] = []) {
      file.query(text).run(...bound(params))
    },
    async dropTrigger(name: string) {
      file.run(`DROP TRIGGER IF EXISTS ${name}`)
    },
    async close() {
      file.close()
    },
  }
}

async function postgresDb(dataDir: string): Promise<DataDirDb> {
  const sql = new Bun.SQL(await databaseOf(dataDir, false), { max: 1, bigint: true })
  // BIGINT columns (epoch milliseconds, counts) as numbers, as the SQLite file gives them.
  const plain = <Row>(rows: Record<string, unknown>[]): Row[] =>
    rows.map((row) => {
      for (const key in row) if (typeof row[key] === 'bigint') row[key] = Number(row[key])
      return row as Row
    })
  const query = async (text: string, params: readonly Param[]) =>
    (await sql.unsafe(numbered(text), params as Param[])) as unknown as Record<string, unknown>[]
  return {
    engine: 'postgres',
    async all<Row>(text: string, params: readonly Param[] = []) {
      return plain<Row>(await query(text, params))
    },
    async get<Row>(text: string, params: readonly Param[] = []) {
      return plain<Row>(await query(text, params))[0]
    },
    async run(text: string, params: readonly Param[] = []) {
      await query(text, params)
    },
    async dropTrigger(name: string, table: string) {
      await sql.unsafe(`DROP TRIGGER IF EXISTS ${name} ON ${table}`)
    },
    async close() {
      await sql.close()
    },
  }
}

/** Opens the database of `dataDir` (read-only where the engine lets a file be opened so). */
export function openDataDirDb(dataDir: string, options: { readonly?: boolean } = {}): Promise<DataDirDb> {
  return TEST_ENGINE === 'postgres' ? postgresDb(dataDir) : Promise.resolve(sqliteDb(dataDir, options.readonly ?? false))
}

/** Runs `block` on the database of `dataDir`, closed afterwards. */
export async function withDataDirDb<T>(
  dataDir: string,
  block: (db: DataDirDb) => Promise<T>,
  options: { readonly?: boolean } = {},
): Promise<T> {
  const db = await openDataDirDb(dataDir, options)
  try {
    return await block(db)
  } finally {
    await db.close()
  }
}
