// The data layer every module sees: Kysely over the engine's dialect, a raw-SQL helper for the hottest
// statements, and write transactions. Engine-specific code lives only in the dialect files.
import type { Kysely } from 'kysely'

/**
 * Every table, as its rows look in the database (snake_case column names). Empty here: each module's
 * `table.ts` adds its tables by declaration merging, so this file imports no module.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging from the modules
export interface Tables {}

export type Engine = 'sqlite' | 'postgres'

/** A bound value: SQL text and its values stay apart, always. */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array

/**
 * Portable SQL text with `?` placeholders, run as a prepared statement (SQLite) or an extended-protocol
 * query (PostgreSQL). For the hot paths where building the query with Kysely costs more than running it.
 */
export interface RawSql {
  all<Row>(text: string, params?: readonly SqlValue[]): Promise<Row[]>
  get<Row>(text: string, params?: readonly SqlValue[]): Promise<Row | undefined>
  /** The number of rows the statement changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>
}

/** Where queries run: the database (reads on the read connection) or an open write transaction. */
export interface Queries {
  readonly kysely: Kysely<Tables>
  readonly raw: RawSql
  readonly engine: Engine
}

/**
 * An open write transaction. SQLite: it holds the one writer until its block settles. PostgreSQL: READ
 * COMMITTED, concurrent with every other instance's transactions; a read-modify-write protects itself
 * (src/db/README.md says how) and the whole block is run again after a deadlock or a unique violation.
 */
export interface Tx extends Queries {
  /** What the transaction does, for the slow-lock warning and errors. */
  readonly name: string
  /** Runs `effect` after a successful commit (never after a rollback); for wake-ups, not for I/O the write needs. */
  afterCommit(effect: () => void): void
  /**
   * Starts `statements` after the block has returned, just before COMMIT, in the order registered. On
   * PostgreSQL they and the COMMIT go down the connection as one pipeline: a lock they take (a per-
   * organization counter, lockAtCommit) is held for the server's work only, never for a network round
   * trip. Start every statement without awaiting between them. The promise settles at commit: never
   * await it inside the block (the block would wait for itself).
   */
  atCommit<T>(statements: () => Promise<T>): Promise<T>
  /**
   * Serializes this transaction with every other that locks the same key, until it ends (PostgreSQL:
   * a transaction-scoped advisory lock on the key's hash; SQLite: nothing, its one writer already does).
   */
  lock(key: string): Promise<void>
  /** As lock(), taken first in the commit pipeline (keys in sorted order, so two commits never deadlock). */
  lockAtCommit(key: string): void
  /** `' FOR UPDATE'` on PostgreSQL, `''` on SQLite: appended to a SELECT of the row the transaction will change. */
  readonly forUpdate: string
  /**
   * `' FOR KEY SHARE'` on PostgreSQL, `''` on SQLite: appended to a SELECT of a row the transaction
   * will name (a foreign key): a delete of it waits for this commit, or this read waits for the delete
   * and no longer finds it, so the insert that names it never fails on the foreign key.
   */
  readonly forKeyShare: string
}

/** `tx.forKeyShare` inside a write transaction, `''` on a read connection. */
export function keyShareIn(db: Queries): string {
  return 'forKeyShare' in db ? (db as Tx).forKeyShare : ''
}

export interface Database extends Queries {
  /**
   * Runs `block` in one write transaction (SQLite: `BEGIN IMMEDIATE` under the one writer's lock;
   * PostgreSQL: READ COMMITTED, run again up to a few times after a deadlock, a serialization failure
   * or a unique violation, then `DatabaseBusy`). It commits when the block resolves and rolls back when
   * it throws. No network I/O and no password hashing inside: the block may run more than once, and on
   * SQLite every other write waits for this one.
   */
  write<T>(name: string, block: (tx: Tx) => Promise<T>): Promise<T>
  /**
   * A number that moves whenever the database may have changed since it was read: on SQLite at once
   * for every write of this process and from its next event-loop turn for another process's
   * (sqlite-change-mark.ts); on PostgreSQL for changes to users, organizations, plans, API keys and MFA factors
   * only, this instance's at once and another's once its notification arrives (postgres-change-mark.ts).
   * Undefined while the engine cannot tell.
   * Lets a cache of small, hot reads of this process stay exact: an entry read under one mark is good
   * while the mark stays.
   */
  changeMark?(): number | undefined
  /** Engine maintenance and files; what the engine cannot do, it says so. */
  readonly admin: DatabaseAdmin
  close(): Promise<void>
}

/** What a checkpoint found: frames in the write-ahead log, how many it moved, whether a reader held some back. */
export interface CheckpointReport {
  walFrames: number
  checkpointedFrames: number
  busy: boolean
}

export interface DatabaseAdmin {
  /** Lets the engine refresh its planner statistics (SQLite `PRAGMA optimize`). */
  optimize(): Promise<void>
  /**
   * Folds what it can of the write-ahead log into the main file without waiting for readers (SQLite
   * PASSIVE); undefined where the engine keeps no such log of its own.
   */
  checkpoint(): Promise<CheckpointReport | undefined>
  /** A consistent online copy in one file (SQLite `VACUUM INTO`). */
  backupTo(path: string): Promise<void>
  /**
   * Runs `block` on one consistent, read-only view of the whole database while writers go on: for a
   * reader that pages through much data and must see no page move under it (audit verify). PostgreSQL:
   * a REPEATABLE READ READ ONLY transaction; SQLite: a read transaction on a connection of its own.
   * Statements that write fail inside it.
   */
  snapshot<T>(block: (view: Queries) => Promise<T>): Promise<T>
}
