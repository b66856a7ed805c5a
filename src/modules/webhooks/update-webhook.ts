// updateWebhook: changes url, events, secret, description, or turns the webhook off or back on.
// Turning it on clears the failure state: the next event starts a fresh count of failures.
import { eq } from 'drizzle-orm'
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { actorOf, audit } from '../audit/record.ts'
import { checkWebhookInput } from './check-input.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { sealWebhookSecret } from './secret.ts'
import { webhooks } from './table.ts'
import { webhookJson, type WebhookRow } from './webhook-json.ts'

export interface WebhookChanges {
  url?: string
  events?: string[]
  secret?: string
  description?: string | null
  enabled?: boolean
}

export function updateWebhook(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'masterKey'>, actor: UserActor, id: string, input: WebhookChanges) {
  const { events } = checkWebhookInput(deps.db, actor.organizationId, input)
  const now = deps.clock.now()
  return write(deps.db, (tx) => {
    const before = getWebhookInOrg(tx, actor.organizationId, id)
    const changes: Partial<WebhookRow> = { updated_at: now }
    if (input.url !== undefined) changes.url = input.url
    if (events !== undefined) changes.events = JSON.stringify(events)
    if (input.secret !== undefined) changes.secret_sealed = sealWebhookSecret(deps.masterKey, id, input.secret)
    if (input.description !== undefined) changes.description = input.description
    if (input.enabled === true && !before.enabled) {
      Object.assign(changes, { enabled: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null })
    } else if (input.enabled === false && before.enabled) {
      Object.assign(changes, { enabled: false, disabled_reason: 'manual', disabled_at: now })
    }
    const after = tx.update(webhooks).set(changes).where(eq(webhooks.id, id)).returning().get()!
    const changed = Object.keys(input).filter((k) => k !== 'secret' || input.secret !== undefined)
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'webhook.updated', target: { type: 'webhook', id }, details: { changed, enabled: after.enabled }, request: actor.request, now })
    return webhookJson(after)
  })
}
