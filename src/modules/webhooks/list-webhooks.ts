// listWebhooks: the organization's webhooks, newest first, paginated like every list.
import type { AppDeps, UserActor } from '../../context.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import { webhookJson, type WebhookRow } from './webhook-json.ts'

const LIST: ListDefinition<WebhookRow> = {
  resource: 'webhooks',
  columns: 'id, organization_id, url, events, secret_sealed, description, enabled, disabled_reason, disabled_at, consecutive_failures, failing_since, last_success_at, created_at, updated_at',
  from: 'webhooks',
  idExpr: 'id',
  sorts: { created_at: { expr: 'created_at', value: (r) => r.created_at } },
  id: (r) => r.id,
}

export function listWebhooks(deps: Pick<AppDeps, 'sqlite' | 'pageTokens'>, actor: UserActor, request: ListRequest) {
  const where = [{ sql: 'organization_id = ?', params: [actor.organizationId] }]
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, { organizationId: actor.organizationId, filters: {}, where })
  // Raw rows: SQLite hands booleans back as 0/1.
  return listBody('webhooks', page, (r) => webhookJson({ ...r, enabled: Boolean(r.enabled) }))
}
