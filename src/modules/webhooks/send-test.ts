// sendTestEvent: POST /webhooks/{id}/test: an event of the asked type with sample data, sent to this
// webhook only (whatever its events filter), through the real pipeline; returns its delivery record.
// A test never counts toward disabling, and is not retried.
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { validationError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { recordEvent } from '../events/emit.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { isEventType, sampleData } from './sample-data.ts'
import { insertClaimedAttempt, sendClaimed } from './send-now.ts'

export async function sendTestEvent(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'webhooks'>, actor: UserActor, webhookId: string, eventType: string) {
  if (!isEventType(eventType)) throw validationError([{ field: 'event_type', message: `${JSON.stringify(eventType)} is not an event type of the catalog` }])
  const now = deps.clock.now()
  const claimed = write(deps.db, (tx) => {
    getWebhookInOrg(tx, actor.organizationId, webhookId)
    const event = recordEvent(tx, { organizationId: actor.organizationId, type: eventType, data: sampleData(eventType, isoTime(now)), now })
    return insertClaimedAttempt(tx, deps, { organizationId: actor.organizationId, webhookId, eventId: event.id, eventType, attempt: 1, trigger: 'test' }, now)
  })
  return sendClaimed(deps, claimed)
}
