// listUploads: the organization's uploads (those whose bytes have all arrived), filtered, keyset-paginated.
import type { Ctx, UserActor } from '../../context.ts'
import { type Condition, type ListRequest, listBody } from '../../db/list.ts'
import type { UploadPurpose } from './lifecycle.ts'
import { UPLOAD_LIST, VISIBLE } from './store.ts'
import { uploadJson } from './upload-json.ts'

export interface UploadFilters {
  status?: 'pending' | 'attached' | 'expired' | 'deleted'
  purpose?: UploadPurpose
  created_by?: string
}

export async function listUploads(ctx: Ctx<UserActor>, input: { filters: UploadFilters; request: ListRequest }) {
  const { status, purpose, created_by } = input.filters
  const where: Condition[] = [{ sql: VISIBLE, params: [] }]
  if (status !== undefined) where.push({ sql: 'uploads.status = ?', params: [status] })
  if (purpose !== undefined) where.push({ sql: 'uploads.purpose = ?', params: [purpose] })
  if (created_by !== undefined) where.push({ sql: 'uploads.created_by = ?', params: [created_by] })
  const page = await UPLOAD_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: ctx.actor.organizationId,
    filters: { ...input.filters },
    where,
  })
  return listBody('uploads', page, uploadJson)
}
