// listDeliveries: a webhook's delivery records, one per attempt, newest first; filters status and event_id.
import type { AppDeps, UserActor } from '../../context.ts'
import type { Condition } from '../../db/keyset.ts'
import { listBody, paginate, type ListDefinition, type ListRequest } from '../../db/paginate.ts'
import { deliveryJson, type DeliveryRow } from './delivery-json.ts'
import { getWebhookInOrg } from './get-webhook.ts'
import type { DeliveryStatus } from './table.ts'

const LIST: ListDefinition<DeliveryRow> = {
  resource: 'webhook_deliveries',
  columns:
    'id, organization_id, webhook_id, event_id, event_type, attempt, trigger, status, next_attempt_at, lease_until, response_code, response_time_ms, response_body, error_class, error_message, delivered_at, created_at',
  from: 'webhook_deliveries',
  idExpr: 'id',
  sorts: { created_at: { expr: 'created_at', value: (r) => r.created_at } },
  id: (r) => r.id,
}

export interface DeliveryFilters {
  status?: DeliveryStatus
  event_id?: string
}

export function listDeliveries(deps: Pick<AppDeps, 'db' | 'sqlite' | 'pageTokens'>, actor: UserActor, webhookId: string, filters: DeliveryFilters, request: ListRequest) {
  getWebhookInOrg(deps.db, actor.organizationId, webhookId)
  const where: Condition[] = [
    { sql: 'webhook_id = ?', params: [webhookId] },
    { sql: 'organization_id = ?', params: [actor.organizationId] },
  ]
  if (filters.status !== undefined) where.push({ sql: 'status = ?', params: [filters.status] })
  if (filters.event_id !== undefined) where.push({ sql: 'event_id = ?', params: [filters.event_id] })
  const page = paginate(deps.sqlite, deps.pageTokens, LIST, request, { organizationId: actor.organizationId, filters: { webhook_id: webhookId, ...filters }, where })
  return listBody('deliveries', page, deliveryJson)
}
