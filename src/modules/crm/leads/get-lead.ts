// getLead: one lead of the caller's organization (every role that reads leads reads them all); another
// organization's id is exactly as missing as one that does not exist.
import type { UserActor } from '../../../context.ts'
import type { Queries } from '../../../db/database.ts'
import { getInOrg } from '../../../db/get-in-org.ts'
import type { LeadRow } from './store.ts'

/** `db` is the transaction when the verb writes. */
export function getLead(db: Queries, actor: UserActor, id: string): Promise<LeadRow> {
  return getInOrg(db, 'leads', actor.organizationId, id, 'lead')
}
