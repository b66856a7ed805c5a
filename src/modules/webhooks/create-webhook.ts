// createWebhook: registers a receiver for some of the organization's events (at most 50 an organization).
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { checkWebhookInput } from './check-input.ts'
import { sealWebhookSecret } from './secret.ts'
import { countWebhooks, insertWebhook, type WebhookRow } from './store/webhooks.ts'

export const MAX_WEBHOOKS_PER_ORGANIZATION = 50

export interface NewWebhook {
  url: string
  events: string[]
  secret: string
  description?: string
}

export async function createWebhook(ctx: Ctx<UserActor>, input: NewWebhook): Promise<WebhookRow> {
  const { actor } = ctx
  const { events } = await checkWebhookInput(ctx.db, actor.organizationId, input)
  const now = ctx.clock.now()
  const id = prefixedId('whk')
  const row: WebhookRow = {
    id,
    organization_id: actor.organizationId,
    url: input.url,
    events: JSON.stringify(events),
    // Sealed before the transaction: no crypto while the writer is held.
    secret_sealed: sealWebhookSecret(ctx.masterKey, id, input.secret),
    description: input.description ?? null,
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    consecutive_failures: 0,
    failing_since: null,
    last_success_at: null,
    created_at: now,
    updated_at: now,
  }
  await ctx.db.write('webhook.create', async (tx) => {
    // At most 50: creations in this organization at once count one after another (only they wait).
    await tx.lock(`webhooks-count:${actor.organizationId}`)
    if ((await countWebhooks(tx, actor.organizationId)) >= MAX_WEBHOOKS_PER_ORGANIZATION) {
      throw new AppError('LIMIT_REACHED', `An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks: delete one first`)
    }
    await insertWebhook(tx, row)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'webhook.created',
      target: { type: 'webhook', id },
      details: { url: row.url, events },
      request: actor.request,
      now,
    })
  })
  return row
}
