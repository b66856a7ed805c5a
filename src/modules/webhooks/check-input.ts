// Checks of a webhook's url and events beyond their schemas, each failure naming its field. The url
// is judged against the organization's own allowed ranges (allowed-cidrs.ts).
import type { Queries } from '../../db/database.ts'
import { type FieldError, validationError } from '../../errors.ts'
import { allowedCidrsOf } from './allowed-cidrs.ts'
import { unknownFilters } from './filters.ts'
import { webhookUrlProblem } from './url.ts'

export async function checkWebhookInput(
  db: Queries,
  organizationId: string,
  input: { url?: string; events?: string[] },
): Promise<{ events?: string[] }> {
  const errors: FieldError[] = []
  if (input.url !== undefined) {
    const problem = webhookUrlProblem(input.url, await allowedCidrsOf(db, organizationId))
    if (problem) errors.push({ field: 'url', message: problem })
  }
  let events: string[] | undefined
  if (input.events !== undefined) {
    events = [...new Set(input.events)]
    const unknown = unknownFilters(events)
    if (unknown.length > 0)
      errors.push({
        field: 'events',
        message: `unknown event types: ${unknown.join(', ')} (use names of the catalog, * or a group prefix like ticket.*)`,
      })
  }
  if (errors.length > 0) throw validationError(errors)
  return { events }
}
