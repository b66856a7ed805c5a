// The user as it is now (role, status, the organization's allowlist and rates), read on every request,
// kept in memory where the engine can say exactly when the database may have changed (SQLite:
// Database.changeMark). An entry is used only while the mark it was read under stays, so every commit
// (a role changed, a user disabled, an allowlist or a plan set, by this process or by a command on the
// same file) makes the next request read again. On PostgreSQL, where other instances write, it reads.
import type { Database } from '../../db/database.ts'
import { type UserState, userState } from './store.ts'

/** Past this many users between two commits, the entries start again (a bound on memory, not a policy). */
const MAX_ENTRIES = 10_000

interface Entries {
  mark: number
  states: Map<string, UserState | undefined>
}

const cacheOf = new WeakMap<Database, Entries>()

/** userState, from memory while nothing was committed since it was read. */
export async function currentUserState(db: Database, userId: string, organizationId: string): Promise<UserState | undefined> {
  if (db.changeMark === undefined) return userState(db, userId, organizationId)
  const mark = db.changeMark()
  let entries = cacheOf.get(db)
  if (entries?.mark !== mark || entries.states.size >= MAX_ENTRIES) cacheOf.set(db, (entries = { mark, states: new Map() }))
  // The organization is part of the key: a token names both, and both must match the row.
  const key = `${organizationId}\n${userId}`
  if (entries.states.has(key)) return entries.states.get(key)
  const state = await userState(db, userId, organizationId)
  // Kept only if nothing was committed while it was read: it is then the state under `mark`.
  if (db.changeMark() === mark) entries.states.set(key, state)
  return state
}
