// updateWebhook: changes url, events, secret, description, or turns the webhook off or back on.
// Turning it on clears the failure state: the next event starts a fresh count of failures.
import type { Ctx, UserActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { checkWebhookInput } from './check-input.ts'
import { sealWebhookSecret } from './secret.ts'
import { lockWebhookInOrg, saveWebhook, type WebhookRow } from './store/webhooks.ts'

export interface WebhookChanges {
  url?: string
  events?: string[]
  secret?: string
  description?: string | null
  enabled?: boolean
}

export async function updateWebhook(ctx: Ctx<UserActor>, input: { id: string; changes: WebhookChanges }): Promise<WebhookRow> {
  const { actor } = ctx
  const { id, changes: asked } = input
  const { events } = await checkWebhookInput(ctx.db, actor.organizationId, asked)
  const now = ctx.clock.now()
  // Sealed before the transaction: no crypto while the writer is held.
  const secretSealed = asked.secret === undefined ? undefined : sealWebhookSecret(ctx.masterKey, id, asked.secret)
  return ctx.db.write('webhook.update', async (tx) => {
    // Locked: turning it on or off reads `enabled` then writes it; a PATCH at once on another instance waits.
    const before = await lockWebhookInOrg(tx, actor.organizationId, id, 'change')
    const changes: Partial<WebhookRow> = { updated_at: now }
    if (asked.url !== undefined) changes.url = asked.url
    if (events !== undefined) changes.events = JSON.stringify(events)
    if (secretSealed !== undefined) changes.secret_sealed = secretSealed
    if (asked.description !== undefined) changes.description = asked.description
    if (asked.enabled === true && !before.enabled) {
      Object.assign(changes, { enabled: true, disabled_reason: null, disabled_at: null, consecutive_failures: 0, failing_since: null })
    } else if (asked.enabled === false && before.enabled) {
      Object.assign(changes, { enabled: false, disabled_reason: 'manual', disabled_at: now })
    }
    const after = await saveWebhook(tx, id, changes)
    const changed = Object.keys(asked).filter((k) => k !== 'secret' || asked.secret !== undefined)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'webhook.updated',
      target: { type: 'webhook', id },
      details: { changed, enabled: Boolean(after.enabled) },
      request: actor.request,
      now,
    })
    return after
  })
}
