// A per-process cache of small, hot reads that stays exact: an entry is used only while the database's
// change mark (Database.changeMark) is the one it was read under, so any commit makes the next lookup
// read again. While the engine cannot give a mark (PostgreSQL before its notifications are known to
// arrive), it always reads. On PostgreSQL the mark follows the users, organizations, plans, API keys
// and MFA factors only: cache nothing else with it.
import type { Database } from './database.ts'

/** Past this many keys between two commits, the entries start again (a bound on memory, not a policy). */
const MAX_ENTRIES = 10_000

export class MarkedCache<V> {
  private mark = -1
  private entries = new Map<string, V>()

  constructor(private readonly db: Database) {}

  /** The value of `key`: from memory while nothing was committed since `read` gave it, else `read()`. */
  async get(key: string, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const mark = this.db.changeMark?.()
    if (mark === undefined) return read()
    if (mark !== this.mark || this.entries.size >= MAX_ENTRIES) {
      this.mark = mark
      this.entries = new Map()
    }
    if (this.entries.has(key)) return this.entries.get(key) as V
    const value = await read()
    // Kept only if nothing was committed while it was read: it is then the value under `mark`.
    if (keep(value) && this.db.changeMark?.() === mark && this.mark === mark) this.entries.set(key, value)
    return value
  }
}

/** One cache per database and purpose, for modules that hold no state of their own. */
export function markedCacheOf<V>(caches: WeakMap<Database, MarkedCache<V>>, db: Database): MarkedCache<V> {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new MarkedCache<V>(db)))
  return cache
}
