// The user as it is now (role, status, the organization's allowlist and rates), read on every request,
// kept in memory while the database's change mark says nothing it depends on was committed since
// (db/marked-cache.ts). On SQLite every commit (a role changed, a user disabled, an allowlist or a plan
// set, by this process or by a command on the same file) makes the next request read again; on
// PostgreSQL a change to a user, an organization or a plan does, at once when this instance made it and
// once its notification arrives when another instance or process did (db/postgres-change-mark.ts).
import type { Database } from '../../db/database.ts'
import { type MarkedCache, markedCacheOf } from '../../db/marked-cache.ts'
import { type UserState, userState } from './store.ts'

const caches = new WeakMap<Database, MarkedCache<UserState | undefined>>()

/** userState, from memory while nothing was committed since it was read. */
export async function currentUserState(db: Database, userId: string, organizationId: string): Promise<UserState | undefined> {
  // The organization is part of the key: a token names both, and both must match the row.
  return markedCacheOf(caches, db).get(`${organizationId}\n${userId}`, () => userState(db, userId, organizationId))
}
