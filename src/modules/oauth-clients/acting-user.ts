// Whom a client's client-credentials tokens act for: the user who registered it, so its permissions never exceed theirs; a client the operator registered (CLI) acts for its organization's longest-standing active Super Admin.
import type { Queries } from '../../db/database.ts'
import { oldestActiveSuperAdmin } from './store.ts'

/** The acting user's id; the caller still checks that this user is active (undefined: nobody to act for). */
export async function clientActingUserId(db: Queries, client: { organization_id: string; created_by: string | null }) {
  return client.created_by ?? (await oldestActiveSuperAdmin(db, client.organization_id))
}
