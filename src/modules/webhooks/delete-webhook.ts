// deleteWebhook: removes the webhook and its delivery records; pending deliveries go with them.
import { eq } from 'drizzle-orm'
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { actorOf, audit } from '../audit/record.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import { webhookDeliveries, webhooks } from './table.ts'

export function deleteWebhook(deps: Pick<AppDeps, 'db' | 'clock'>, actor: UserActor, id: string): void {
  const now = deps.clock.now()
  write(deps.db, (tx) => {
    const row = getWebhookInOrg(tx, actor.organizationId, id)
    tx.delete(webhookDeliveries).where(eq(webhookDeliveries.webhook_id, id)).run()
    tx.delete(webhooks).where(eq(webhooks.id, id)).run()
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'webhook.deleted', target: { type: 'webhook', id }, details: { url: row.url }, request: actor.request, now })
  })
}
