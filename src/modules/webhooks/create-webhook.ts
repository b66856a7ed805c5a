// createWebhook: registers a receiver for some of the organization's events (at most 50 a organization).
import { eq, sql } from 'drizzle-orm'
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { actorOf, audit } from '../audit/record.ts'
import { checkWebhookInput } from './check-input.ts'
import { sealWebhookSecret } from './secret.ts'
import { webhooks } from './table.ts'
import { webhookJson, type WebhookRow } from './webhook-json.ts'

export const MAX_WEBHOOKS_PER_ORGANIZATION = 50

export interface NewWebhook {
  url: string
  events: string[]
  secret: string
  description?: string
}

export function createWebhook(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'masterKey'>, actor: UserActor, input: NewWebhook) {
  const { events } = checkWebhookInput(deps.db, actor.organizationId, input)
  const now = deps.clock.now()
  const id = prefixedId('whk')
  const row: WebhookRow = {
    id,
    organization_id: actor.organizationId,
    url: input.url,
    events: JSON.stringify(events),
    secret_sealed: sealWebhookSecret(deps.masterKey, id, input.secret),
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
  write(deps.db, (tx) => {
    const count = tx.select({ n: sql<number>`count(*)` }).from(webhooks).where(eq(webhooks.organization_id, actor.organizationId)).get()!.n
    if (count >= MAX_WEBHOOKS_PER_ORGANIZATION) throw new AppError('LIMIT_REACHED', `An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks: delete one first`)
    tx.insert(webhooks).values(row).run()
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'webhook.created', target: { type: 'webhook', id }, details: { url: row.url, events }, request: actor.request, now })
  })
  return webhookJson(row)
}
