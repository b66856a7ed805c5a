// Query and response schemas shared by every list endpoint: page_size, page_token, sort, include_total,
// and `{ <resource>: [...], next_page_token, total_count? }`; and the refusal of a query parameter a list
// does not know.
import { Type, type TArray, type TInteger, type TOptional, type TString } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import type { ListRequest } from '../db/list.ts'
import { validationError } from '../errors.ts'
import { oneOfStrings } from './schema.ts'

export const PAGE_SIZE_DEFAULT = 20
export const PAGE_SIZE_MAX = 100

/** `field:asc` and `field:desc` for each sortable field. */
export function sortValues<const F extends readonly string[]>(fields: F): string[] {
  return fields.flatMap((f) => [`${f}:asc`, `${f}:desc`])
}

// Marks the parameters these helpers make, so that the platform knows a list's (or an export's) query
// from any other's (isListQuery). A symbol: TypeBox's copies keep it and the OpenAPI document never shows it.
const LIST_PARAMETER = Symbol('list parameter')

function listParameter<S extends TSchema>(schema: S): S {
  ;(schema as unknown as Record<symbol, boolean>)[LIST_PARAMETER] = true
  return schema
}

/** A query schema built with pagingQuery or exportSortQuery: its parameters are all a list knows. */
export function isListQuery(schema: unknown): schema is { properties: Record<string, unknown> } {
  const properties = (schema as { properties?: unknown } | undefined)?.properties
  if (typeof properties !== 'object' || properties === null) return false
  return Object.values(properties).some((p) => typeof p === 'object' && p !== null && LIST_PARAMETER in p)
}

/**
 * 400 naming each query parameter of `url` that a list does not know, and the ones it does. Elysia drops an
 * unknown parameter silently: a misspelled filter (`?limit=20`, `?stauts=open`) would answer unfiltered data.
 * `access_token` is left to the authenticator, whose 401 says where a token goes instead.
 */
export function refuseUnknownParameters(url: string, known: readonly string[]): void {
  const start = url.indexOf('?')
  if (start === -1) return
  const unknown = new Set<string>()
  for (const name of new URLSearchParams(url.slice(start + 1)).keys())
    if (name !== '' && name !== 'access_token' && !known.includes(name)) unknown.add(name)
  if (unknown.size === 0) return
  const names = [...unknown]
  const message = `is not a parameter of this list; known: ${known.join(', ')}`
  throw validationError(
    names.map((field) => ({ field, message })),
    `Unknown query parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}`,
  )
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
    page_token: listParameter(
      t.Optional(
        t.String({ minLength: 1, maxLength: 2048, description: 'next_page_token of the previous page; keep filters and sort unchanged' }),
      ),
    ),
    sort: t.Optional(oneOfStrings(sortValues(sortFields), { description: '`field:direction`; default created_at:desc' })),
    include_total: t.Optional(t.Boolean({ description: 'Add total_count, the number of items the filters select' })),
  }
}

/** The sort of an export (a whole list, streamed as CSV): the list's sorts, oldest first by default. */
export function exportSortQuery(sortFields: readonly string[]) {
  return {
    sort: listParameter(t.Optional(oneOfStrings(sortValues(sortFields), { description: '`field:direction`; default created_at:asc' }))),
  }
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
