// The fold's memory of records (a ticket's last status, an agent's status since when), read from
// report_state on first use and written back by the fold; the report-time fold of the newest events
// keeps its changes in memory only.
import type { Queries, Tx } from '../../db/database.ts'
import type { FoldState } from './metric.ts'
import { readState, readStates, writeStates } from './store.ts'

export class StateView implements FoldState {
  private readonly values = new Map<string, unknown>()
  private readonly dirty = new Set<string>()

  constructor(
    private readonly db: Queries,
    private readonly organizationId: string,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    if (!this.values.has(key)) this.values.set(key, await readState(this.db, this.organizationId, key))
    const value = this.values.get(key)
    return value === null ? undefined : (value as T | undefined)
  }

  set(key: string, value: unknown): void {
    this.values.set(key, value)
    this.dirty.add(key)
  }

  /** Values read elsewhere (in one query), kept unless this view already holds the key. */
  preload(values: ReadonlyMap<string, unknown>): void {
    for (const [key, value] of values) if (!this.values.has(key)) this.values.set(key, value)
  }

  entries(): IterableIterator<[string, unknown]> {
    return this.values.entries()
  }

  /** Reads `keys` in a few statements (the keys the events of a batch will ask for), unknown ones as absent. */
  async prefetch(keys: readonly string[]): Promise<void> {
    const missing = [...new Set(keys)].filter((key) => !this.values.has(key))
    const found = await readStates(this.db, this.organizationId, missing)
    for (const key of missing) this.values.set(key, found.get(key))
  }

  /** Writes what changed (inside the fold's transaction). */
  async save(tx: Tx): Promise<void> {
    await writeStates(
      tx,
      this.organizationId,
      [...this.dirty].map((key) => [key, this.values.get(key) ?? null] as [string, unknown]),
    )
    this.dirty.clear()
  }
}
