// The reports' part in deleting a ticket (src/references.ts): in the deleting transaction, the ticket is
// marked deleted for the reports, so its facts leave every figure at once (and the totals at the next fold).
import type { Referrer } from '../../references.ts'
import { insertDeletion } from './store.ts'

export const reportsTicketReferrer: Referrer = {
  record: 'report fact',
  onDelete: 'detach',
  async repoint(tx, _ctx, change) {
    if (change.to === null) await insertDeletion(tx, change.organizationId, change.from, change.now)
  },
}
