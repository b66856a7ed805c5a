// Query and response schemas shared by every list endpoint: page_size, page_token, sort, include_total,
// and `{ <resource>: [...], next_page_token, total_count? }`.
import { Type, type TArray, type TInteger, type TOptional, type TString } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import type { ListRequest } from '../db/list.ts'
import { oneOfStrings } from './schema.ts'

export const PAGE_SIZE_DEFAULT = 20
export const PAGE_SIZE_MAX = 100

/** `field:asc` and `field:desc` for each sortable field. */
export function sortValues<const F extends readonly string[]>(fields: F): string[] {
  return fields.flatMap((f) => [`${f}:asc`, `${f}:desc`])
}

/** The paging part of a list's query schema; spread it beside the list's own filters. */
export function pagingQuery(sortFields: readonly string[]) {
  return {
    page_size: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: PAGE_SIZE_MAX,
        'x-field': 'page_size',
        description: `Items per page, 1–${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT})`,
      }),
    ),
    page_token: t.Optional(
      t.String({ minLength: 1, maxLength: 2048, description: 'next_page_token of the previous page; keep filters and sort unchanged' }),
    ),
    sort: t.Optional(oneOfStrings(sortValues(sortFields), { description: '`field:direction`; default created_at:desc' })),
    include_total: t.Optional(t.Boolean({ description: 'Add total_count, the number of items the filters select' })),
  }
}

/** The sort of an export (a whole list, streamed as CSV): the list's sorts, oldest first by default. */
export function exportSortQuery(sortFields: readonly string[]) {
  return { sort: t.Optional(oneOfStrings(sortValues(sortFields), { description: '`field:direction`; default created_at:asc' })) }
}

export const EXPORT_SORT_DEFAULT = 'created_at:asc'

export function listRequest(query: { page_size?: number; page_token?: string; sort?: string; include_total?: boolean }): ListRequest {
  return {
    pageSize: query.page_size ?? PAGE_SIZE_DEFAULT,
    pageToken: query.page_token,
    sort: query.sort ?? 'created_at:desc',
    includeTotal: query.include_total ?? false,
  }
}

export function listResponse<K extends string, S extends TSchema>(key: K, item: S) {
  const properties = {
    [key]: t.Array(item),
    next_page_token: t.String({ description: 'Token of the next page; "" on the last page', examples: [''] }),
    total_count: t.Optional(Type.Integer({ description: 'Items the filters select (only with include_total=true)' })),
  } as Record<K, TArray<S>> & { next_page_token: TString; total_count: TOptional<TInteger> }
  return t.Object(properties)
}
