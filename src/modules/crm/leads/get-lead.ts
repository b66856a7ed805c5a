// getLead: one lead of the caller's organization (every role that reads leads reads them all); another
// organization's id is exactly as missing as one that does not exist.
import type { UserActor } from '../../../context.ts'
import type { Queries, Tx } from '../../../db/database.ts'
import { getInOrg } from '../../../db/get-in-org.ts'
import { AppError } from '../../../errors.ts'
import { type LeadRow, lockLead } from './store.ts'

/** `db` is the transaction when the verb writes. */
export function getLead(db: Queries, actor: UserActor, id: string): Promise<LeadRow> {
  return getInOrg(db, 'leads', actor.organizationId, id, 'lead')
}

/** As getLead, locked FOR UPDATE until the transaction ends (lockLead): for a verb that changes, converts or deletes it. */
export async function getLeadForUpdate(tx: Tx, actor: UserActor, id: string): Promise<LeadRow> {
  const lead = await lockLead(tx, actor.organizationId, id)
  if (!lead) throw new AppError('NOT_FOUND', 'No such lead')
  return lead
}
