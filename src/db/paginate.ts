// paginate(): the one list mechanism. Filters are applied before the keyset; the page token binds the
// organization, the filters and the sort; `next_page_token` is "" on the last page.
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { queryDigest } from '../lib/page-token.ts'
import { countSql, keysetSql, type Condition, type Direction } from './keyset.ts'
import type { PageTokens } from './page-tokens.ts'

export interface ListDefinition<Row> {
  /** Binds tokens to this list: a token of another list is "other query". */
  resource: string
  columns: string
  from: string
  idExpr: string
  /** Sortable fields: the SQL expression and how to read the value from a row. */
  sorts: Record<string, { expr: string; value(row: Row): string | number }>
  id(row: Row): string
}

export interface ListRequest {
  pageSize: number
  pageToken?: string
  /** `field:direction`, already validated against the definition's sorts. */
  sort: string
  includeTotal: boolean
}

export interface ListScope {
  organizationId: string
  /** The filters as the client gave them (bound into the token). */
  filters: Record<string, unknown>
  /** Their SQL, organization scope and visibility rules included. */
  where: Condition[]
}

export interface Page<Row> {
  rows: Row[]
  nextPageToken: string
  totalCount?: number
}

export function paginate<Row>(sqlite: Database, tokens: PageTokens, def: ListDefinition<Row>, request: ListRequest, scope: ListScope): Page<Row> {
  const [field, direction] = request.sort.split(':') as [string, Direction]
  const sort = def.sorts[field]
  if (!sort) throw new Error(`${def.resource} cannot be sorted by ${field}`)
  const binding = { organizationId: scope.organizationId, query: queryDigest(def.resource, scope.filters, request.sort) }
  const after = request.pageToken ? tokens.decode(request.pageToken, binding).after : undefined

  // One row more than asked tells whether another page follows.
  const query = keysetSql({ columns: def.columns, from: def.from, where: scope.where, sortExpr: sort.expr, direction, idExpr: def.idExpr, after, limit: request.pageSize + 1 })
  const rows = sqlite.query<Row, SQLQueryBindings[]>(query.sql).all(...query.params)
  const more = rows.length > request.pageSize
  if (more) rows.pop()
  const last = rows.at(-1)
  const page: Page<Row> = {
    rows,
    nextPageToken: more && last ? tokens.encode(binding, { after: [sort.value(last), def.id(last)] }) : '',
  }
  if (request.includeTotal) {
    const count = countSql({ from: def.from, where: scope.where })
    page.totalCount = sqlite.query<{ n: number }, SQLQueryBindings[]>(count.sql).get(...count.params)!.n
  }
  return page
}

/** The body of a list response: `{ <key>: items, next_page_token, total_count? }`. */
export function listBody<K extends string, Row, Item>(key: K, page: Page<Row>, toItem: (row: Row) => Item) {
  const body = { [key]: page.rows.map(toItem), next_page_token: page.nextPageToken } as Record<K, Item[]> & { next_page_token: string; total_count?: number }
  if (page.totalCount !== undefined) body.total_count = page.totalCount
  return body
}
