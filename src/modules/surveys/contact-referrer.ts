// What a survey response does when the contact it captured is deleted or merged away: the response is
// feedback on the organization's service and counts in the metrics without it, so it lets go of a
// deleted contact and follows a merged one. Its contact_id is a snapshot nobody edits, with no event or
// audit record of its own: the contact's crm.contact.deleted or crm.contact.updated (merged_ids) records it.
import type { Referrer } from '../../references.ts'
import { repointSurveyContacts } from './store.ts'

export const surveyContactReferrer: Referrer = {
  record: 'survey response',
  onDelete: 'detach',
  async repoint(tx, _ctx, change) {
    await repointSurveyContacts(tx, change.organizationId, change.from, change.to, change.now)
  },
}
