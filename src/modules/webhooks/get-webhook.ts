// Reading one webhook of the caller's organization: another organization's is NOT_FOUND, like a missing one.
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { webhooks } from './table.ts'
import type { WebhookRow } from './webhook-json.ts'

export function findWebhook(db: Db, organizationId: string, id: string): WebhookRow | undefined {
  return db.select().from(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.organization_id, organizationId))).get()
}

export function getWebhookInOrg(db: Db, organizationId: string, id: string): WebhookRow {
  const row = findWebhook(db, organizationId, id)
  if (!row) throw new AppError('NOT_FOUND', 'No such webhook')
  return row
}
